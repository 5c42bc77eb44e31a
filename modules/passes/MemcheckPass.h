//===- MemcheckPass.h - cucpu-memcheck --------------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_MEMCHECKPASS_H
#define CUCPU_MODULES_PASSES_MEMCHECKPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// CUCPU_MEMCHECK=1: before every load, store, atomic and memory intrinsic
/// of kernel code that may reach global or shared memory, a call of
/// __cucpu_memcheck(thread, address, size, kind) checks the address against
/// the context's allocations and the block's shared memory. Accesses to the
/// thread's own private memory (allocas), the compiler's constant tables
/// and the runtime's ABI structures are not checked.
struct MemcheckPass : llvm::PassInfoMixin<MemcheckPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-memcheck";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_MEMCHECKPASS_H

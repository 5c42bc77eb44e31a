//===- SharedMemoryPass.h - cucpu-shared-memory -----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_SHAREDMEMORYPASS_H
#define CUCPU_MODULES_PASSES_SHAREDMEMORYPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lays out __shared__ variables (addrspace(3)) and replaces them with
/// Block->Shared + offset; extern arrays with the dynamic shared base.
struct SharedMemoryPass : llvm::PassInfoMixin<SharedMemoryPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-shared-memory";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_SHAREDMEMORYPASS_H

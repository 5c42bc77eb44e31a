//===- NvvmMemoryPass.h - cucpu-nvvm-memory ---------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_NVVMMEMORYPASS_H
#define CUCPU_MODULES_PASSES_NVVMMEMORYPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lowers NVVM atomics, fences and cached loads (ldg, ldu) to host
/// atomics, fences and plain loads.
struct NvvmMemoryPass : llvm::PassInfoMixin<NvvmMemoryPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-nvvm-memory";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_NVVMMEMORYPASS_H

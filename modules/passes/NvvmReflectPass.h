//===- NvvmReflectPass.h - cucpu-nvvm-reflect -------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_NVVMREFLECTPASS_H
#define CUCPU_MODULES_PASSES_NVVMREFLECTPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Answers __nvvm_reflect queries with constants: no flush-to-zero, IEEE
/// division and square root, and the image's __CUDA_ARCH.
struct NvvmReflectPass : llvm::PassInfoMixin<NvvmReflectPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-nvvm-reflect";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_NVVMREFLECTPASS_H

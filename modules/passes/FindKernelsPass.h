//===- FindKernelsPass.h - cucpu-find-kernels -------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_FINDKERNELSPASS_H
#define CUCPU_MODULES_PASSES_FINDKERNELSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Marks the kernels (listed in !nvvm.annotations or with the ptx_kernel
/// calling convention) with the cucpu-kernel attribute.
struct FindKernelsPass : llvm::PassInfoMixin<FindKernelsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-find-kernels";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_FINDKERNELSPASS_H

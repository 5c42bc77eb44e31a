//===- NvvmMathPass.h - cucpu-nvvm-math -------------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_NVVMMATHPASS_H
#define CUCPU_MODULES_PASSES_NVVMMATHPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lowers NVVM arithmetic intrinsics (rounding-mode arithmetic,
/// conversions, approximate math, bit operations) to runtime-library calls.
struct NvvmMathPass : llvm::PassInfoMixin<NvvmMathPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-nvvm-math";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_NVVMMATHPASS_H

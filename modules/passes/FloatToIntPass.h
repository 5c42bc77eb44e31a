//===- FloatToIntPass.h - cucpu-float-to-int --------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_FLOATTOINTPASS_H
#define CUCPU_MODULES_PASSES_FLOATTOINTPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Gives conversions of floating-point values to integers the GPU's results
/// (fptosi, fptoui and their saturating intrinsics, which cucc's clang
/// emits for C++ casts): to 32 and 64 bits they saturate, NaN giving 0 from
/// a float to 32 bits and the sign bit alone otherwise (PTX cvt.rzi on an
/// H200); to 8 and 16 bits they are the low bits of the 32-bit conversion of
/// the same signedness, as nvcc converts them. A CPU would wrap instead.
struct FloatToIntPass : llvm::PassInfoMixin<FloatToIntPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-float-to-int";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_FLOATTOINTPASS_H

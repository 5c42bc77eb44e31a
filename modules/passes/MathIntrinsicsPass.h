//===- MathIntrinsicsPass.h - cucpu-math-intrinsics -------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_MATHINTRINSICSPASS_H
#define CUCPU_MODULES_PASSES_MATHINTRINSICSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Replaces calls of the runtime library's simplest math functions (fabs,
/// sqrt, floor, ceil, trunc, fma, rsqrt) with the LLVM operations that
/// compute exactly what the library does, so that the optimizer sees
/// through them (the loop vectorizer cannot vectorize an opaque call).
struct MathIntrinsicsPass : llvm::PassInfoMixin<MathIntrinsicsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-math-intrinsics";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_MATHINTRINSICSPASS_H

//===- NaNCanonicalization.h - Only the NaNs someone can see ----*- C++ -*-===//
//
// An H200 gives every .f32 NaN result the same bits, 0x7fffffff; the host
// keeps an operand's payload. The translator therefore follows each .f32
// operation with `select (fcmp uno x), 0x7fffffff, x` (ArithFloat.cpp). Most
// of these are invisible: a NaN that only flows into further arithmetic,
// comparisons and other canonicalizations has its bits replaced or ignored
// before anything can observe them. They are not free, though: in a chain of
// fused multiply-adds (an inner product) each one adds a compare and a blend
// to the chain. This pass removes a canonicalization whose value reaches no
// use that sees a NaN's bits (a store, a bitcast, a call, a conversion, a
// return) except through another canonicalization.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_NANCANONICALIZATION_H
#define CUCPU_PTX_NANCANONICALIZATION_H

#include "llvm/IR/PassManager.h"

namespace cucpu::ptx {

/// Removes the .f32 NaN canonicalizations no use can observe (see above).
struct NaNCanonicalizationPass : llvm::PassInfoMixin<NaNCanonicalizationPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace cucpu::ptx

#endif // CUCPU_PTX_NANCANONICALIZATION_H

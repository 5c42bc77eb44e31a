//===- Exp2Approx.h - 2^x for floats as straight-line IR ------------------===//
#ifndef CUCPU_MODULES_PASSES_EXP2APPROX_H
#define CUCPU_MODULES_PASSES_EXP2APPROX_H

#include "llvm/IR/IRBuilder.h"

namespace cucpu::modules {

/// Emits 2^\p X for a float \p X (PTX ex2.approx.f32) as straight-line IR
/// that a thread loop can vectorize: no call, no table. Within 0.87 ulp of
/// the exact value over every float, subnormal results included (the GPU
/// documents 2 ulp); exact for integers; +inf for X > 128, +0 for X <= -150
/// and -inf, and a quiet NaN for a NaN.
llvm::Value *emitExp2ApproxF32(llvm::IRBuilder<> &B, llvm::Value *X);

} // namespace cucpu::modules

#endif

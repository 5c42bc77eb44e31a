//===- DirectedFma.h - Float FMA rounded towards zero or an infinity ------===//
#ifndef CUCPU_MODULES_PASSES_DIRECTEDFMA_H
#define CUCPU_MODULES_PASSES_DIRECTEDFMA_H

#include "llvm/IR/IRBuilder.h"

namespace cucpu::modules {

/// The rounding of a directed FMA (PTX fma.rz/.rm/.rp, __fmaf_rz/rd/ru).
enum class FmaRounding { TowardZero, Down, Up };

/// Emits a * b + c for floats \p A, \p B, \p C, rounded once in \p Mode,
/// as straight-line IR that leaves the CPU's rounding mode alone (so thread
/// loops around it still vectorize). The product is exact in double; the
/// sum's rounding error comes from TwoSum, and the nearest float is then
/// moved one step where the exact value lies beyond it.
llvm::Value *emitDirectedFmaF32(llvm::IRBuilder<> &B, llvm::Value *A,
                                llvm::Value *Bv, llvm::Value *C,
                                FmaRounding Mode);

/// Replaces every call of the runtime's __nv_fmaf_{rz,rd,ru} (and their
/// _ieee_ forms) in \p M by emitDirectedFmaF32; whether any was replaced.
bool expandDirectedFmaCalls(llvm::Module &M);

} // namespace cucpu::modules

#endif

//===- ArithCommon.h - Shared pieces of the arithmetic handlers -*- C++ -*-===//
//
// The integer (Arithmetic.cpp), floating-point (ArithFloat.cpp), comparison
// (ArithCompare.cpp) and bit (Bits.cpp) handlers share operand reading, the
// carry flag of .cc/addc/subc/madc, and the entry points by which one
// opcode (add, min, ...) reaches the integer or the floating-point form.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_PTX_OPS_ARITHCOMMON_H
#define CUCPU_PTX_OPS_ARITHCOMMON_H

#include "Ops.h"

#include <vector>

namespace cucpu::ptx::arith {

/// Reads operands [From, From + Count) of \p I as \p T.
llvm::Expected<std::vector<llvm::Value *>> sources(FunctionTranslator &F,
                                                   const Instruction &I,
                                                   PtxType T, size_t From,
                                                   size_t Count);

/// A PTX type of kind \p K and \p Bits bits.
PtxType makeType(PtxType::Kind K, unsigned Bits);
/// .u32, the type of shift amounts, bit positions and counts.
inline PtxType u32Type() { return makeType(PtxType::Kind::Unsigned, 32); }
/// .pred.
inline PtxType predType() { return makeType(PtxType::Kind::Pred, 1); }

/// The function's carry flag (CC.CF), an i1 alloca created, cleared, on
/// first use.
llvm::Value *carryFlag(FunctionTranslator &F);

/// Whether \p T is a floating-point type (.f16, .bf16x2, .f32, ...).
inline bool isFloat(PtxType T) { return T.isFloat(); }

/// add, sub, mul, min, max of floating-point types (ArithFloat.cpp).
llvm::Error floatBinary(FunctionTranslator &F, const Instruction &I, PtxType T);
/// fma and mad of floating-point types (ArithFloat.cpp).
llvm::Error floatFma(FunctionTranslator &F, const Instruction &I, PtxType T);
/// neg and abs of floating-point types (ArithFloat.cpp).
llvm::Error floatUnary(FunctionTranslator &F, const Instruction &I, PtxType T);

/// setp, set, selp, slct (ArithCompare.cpp).
void addCompareOps(OpTable &T);
/// testp (ArithFloat.cpp; copysign is ops/Math.cpp's).
void addFloatOps(OpTable &T);

/// Converts the bits of a 16-bit float (\p T .f16 or .bf16) to float,
/// exactly.
llvm::Value *widen16(FunctionTranslator &F, llvm::Value *Bits, PtxType T);
/// Sign-preserving zero for a subnormal \p V of type \p T (.f32 values, or
/// the bits of .f16 values).
llvm::Value *flushSubnormal(FunctionTranslator &F, llvm::Value *V, PtxType T);
/// Lane \p K (0: the low half) of a packed .f16x2/.bf16x2 value.
llvm::Value *lane(FunctionTranslator &F, llvm::Value *Packed, unsigned K);
/// Packs two 16-bit lanes (\p Lo the low half) into 32 bits.
llvm::Value *pack(FunctionTranslator &F, llvm::Value *Lo, llvm::Value *Hi);

} // namespace cucpu::ptx::arith

#endif // CUCPU_PTX_OPS_ARITHCOMMON_H

//===- DirectedFma.cpp - Float FMA rounded towards zero or an infinity ----===//
//
// The runtime's __nv_fmaf_rd & co. switch the CPU's rounding mode around
// a fused multiply-add: correct, but a call, which keeps a thread loop
// from vectorizing, and two mode switches per value. nvcc's expf uses
// fma.rm in its range reduction, so every exp of PTX from nvcc paid it.
// Here the same result is computed with round-to-nearest arithmetic:
//   s = a * b           exact in double (24 + 24 significant bits)
//   t = s + c           rounded to nearest, in double
//   e = (s + c) - t     exact, by TwoSum (s, c and t are finite)
//   r = float(t)        rounded to nearest
//   d = double(r) - t   exact (r and t are within half a float ulp)
// r lies above the exact value s + c = t + e when d > e and below it when
// d < e; a directed rounding then moves r one float towards the value.
// NaNs and infinities make e NaN, so they are never moved; a finite sum
// that overflowed to infinity is moved back to the largest float when the
// rounding goes towards zero.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/passes/DirectedFma.h"

#include "AbiAccess.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace cucpu::modules {

namespace {

/// The float after (\p Up) or before \p R, for R not NaN; from a zero, the
/// smallest subnormal of that direction's sign.
Value *nextFloat(IRBuilder<> &B, Value *R, bool Up) {
  Type *I32 = B.getInt32Ty();
  Value *Bits = B.CreateBitCast(R, I32);
  Value *Zero = ConstantFP::get(R->getType(), 0.0);
  Value *Positive = B.CreateFCmpOGT(R, Zero);
  Value *Negative = B.CreateFCmpOLT(R, Zero);
  // Away from zero is one more in the bits; towards zero one less.
  Value *Away = B.CreateAdd(Bits, B.getInt32(1));
  Value *Toward = B.CreateSub(Bits, B.getInt32(1));
  Value *FromZero = B.getInt32(Up ? 0x00000001u : 0x80000001u);
  Value *Next =
      B.CreateSelect(Positive, Up ? Away : Toward,
                     B.CreateSelect(Negative, Up ? Toward : Away, FromZero));
  return B.CreateBitCast(Next, R->getType());
}

} // namespace

Value *emitDirectedFmaF32(IRBuilder<> &B, Value *A, Value *Bv, Value *C,
                          FmaRounding Mode) {
  Type *Double = B.getDoubleTy();
  Type *Float = B.getFloatTy();
  Value *Cd = B.CreateFPExt(C, Double);
  Value *S = B.CreateFMul(B.CreateFPExt(A, Double), B.CreateFPExt(Bv, Double));
  Value *T = B.CreateFAdd(S, Cd);
  Value *Bb = B.CreateFSub(T, S);
  Value *E = B.CreateFAdd(B.CreateFSub(S, B.CreateFSub(T, Bb)),
                          B.CreateFSub(Cd, Bb), "fma.error");
  Value *R = B.CreateFPTrunc(T, Float);
  Value *D = B.CreateFSub(B.CreateFPExt(R, Double), T);
  Value *Above = B.CreateFCmpOGT(D, E);
  Value *Below = B.CreateFCmpOLT(D, E);
  Value *ZeroD = ConstantFP::get(Double, 0.0);
  Value *Down = nullptr, *Up = nullptr;
  switch (Mode) {
  case FmaRounding::Down:
    Down = Above;
    Up = B.getFalse();
    break;
  case FmaRounding::Up:
    Down = B.getFalse();
    Up = Below;
    break;
  case FmaRounding::TowardZero:
    Down = B.CreateAnd(Above, B.CreateFCmpOGT(T, ZeroD));
    Up = B.CreateAnd(Below, B.CreateFCmpOLT(T, ZeroD));
    break;
  }
  Value *Result = B.CreateSelect(Down, nextFloat(B, R, false),
                                 B.CreateSelect(Up, nextFloat(B, R, true), R),
                                 "fma.directed");
  if (Mode == FmaRounding::Down) {
    // An exact zero sum is -0 when rounding down, unless both addends are
    // +0 (IEEE 754 §6.3); rounded to nearest, t is +0 there.
    Type *I64 = B.getInt64Ty();
    Value *SignS = B.CreateICmpSLT(B.CreateBitCast(S, I64), B.getInt64(0));
    Value *SignC = B.CreateICmpSLT(B.CreateBitCast(Cd, I64), B.getInt64(0));
    Value *NegativeZero = ConstantFP::getNegativeZero(Float);
    Value *PositiveZero = ConstantFP::get(Float, 0.0);
    Result = B.CreateSelect(
        B.CreateFCmpOEQ(T, ZeroD),
        B.CreateSelect(B.CreateOr(SignS, SignC), NegativeZero, PositiveZero),
        Result);
  }
  return Result;
}

bool expandDirectedFmaCalls(Module &M) {
  static const std::pair<const char *, FmaRounding> Names[] = {
      {"__nv_fmaf_rz", FmaRounding::TowardZero},
      {"__nv_fmaf_rd", FmaRounding::Down},
      {"__nv_fmaf_ru", FmaRounding::Up},
      {"__nv_fmaf_ieee_rz", FmaRounding::TowardZero},
      {"__nv_fmaf_ieee_rd", FmaRounding::Down},
      {"__nv_fmaf_ieee_ru", FmaRounding::Up},
  };
  bool Changed = false;
  for (auto [Name, Mode] : Names) {
    Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration() || F->arg_size() != 3 ||
        !F->getReturnType()->isFloatTy())
      continue;
    for (CallBase *CB : abi::callsOf(*F)) {
      IRBuilder<> B(CB);
      abi::replaceCall(CB, emitDirectedFmaF32(B, CB->getArgOperand(0),
                                              CB->getArgOperand(1),
                                              CB->getArgOperand(2), Mode));
      Changed = true;
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  return Changed;
}

} // namespace cucpu::modules

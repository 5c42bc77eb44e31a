//===- ConvertFloat.cpp - Rounding and 16-bit formats for PTX ops ---------===//
//
// Narrowing a value in a directed rounding mode has no LLVM instruction:
// fptrunc rounds to nearest. A double goes to float through libdevice's
// __nv_double2float_r* (the llvm.nvvm.d2f.* intrinsics the JIT lowers), and
// to the 16-bit formats by rounding its bits here: first to float with
// round-to-odd (the truncation, its last bit set if anything was dropped),
// which keeps enough to round once more to 11 or 8 bits exactly as a single
// rounding would, then to the 16-bit format in the requested mode.
//
//===----------------------------------------------------------------------===//

#include "Convert.h"

#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

using llvm::Value;

namespace {

std::optional<Rounding> roundingNamed(const Instruction &I,
                                      const char *const Names[4]) {
  const Rounding Modes[] = {Rounding::Nearest, Rounding::Zero, Rounding::Down,
                            Rounding::Up};
  for (int K = 0; K < 4; ++K)
    if (I.has(Names[K]))
      return Modes[K];
  return std::nullopt;
}

HalfFormat formatOf(bool BFloat) {
  return BFloat ? HalfFormat{7, 127, 0x7f80, 16}
                : HalfFormat{10, 15, 0x7c00, 16};
}

/// \p X (a double) rounded to float with round-to-odd: the truncation, with
/// its last bit set if it is inexact. NaN stays NaN.
Value *doubleToOddFloat(llvm::IRBuilder<> &B, Value *X) {
  Value *Near = B.CreateFPTrunc(X, B.getFloatTy());
  Value *Back = B.CreateFPExt(Near, B.getDoubleTy());
  Value *Bits = B.CreateBitCast(Near, B.getInt32Ty());
  Value *Exact = B.CreateFCmpOEQ(Back, X);
  // Rounding to nearest went away from zero: the truncation is one below.
  Value *Above =
      B.CreateFCmpOGT(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, Back),
                      B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X));
  Value *Trunc = B.CreateSelect(Above, B.CreateSub(Bits, B.getInt32(1)), Bits);
  Value *Odd = B.CreateOr(Trunc, B.getInt32(1));
  return B.CreateBitCast(B.CreateSelect(Exact, Bits, Odd), B.getFloatTy());
}

} // namespace

Value *floatBitsToHalf(llvm::IRBuilder<> &B, Value *X, HalfFormat Fmt,
                       Rounding R) {
  llvm::Type *I32 = B.getInt32Ty();
  auto C = [&](uint64_t V) { return llvm::ConstantInt::get(I32, V); };
  Value *U = B.CreateBitCast(X, I32);
  uint32_t SignBit = 1u << (Fmt.Width - 1);
  Value *Sign = B.CreateAnd(B.CreateLShr(U, C(32 - Fmt.Width)), C(SignBit));
  Value *Abs = B.CreateAnd(U, C(0x7fffffff));
  Value *Negative = B.CreateICmpNE(Sign, C(0));

  // Normal results: the float's exponent and mantissa, shifted, with the
  // exponent rebased; Rest holds the bits shifted out.
  unsigned Shift = 23 - Fmt.MantBits;
  Value *Normal = B.CreateSub(B.CreateLShr(Abs, C(Shift)),
                              C(uint64_t(127 - Fmt.Bias) << Fmt.MantBits));
  Value *NormalRest = B.CreateAnd(Abs, C((1u << Shift) - 1));
  Value *NormalHalf = C(1u << (Shift - 1));

  // Subnormal results: the significand shifted to the format's subnormal
  // unit, 2^(1 - Bias - MantBits).
  Value *Exp = B.CreateLShr(Abs, C(23));
  Value *Mant = B.CreateAnd(Abs, C(0x7fffff));
  Value *IsFloatNormal = B.CreateICmpNE(Exp, C(0));
  Mant = B.CreateSelect(IsFloatNormal, B.CreateOr(Mant, C(0x800000)), Mant);
  Value *ExpEff = B.CreateSelect(IsFloatNormal, Exp, C(1));
  Value *SubShift = B.CreateSub(C(151 - Fmt.Bias - Fmt.MantBits), ExpEff);
  SubShift = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, SubShift, C(25));
  Value *Sub = B.CreateLShr(Mant, SubShift);
  Value *SubRest =
      B.CreateAnd(Mant, B.CreateSub(B.CreateShl(C(1), SubShift), C(1)));
  Value *SubHalf = B.CreateShl(C(1), B.CreateSub(SubShift, C(1)));

  Value *IsSub = B.CreateICmpULT(Exp, C(128 - Fmt.Bias));
  Value *Kept = B.CreateSelect(IsSub, Sub, Normal);
  Value *Rest = B.CreateSelect(IsSub, SubRest, NormalRest);
  Value *HalfWay = B.CreateSelect(IsSub, SubHalf, NormalHalf);

  // Whether the magnitude rounds up, and whether an overflow gives infinity.
  Value *Up = nullptr, *ToInf = nullptr;
  switch (R) {
  case Rounding::Nearest:
    Up = B.CreateOr(B.CreateICmpUGT(Rest, HalfWay),
                    B.CreateAnd(B.CreateICmpEQ(Rest, HalfWay),
                                B.CreateICmpNE(B.CreateAnd(Kept, C(1)), C(0))));
    ToInf = B.getTrue();
    break;
  case Rounding::Zero:
    Up = B.getFalse();
    ToInf = B.getFalse();
    break;
  case Rounding::Up:
  case Rounding::Down: {
    // Away from zero for positive values rounding up, negative ones down.
    Value *Away = R == Rounding::Up ? B.CreateNot(Negative) : Negative;
    Up = B.CreateAnd(Away, B.CreateICmpNE(Rest, C(0)));
    ToInf = Away;
    break;
  }
  }
  Value *Rounded = B.CreateAdd(Kept, B.CreateZExt(Up, I32));
  Value *Overflow = B.CreateICmpUGE(Rounded, C(Fmt.Inf));
  Rounded = B.CreateSelect(
      Overflow, B.CreateSelect(ToInf, C(Fmt.Inf), C(Fmt.Inf - 1)), Rounded);
  Value *IsInf = B.CreateICmpEQ(Abs, C(0x7f800000));
  Rounded = B.CreateSelect(IsInf, C(Fmt.Inf), Rounded);
  Value *Result = B.CreateOr(Sign, Rounded);
  Value *IsNaN = B.CreateICmpUGT(Abs, C(0x7f800000));
  Result = B.CreateSelect(IsNaN, C(SignBit - 1), Result); // 0x7fff, 0x7f
  return B.CreateTrunc(Result, B.getIntNTy(Fmt.Width));
}

std::optional<Rounding> floatRounding(const Instruction &I) {
  static const char *const Names[4] = {"rn", "rz", "rm", "rp"};
  return roundingNamed(I, Names);
}

std::optional<Rounding> integerRounding(const Instruction &I) {
  static const char *const Names[4] = {"rni", "rzi", "rmi", "rpi"};
  return roundingNamed(I, Names);
}

llvm::StringRef nvvmSuffix(Rounding R) {
  switch (R) {
  case Rounding::Nearest:
    return "rn";
  case Rounding::Zero:
    return "rz";
  case Rounding::Down:
    return "rm";
  case Rounding::Up:
    return "rp";
  }
  return "rn";
}

Value *flushSubnormal(llvm::IRBuilder<> &B, Value *X) {
  llvm::Type *Ty = X->getType();
  Value *Abs = B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X);
  double Min = Ty->isDoubleTy() ? 0x1p-1022 : 0x1p-126; // DBL_MIN, FLT_MIN
  Value *Tiny = B.CreateFCmpOLT(Abs, llvm::ConstantFP::get(Ty, Min));
  Value *Zero = B.CreateBinaryIntrinsic(llvm::Intrinsic::copysign,
                                        llvm::ConstantFP::get(Ty, 0.0), X);
  return B.CreateSelect(Tiny, Zero, X);
}

Value *canonicalNaN(llvm::IRBuilder<> &B, Value *X) {
  Value *NaN = B.CreateBitCast(B.getInt32(0x7fffffff), B.getFloatTy());
  return B.CreateSelect(B.CreateFCmpUNO(X, X), NaN, X);
}

Value *halfToFloat(llvm::IRBuilder<> &B, Value *Bits, bool BFloat) {
  if (BFloat)
    return B.CreateBitCast(
        B.CreateShl(B.CreateZExt(Bits, B.getInt32Ty()), B.getInt32(16)),
        B.getFloatTy());
  return B.CreateFPExt(B.CreateBitCast(Bits, B.getHalfTy()), B.getFloatTy());
}

Value *floatToHalf(FunctionTranslator &F, Value *X, bool BFloat, Rounding R) {
  if (!X->getType()->isDoubleTy()) {
    if (BFloat || R != Rounding::Nearest)
      return floatBitsToHalf(F.B, X, formatOf(BFloat), R);
    // The common case, cvt.rn.f16.f32: fptrunc (one instruction where the
    // host has F16C), with the GPU's NaN.
    Value *H = F.B.CreateBitCast(F.B.CreateFPTrunc(X, F.B.getHalfTy()),
                                 F.B.getInt16Ty());
    return F.B.CreateSelect(F.B.CreateFCmpUNO(X, X), F.B.getInt16(0x7fff), H);
  }
  Value *H;
  if (!BFloat && R == Rounding::Nearest)
    // One rounding to nearest: fptrunc does it.
    H = F.B.CreateBitCast(F.B.CreateFPTrunc(X, F.B.getHalfTy()),
                          F.B.getInt16Ty());
  else
    H = floatBitsToHalf(F.B, doubleToOddFloat(F.B, X), formatOf(BFloat), R);
  // NaN from a double keeps its sign and the top of its payload, quieted
  // (H200: 0x7ff4000000000000 gives 0x7f00, 0x7fe0 as bf16), where a NaN
  // float gives 0x7fff.
  HalfFormat Fmt = formatOf(BFloat);
  Value *Bits = F.B.CreateBitCast(X, F.B.getInt64Ty());
  Value *Sign = F.B.CreateAnd(F.B.CreateLShr(Bits, 48), 0x8000);
  Value *Payload = F.B.CreateAnd(F.B.CreateLShr(Bits, 52 - Fmt.MantBits),
                                 (1u << Fmt.MantBits) - 1);
  Value *NaN =
      F.B.CreateOr(F.B.CreateOr(Sign, Payload),
                   uint64_t(Fmt.Inf | (1u << (Fmt.MantBits - 1)))); // quiet
  NaN = F.B.CreateTrunc(NaN, F.B.getInt16Ty());
  return F.B.CreateSelect(F.B.CreateFCmpUNO(X, X), NaN, H);
}

Value *doubleToFloat(FunctionTranslator &F, Value *X, Rounding R) {
  if (R == Rounding::Nearest)
    return F.B.CreateFPTrunc(X, F.B.getFloatTy());
  auto Callee = F.declare(
      ("llvm.nvvm.d2f." + nvvmSuffix(R)).str(),
      llvm::FunctionType::get(F.B.getFloatTy(), {F.B.getDoubleTy()}, false));
  return F.B.CreateCall(Callee, {X});
}

Value *roundIntegral(llvm::IRBuilder<> &B, Value *X, Rounding R) {
  llvm::Intrinsic::ID Id = R == Rounding::Nearest ? llvm::Intrinsic::roundeven
                           : R == Rounding::Zero  ? llvm::Intrinsic::trunc
                           : R == Rounding::Down  ? llvm::Intrinsic::floor
                                                  : llvm::Intrinsic::ceil;
  return B.CreateUnaryIntrinsic(Id, X);
}

} // namespace cucpu::ptx

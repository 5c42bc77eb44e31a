//===- ConvertNarrow.cpp - PTX cvt to and from tf32 and 8-bit floats ------===//
//
// The tensor-core formats: tf32 (a float with 10 mantissa bits, kept in a
// .b32 register with the low 13 bits zero) and the 8-bit floats e4m3 and
// e5m2, converted in pairs (.e4m3x2, .e5m2x2 in a .b16 register, the first
// source in the upper byte). Rounding uses the same bit arithmetic as f16
// (ConvertFloat.cpp).
//
//===----------------------------------------------------------------------===//

#include "Convert.h"

#include <cmath>

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// An 8-bit format by its PTX name.
std::optional<HalfFormat> eightBitFormat(llvm::StringRef Name) {
  if (Name == "e4m3x2")
    return HalfFormat{3, 7, 0x7f, 8};
  if (Name == "e5m2x2")
    return HalfFormat{2, 15, 0x7c, 8};
  return std::nullopt;
}

/// .satfinite and .relu on an 8-bit result \p R of \p X (a float): beyond
/// the largest finite value (and infinity) the largest finite value; with
/// .relu negative values +0. NaN stays the canonical NaN 0x7f.
Value *finish8(llvm::IRBuilder<> &B, const Instruction &I, Value *X, Value *R,
               HalfFormat Fmt) {
  Value *Abs = B.CreateAnd(R, B.getInt8(0x7f));
  Value *Sign = B.CreateAnd(R, B.getInt8(0x80));
  Value *IsNaN = B.CreateFCmpUNO(X, X);
  Value *Over = B.CreateICmpUGE(Abs, B.getInt8(uint8_t(Fmt.Inf)));
  Value *Max = B.CreateOr(Sign, B.getInt8(uint8_t(Fmt.Inf - 1)));
  R = B.CreateSelect(B.CreateAnd(Over, B.CreateNot(IsNaN)), Max, R);
  if (I.has("relu"))
    R = B.CreateSelect(
        B.CreateFCmpOLE(X, llvm::ConstantFP::get(X->getType(), 0.0)),
        B.getInt8(0), R);
  return B.CreateSelect(IsNaN, B.getInt8(0x7f), R);
}

/// The 8-bit value \p Byte of format \p Fmt as a float (exact).
Value *eightBitToFloat(llvm::IRBuilder<> &B, Value *Byte, HalfFormat Fmt) {
  llvm::Type *I32 = B.getInt32Ty();
  Value *U = B.CreateZExt(Byte, I32);
  Value *Sign = B.CreateShl(B.CreateAnd(U, 0x80), 24);
  Value *Exp = B.CreateAnd(B.CreateLShr(U, Fmt.MantBits),
                           (1u << (7 - Fmt.MantBits)) - 1);
  Value *Mant = B.CreateAnd(U, (1u << Fmt.MantBits) - 1);
  // Normal: rebias the exponent; subnormal: Mant * 2^(1 - Bias - MantBits).
  Value *Normal = B.CreateBitCast(
      B.CreateOr(
          Sign,
          B.CreateOr(
              B.CreateShl(B.CreateAdd(Exp, B.getInt32(127 - Fmt.Bias)), 23),
              B.CreateShl(Mant, 23 - Fmt.MantBits))),
      B.getFloatTy());
  Value *Sub =
      B.CreateFMul(B.CreateUIToFP(Mant, B.getFloatTy()),
                   llvm::ConstantFP::get(
                       B.getFloatTy(),
                       std::ldexp(1.0, 1 - int(Fmt.Bias) - int(Fmt.MantBits))));
  Sub = B.CreateBitCast(B.CreateOr(B.CreateBitCast(Sub, I32), Sign),
                        B.getFloatTy());
  Value *F = B.CreateSelect(B.CreateICmpEQ(Exp, B.getInt32(0)), Sub, Normal);
  // Infinities (e5m2) and NaNs: e5m2 keeps f16's encoding; e4m3's only
  // special value is S.1111.111.
  Value *Top = B.getInt32((1u << (7 - Fmt.MantBits)) - 1);
  Value *Special = B.CreateICmpEQ(Exp, Top);
  Value *NaNF = B.CreateBitCast(B.getInt32(0x7fffffff), B.getFloatTy());
  if (Fmt.Inf == 0x7f)
    return B.CreateSelect(
        B.CreateAnd(Special, B.CreateICmpEQ(Mant, B.getInt32(7))), NaNF, F);
  Value *InfF =
      B.CreateBitCast(B.CreateOr(Sign, B.getInt32(0x7f800000)), B.getFloatTy());
  return B.CreateSelect(
      Special, B.CreateSelect(B.CreateICmpEQ(Mant, B.getInt32(0)), InfF, NaNF),
      F);
}

/// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32 d, a, as the H200 gives
/// them: .rn and .rz give NaN as 0x7fffe000; .rna truncates NaN and
/// infinity and, with .satfinite, takes one unit off any result with the
/// exponent all ones (infinity becomes 0x7f7fe000, NaN stays NaN).
llvm::Error toTf32(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  llvm::IRBuilder<> &B = F.B;
  auto A = F.readAs(I, I.Operands[1], B.getInt32Ty(), false);
  if (!A)
    return A.takeError();
  bool Rna = I.has("rna");
  if (!Rna && I.has("satfinite"))
    return F.error(I, ".satfinite with .rn or .rz needs sm_100, which this "
                      "driver does not implement");
  Value *U = *A;
  Value *Abs = B.CreateAnd(U, B.getInt32(0x7fffffff));
  Value *Special = B.CreateICmpUGE(Abs, B.getInt32(0x7f800000));
  Value *Rounded;
  if (Rna)
    Rounded = B.CreateSelect(Special, U,
                             B.CreateAdd(U, B.getInt32(0x1000))); // ties away
  else if (I.has("rn"))
    Rounded = B.CreateAdd(
        U, B.CreateAdd(B.getInt32(0xfff),
                       B.CreateAnd(B.CreateLShr(U, 13), B.getInt32(1))));
  else if (I.has("rz"))
    Rounded = U;
  else
    return F.error(I, "needs .rna, .rn or .rz");
  Value *R = B.CreateAnd(Rounded, B.getInt32(~0x1fffu));
  if (I.has("satfinite")) {
    Value *Top = B.CreateICmpEQ(B.CreateAnd(R, B.getInt32(0x7f800000)),
                                B.getInt32(0x7f800000));
    R = B.CreateSelect(Top, B.CreateSub(R, B.getInt32(0x2000)), R);
  }
  Value *Negative =
      B.CreateICmpNE(B.CreateAnd(U, B.getInt32(0x80000000)), B.getInt32(0));
  if (I.has("relu"))
    R = B.CreateSelect(Negative, B.getInt32(0), R);
  if (!Rna)
    R = B.CreateSelect(B.CreateICmpUGT(Abs, B.getInt32(0x7f800000)),
                       B.getInt32(0x7fffe000), R);
  PtxType B32;
  return F.write(I, I.Operands[0], R, B32);
}

} // namespace

llvm::Error convertNarrowFloat(FunctionTranslator &F, const Instruction &I) {
  std::vector<std::string> Types;
  for (const std::string &M : I.Modifiers)
    if (M != "rn" && M != "rna" && M != "rz" && M != "satfinite" && M != "relu")
      Types.push_back(M);
  if (Types.size() != 2)
    return F.error(I, "needs a destination and a source type");
  llvm::IRBuilder<> &B = F.B;
  if (Types[0] == "tf32") {
    if (Types[1] != "f32")
      return F.error(I, "converts only .f32 to .tf32");
    return toTf32(F, I);
  }
  if (!I.has("rn") || I.has("rz") || I.has("rna"))
    return F.error(I, "needs .rn");
  PtxType B16, B32;
  B16.Bits = 16;
  if (auto Fmt = eightBitFormat(Types[0])) {
    if (!I.has("satfinite"))
      return F.error(I, "needs .satfinite");
    std::vector<Value *> Sources; // upper byte first
    if (Types[1] == "f32") {
      if (auto E = F.expectOperands(I, 3))
        return E;
      for (unsigned K = 1; K <= 2; ++K) {
        auto V = F.readAs(I, I.Operands[K], B.getFloatTy(), false);
        if (!V)
          return V.takeError();
        Sources.push_back(*V);
      }
    } else if (Types[1] == "f16x2") {
      if (auto E = F.expectOperands(I, 2))
        return E;
      auto V = F.readAs(I, I.Operands[1], B.getInt32Ty(), false);
      if (!V)
        return V.takeError();
      for (unsigned Shift : {16u, 0u})
        Sources.push_back(halfToFloat(
            B, B.CreateTrunc(B.CreateLShr(*V, Shift), B.getInt16Ty()), false));
    } else {
      return F.error(I, "converts .f32 pairs or .f16x2 to ." + Types[0]);
    }
    Value *Result = B.getInt16(0);
    for (unsigned K = 0; K < 2; ++K) {
      Value *Byte = floatBitsToHalf(B, Sources[K], *Fmt, Rounding::Nearest);
      Byte = finish8(B, I, Sources[K], Byte, *Fmt);
      Value *Wide = B.CreateZExt(Byte, B.getInt16Ty());
      Result = B.CreateOr(Result, K == 0 ? B.CreateShl(Wide, 8) : Wide);
    }
    return F.write(I, I.Operands[0], Result, B16);
  }
  if (auto Fmt = eightBitFormat(Types[1])) {
    if (Types[0] != "f16x2")
      return F.error(I, "converts ." + Types[1] + " only to .f16x2");
    if (I.has("satfinite"))
      return F.error(I, "takes no .satfinite");
    if (auto E = F.expectOperands(I, 2))
      return E;
    auto V = F.readAs(I, I.Operands[1], B.getInt16Ty(), false);
    if (!V)
      return V.takeError();
    Value *Result = B.getInt32(0);
    for (unsigned Shift : {8u, 0u}) {
      Value *Byte = B.CreateTrunc(B.CreateLShr(*V, Shift), B.getInt8Ty());
      Value *X = eightBitToFloat(B, Byte, *Fmt);
      if (I.has("relu"))
        X = B.CreateSelect(
            B.CreateFCmpOLE(X, llvm::ConstantFP::get(X->getType(), 0.0)),
            llvm::ConstantFP::get(X->getType(), 0.0), X);
      Value *H = floatToHalf(F, X, false, Rounding::Nearest);
      Result = B.CreateOr(
          Result, B.CreateShl(B.CreateZExt(H, B.getInt32Ty()), 2 * Shift));
    }
    return F.write(I, I.Operands[0], Result, B32);
  }
  return F.error(I, "conversions between ." + Types[0] + " and ." + Types[1] +
                        " are not supported");
}

} // namespace cucpu::ptx

//===- ConvertCvt.cpp - PTX instruction: cvt ------------------------------===//
//
// cvt between every pair of integer and floating-point types, with the
// GPU's results where C++ leaves them open: float-to-integer conversions
// saturate and NaN gives 0 from .f32 and .f16 to 32 bits and the sign bit
// otherwise (as cucc's casts give them: modules/passes/FloatToIntPass.cpp);
// narrowing to f16 and bf16 gives the canonical NaN 0x7fff. Directed
// rounding calls the libdevice functions the JIT already has, through the
// llvm.nvvm.* intrinsics cucc's clang emits.
//
//===----------------------------------------------------------------------===//

#include "Convert.h"
#include "Ops.h"

#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// The destination and source types of cvt: its first and last type
/// modifiers.
struct CvtTypes {
  PtxType To, From;
};

llvm::Expected<CvtTypes> cvtTypes(FunctionTranslator &F, const Instruction &I) {
  std::vector<PtxType> Types;
  for (const std::string &M : I.Modifiers) {
    if (auto T = PtxType::parse(M)) {
      Types.push_back(*T);
      continue;
    }
    static const char *const Known[] = {"rn",  "rz",  "rm",   "rp",
                                        "rni", "rzi", "rmi",  "rpi",
                                        "ftz", "sat", "relu", "satfinite"};
    if (!llvm::is_contained(Known, M))
      return F.error(I, "the modifier ." + M + " is not supported");
  }
  if (Types.size() != 2)
    return F.error(I, "needs a destination and a source type");
  for (const PtxType &T : Types)
    if (T.K == PtxType::Kind::Pred || T.width() == 128)
      return F.error(I, "cannot convert .pred or 128-bit values");
  return CvtTypes{Types[0], Types[1]};
}

bool isHalf(PtxType T) { return T.isFloat() && T.Bits == 16; }

/// The value of a floating-point source as float or double (16-bit formats
/// are extended, exactly).
Value *floatValue(FunctionTranslator &F, Value *V, PtxType T) {
  if (isHalf(T))
    return halfToFloat(F.B, V, T.K == PtxType::Kind::BFloat);
  return V;
}

/// \p X (float or double) as the floating-point type \p To, rounded in mode
/// \p R where it narrows: the register value (bits for f16/bf16).
Value *toFloatType(FunctionTranslator &F, Value *X, PtxType To, Rounding R) {
  if (isHalf(To))
    return floatToHalf(F, X, To.K == PtxType::Kind::BFloat, R);
  if (To.Bits == 64)
    return X->getType()->isDoubleTy() ? X
                                      : F.B.CreateFPExt(X, F.B.getDoubleTy());
  return X->getType()->isDoubleTy() ? doubleToFloat(F, X, R) : X;
}

/// .sat on a floating-point result: [0, 1], NaN and -0 giving +0.
Value *saturateUnit(llvm::IRBuilder<> &B, Value *X) {
  llvm::Type *Ty = X->getType();
  Value *Zero = llvm::ConstantFP::get(Ty, 0.0),
        *One = llvm::ConstantFP::get(Ty, 1.0);
  Value *Clamped = B.CreateSelect(B.CreateFCmpOLT(X, One), X, One);
  return B.CreateSelect(B.CreateFCmpOGT(X, Zero), Clamped, Zero);
}

/// The integer \p V (of PTX type \p From, already at its width) converted
/// to the integer type \p To, clamped to its range if \p Saturate.
Value *integerToInteger(llvm::IRBuilder<> &B, Value *V, PtxType From,
                        PtxType To, bool Saturate) {
  llvm::Type *ToTy = B.getIntNTy(To.Bits);
  if (!Saturate)
    return From.isSigned() ? B.CreateSExtOrTrunc(V, ToTy)
                           : B.CreateZExtOrTrunc(V, ToTy);
  // Compare in 65 bits, where every value of both types fits.
  llvm::Type *Wide = B.getIntNTy(65);
  Value *W = From.isSigned() ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
  llvm::APInt Lo = To.isSigned() ? llvm::APInt::getSignedMinValue(To.Bits)
                                 : llvm::APInt::getMinValue(To.Bits);
  llvm::APInt Hi = To.isSigned() ? llvm::APInt::getSignedMaxValue(To.Bits)
                                 : llvm::APInt::getMaxValue(To.Bits);
  Lo = To.isSigned() ? Lo.sext(65) : Lo.zext(65);
  Hi = To.isSigned() ? Hi.sext(65) : Hi.zext(65);
  W = B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, W,
                              llvm::ConstantInt::get(Wide, Lo));
  W = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, W,
                              llvm::ConstantInt::get(Wide, Hi));
  return B.CreateTrunc(W, ToTy);
}

/// A float or double \p X, already integral, as the integer type \p To:
/// saturating, with the NaN results cucc's casts give (FloatToIntPass) and
/// the H200 gives for narrow types: 0 from a float, the destination's sign
/// bit alone from a double (0x80 for .u8 too).
Value *floatToInteger(llvm::IRBuilder<> &B, Value *X, PtxType To) {
  unsigned Bits = std::max(To.Bits, 32u);
  llvm::Type *Ty = B.getIntNTy(Bits);
  Value *R = B.CreateIntrinsic(To.isSigned() ? llvm::Intrinsic::fptosi_sat
                                             : llvm::Intrinsic::fptoui_sat,
                               {Ty, X->getType()}, {X});
  if (To.Bits >= 32)
    return R;
  // 8- and 16-bit results saturate to their own range.
  PtxType Wide = To;
  Wide.Bits = 32;
  Value *Narrow = integerToInteger(B, R, Wide, To, /*Saturate=*/true);
  uint64_t NaN = X->getType()->isDoubleTy() ? uint64_t(1) << (To.Bits - 1) : 0;
  return B.CreateSelect(B.CreateFCmpUNO(X, X), B.getIntN(To.Bits, NaN), Narrow);
}

/// An integer \p V (of type \p From) as float or double, rounded in mode
/// \p R; for 16-bit destinations, a float from which one more rounding in
/// mode R gives the right result (exact, or rounded to odd).
Value *integerToFloat(FunctionTranslator &F, Value *V, PtxType From, PtxType To,
                      Rounding R) {
  llvm::IRBuilder<> &B = F.B;
  bool Signed = From.isSigned();
  if (isHalf(To)) {
    // |V| rounded to 24 bits with round-to-odd: exact below 2^24.
    Value *Wide = Signed ? B.CreateSExt(V, B.getInt64Ty())
                         : B.CreateZExt(V, B.getInt64Ty());
    Value *Negative =
        Signed ? B.CreateICmpSLT(Wide, B.getInt64(0)) : B.getFalse();
    Value *Mag = B.CreateSelect(Negative, B.CreateNeg(Wide), Wide);
    Value *Lz =
        B.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, Mag, B.getTrue());
    // Bits beyond the top 24 are dropped (Shift 0 when Mag < 2^24).
    Value *Shift =
        B.CreateSelect(B.CreateICmpULT(Mag, B.getInt64(1 << 24)), B.getInt64(0),
                       B.CreateSub(B.getInt64(40), Lz));
    Value *Kept = B.CreateLShr(Mag, Shift);
    Value *Dropped = B.CreateAnd(
        Mag, B.CreateSub(B.CreateShl(B.getInt64(1), Shift), B.getInt64(1)));
    Kept = B.CreateOr(Kept, B.CreateZExt(B.CreateICmpNE(Dropped, B.getInt64(0)),
                                         B.getInt64Ty()));
    Value *Float = B.CreateUIToFP(Kept, B.getFloatTy());
    // Times 2^Shift, exactly: Shift <= 40 keeps it far from overflow.
    Value *Scale = B.CreateBitCast(
        B.CreateTrunc(
            B.CreateShl(B.CreateAdd(Shift, B.getInt64(127)), B.getInt64(23)),
            B.getInt32Ty()),
        B.getFloatTy());
    Float = B.CreateFMul(Float, Scale);
    return B.CreateSelect(Negative, B.CreateFNeg(Float), Float);
  }
  llvm::Type *Ty = To.Bits == 64 ? B.getDoubleTy() : B.getFloatTy();
  // Exact conversions, and rounding to nearest, need no mode.
  bool Exact = (To.Bits == 64 && From.Bits <= 32) || From.Bits <= 16;
  if (Exact || R == Rounding::Nearest)
    return Signed ? B.CreateSIToFP(V, Ty) : B.CreateUIToFP(V, Ty);
  // llvm.nvvm.{i2f,ui2f,ll2f,ull2f,ll2d,ull2d}.{rz,rm,rp}.
  std::string Name = "llvm.nvvm.";
  Name += Signed ? "" : "u";
  Name += From.Bits == 64 ? "ll2" : "i2";
  Name += To.Bits == 64 ? "d." : "f.";
  Name += nvvmSuffix(R);
  auto Callee =
      F.declare(Name, llvm::FunctionType::get(Ty, {V->getType()}, false));
  return B.CreateCall(Callee, {V});
}

/// .relu: negative results become +0 (NaN the canonical NaN); .satfinite:
/// results beyond the largest finite value (infinities too) become it.
/// \p X is the float before narrowing to the 16-bit type \p To.
Value *reluAndSatFinite(FunctionTranslator &F, const Instruction &I, Value *X,
                        Value *Narrow, PtxType To) {
  llvm::IRBuilder<> &B = F.B;
  bool BFloat = To.K == PtxType::Kind::BFloat;
  if (I.has("satfinite")) {
    uint16_t Max = BFloat ? 0x7f7f : 0x7bff;
    Value *Abs = B.CreateAnd(Narrow, B.getInt16(0x7fff));
    Value *Sign = B.CreateAnd(Narrow, B.getInt16(0x8000));
    Value *Inf = B.getInt16(BFloat ? 0x7f80 : 0x7c00);
    Narrow = B.CreateSelect(B.CreateICmpEQ(Abs, Inf),
                            B.CreateOr(Sign, B.getInt16(Max)), Narrow);
  }
  if (I.has("relu")) {
    // -0 gives +0 too.
    Value *Negative =
        B.CreateFCmpOLE(X, llvm::ConstantFP::get(X->getType(), 0.0));
    Narrow = B.CreateSelect(Negative, B.getInt16(0), Narrow);
  }
  return Narrow;
}

/// cvt.frnd2{.relu}{.satfinite}.{f16,bf16}x2.f32 d, a, b: a to the upper
/// half of d, b to the lower.
llvm::Error packPair(FunctionTranslator &F, const Instruction &I, CvtTypes T) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (T.From.K != PtxType::Kind::Float || T.From.Bits != 32)
    return F.error(I, "packs only .f32 sources");
  auto R = floatRounding(I);
  if (!R || (*R != Rounding::Nearest && *R != Rounding::Zero) ||
      integerRounding(I) || I.has("ftz") || I.has("sat"))
    return F.error(I, "needs .rn or .rz (and takes only .relu and "
                      ".satfinite beside them)");
  PtxType F32;
  F32.K = PtxType::Kind::Float;
  Value *Packed = F.B.getInt32(0);
  for (unsigned K = 0; K < 2; ++K) {
    auto V = F.read(I, I.Operands[1 + K], F32);
    if (!V)
      return V.takeError();
    PtxType Half = T.To;
    Half.Lanes = 1;
    Value *H = reluAndSatFinite(F, I, *V, toFloatType(F, *V, Half, *R), Half);
    H = F.B.CreateZExt(H, F.B.getInt32Ty());
    Packed = F.B.CreateOr(Packed, K == 0 ? F.B.CreateShl(H, 16) : H);
  }
  return F.write(I, I.Operands[0], Packed, T.To);
}

} // namespace

llvm::Error convertValue(FunctionTranslator &F, const Instruction &I) {
  for (const char *Narrow :
       {"tf32", "e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2", "e3m2x2", "ue8m0x2"})
    if (I.has(Narrow))
      return convertNarrowFloat(F, I);
  auto Types = cvtTypes(F, I);
  if (!Types)
    return Types.takeError();
  PtxType To = Types->To, From = Types->From;
  if (To.Lanes == 2)
    return packPair(F, I, *Types);
  if (From.Lanes == 2)
    return F.error(I, "cannot convert from a packed type");
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto FRnd = floatRounding(I);
  auto IRnd = integerRounding(I);
  bool Ftz = I.has("ftz"), Sat = I.has("sat");
  if (FRnd && IRnd)
    return F.error(I, "takes one rounding modifier");
  if ((I.has("relu") || I.has("satfinite")) &&
      !(isHalf(To) && From.Bits == 32 && From.isFloat()))
    return F.error(I,
                   ".relu and .satfinite convert .f32 to .f16 or .bf16 only");
  if (Ftz && !(From.isFloat() && From.Bits == 32) &&
      !(To.isFloat() && To.Bits == 32))
    return F.error(I, ".ftz applies to .f32 values only");

  if ((From.K == PtxType::Kind::BFloat && To.isInteger() && To.Bits < 32) ||
      (To.K == PtxType::Kind::BFloat && From.isInteger() && From.Bits < 32))
    return F.error(I, "converts .bf16 only to and from 32- and 64-bit "
                      "integers");
  llvm::IRBuilder<> &B = F.B;
  auto Src = F.read(I, I.Operands[1], From);
  if (!Src)
    return Src.takeError();
  Value *Result = nullptr;

  if (From.isInteger() && To.isInteger()) {
    if (FRnd || IRnd || Ftz)
      return F.error(I, "integer-to-integer conversions take no rounding or "
                        ".ftz");
    // As ptxas: .sat only where the source has values the destination
    // lacks.
    bool Fits = From.isSigned() == To.isSigned()
                    ? From.Bits <= To.Bits
                    : !From.isSigned() && From.Bits < To.Bits;
    if (Sat && Fits)
      return F.error(I, ".sat is illegal: every source value fits");
    Result = integerToInteger(B, *Src, From, To, Sat);
  } else if (From.isFloat() && To.isInteger()) {
    if (!IRnd)
      return F.error(I, "float-to-integer conversions need .rni, .rzi, .rmi "
                        "or .rpi");
    Value *X = floatValue(F, *Src, From);
    if (Ftz && From.Bits == 32)
      X = flushSubnormal(B, X);
    Result = floatToInteger(B, roundIntegral(B, X, *IRnd), To);
  } else if (From.isInteger() && To.isFloat()) {
    if (!FRnd)
      return F.error(I, "integer-to-float conversions need .rn, .rz, .rm or "
                        ".rp");
    Value *X = integerToFloat(F, *Src, From, To, *FRnd);
    if (Sat)
      X = saturateUnit(B, X);
    Result = toFloatType(F, X, To, *FRnd);
    if (Ftz && To.Bits == 32)
      Result = flushSubnormal(B, Result);
  } else {
    // Float to float. The H200 gives its canonical NaN (0x7fffffff) from
    // .f16 to .f32, with .ftz, and rounding .f32 to an integral value; other
    // conversions keep the payload.
    Value *X = floatValue(F, *Src, From);
    if (From.K == PtxType::Kind::Float && From.Bits == 16 && To.Bits == 32 &&
        To.K == PtxType::Kind::Float)
      X = canonicalNaN(B, X);
    if (Ftz && From.Bits == 32)
      X = canonicalNaN(B, flushSubnormal(B, X));
    bool Same = From.K == To.K && From.Bits == To.Bits;
    if (IRnd) {
      if (!Same)
        return F.error(I, "rounds to an integral value only between equal "
                          "types");
      X = roundIntegral(B, X, *IRnd);
      if (From.K == PtxType::Kind::Float && From.Bits == 32)
        X = canonicalNaN(B, X);
    }
    bool Narrows = To.Bits < From.Bits || (!Same && To.Bits == From.Bits);
    if (Narrows && !FRnd)
      return F.error(I, "a narrowing conversion needs .rn, .rz, .rm or .rp");
    if (Sat)
      X = saturateUnit(B, X);
    Result = toFloatType(F, X, To, FRnd.value_or(Rounding::Nearest));
    if (isHalf(To) && From.Bits == 32)
      Result = reluAndSatFinite(F, I, X, Result, To);
    if (Ftz && To.Bits == 32)
      Result = flushSubnormal(B, Result);
  }
  return F.write(I, I.Operands[0], Result, To);
}

} // namespace cucpu::ptx

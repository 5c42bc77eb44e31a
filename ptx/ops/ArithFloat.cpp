//===- ArithFloat.cpp - PTX instructions: floating-point arithmetic -------===//
//
// add, sub, mul, fma, mad, min, max, neg, abs and testp of
// .f32 and .f64, and add, sub, mul, fma, min, max, neg, abs of .f16, .f16x2,
// .bf16 and .bf16x2, with the rounding modifiers (.rn .rz .rm .rp), .ftz,
// .sat, .relu and .NaN.
//
// Results are bit for bit an H200's:
//  - a .f32 NaN result is the canonical NaN 0x7fffffff (neg and abs too), a
//    .f16/.bf16 one 0x7fff; an .f64 one is a NaN operand, quieted, chosen
//    among several as the H200 chooses;
//  - .rn and the default mode are the host's IEEE operations; .rz, .rm, .rp
//    call the runtime's __nv_f*_r[zdu] functions, which run the operation in
//    that mode; without a rounding modifier add, sub and mul may be fused
//    into a multiply-add, as ptxas fuses them;
//  - 16-bit formats are computed in float (the fused multiply-add in double,
//    rounded to odd to float) and rounded once to nearest even: float's 24
//    bits make the double rounding of +, - and * exact;
//  - .ftz flushes subnormal inputs, and results that are tiny before
//    rounding, to zero of the same sign.
//
//===----------------------------------------------------------------------===//

#include "ArithCommon.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

namespace arith {

using llvm::Value;

Value *widen16(FunctionTranslator &F, Value *Bits, PtxType T) {
  if (T.K == PtxType::Kind::BFloat)
    return F.B.CreateBitCast(
        F.B.CreateShl(F.B.CreateZExt(Bits, F.B.getInt32Ty()), 16),
        F.B.getFloatTy());
  return F.B.CreateFPExt(F.B.CreateBitCast(Bits, F.B.getHalfTy()),
                         F.B.getFloatTy());
}

Value *flushSubnormal(FunctionTranslator &F, Value *V, PtxType T) {
  unsigned W = T.Bits;
  llvm::Type *IntTy = F.B.getIntNTy(W);
  Value *Bits = F.B.CreateBitCast(V, IntTy);
  uint64_t ExpMask = W == 16 ? (T.K == PtxType::Kind::BFloat ? 0x7f80 : 0x7c00)
                     : W == 32 ? 0x7f800000
                               : 0x7ff0000000000000;
  Value *Subnormal = F.B.CreateICmpEQ(
      F.B.CreateAnd(Bits, llvm::ConstantInt::get(IntTy, ExpMask)),
      llvm::ConstantInt::get(IntTy, 0));
  Value *Zero = F.B.CreateAnd(
      Bits, llvm::ConstantInt::get(IntTy, llvm::APInt::getSignMask(W)));
  return F.B.CreateBitCast(F.B.CreateSelect(Subnormal, Zero, Bits),
                           V->getType());
}

Value *lane(FunctionTranslator &F, Value *Packed, unsigned K) {
  return F.B.CreateTrunc(F.B.CreateLShr(Packed, 16 * K), F.B.getInt16Ty());
}

Value *pack(FunctionTranslator &F, Value *Lo, Value *Hi) {
  return F.B.CreateOr(F.B.CreateZExt(Lo, F.B.getInt32Ty()),
                      F.B.CreateShl(F.B.CreateZExt(Hi, F.B.getInt32Ty()), 16));
}

} // namespace arith

namespace {

using llvm::Value;
using namespace arith;

enum class Rounding { None, Nearest, Zero, Down, Up };

/// The rounding modifier of \p I (.rn, .rz, .rm, .rp), if any.
llvm::Expected<Rounding> roundingOf(FunctionTranslator &F,
                                    const Instruction &I) {
  Rounding R = Rounding::None;
  for (const std::string &M : I.Modifiers) {
    Rounding This = llvm::StringSwitch<Rounding>(M)
                        .Case("rn", Rounding::Nearest)
                        .Case("rz", Rounding::Zero)
                        .Case("rm", Rounding::Down)
                        .Case("rp", Rounding::Up)
                        .Default(Rounding::None);
    if (This == Rounding::None)
      continue;
    if (R != Rounding::None)
      return F.error(I, "takes one rounding modifier");
    R = This;
  }
  return R;
}

/// The libdevice suffix of a directed rounding mode.
const char *suffix(Rounding R) {
  switch (R) {
  case Rounding::Zero:
    return "rz";
  case Rounding::Down:
    return "rd";
  case Rounding::Up:
    return "ru";
  default:
    return "rn";
  }
}

/// Whether \p T is .f32 or .f64 (held in float or double registers).
bool isWide(PtxType T) {
  return T.K == PtxType::Kind::Float && T.Lanes == 1 && T.Bits >= 32;
}

/// Checks that every modifier of \p I is one of \p Allowed, a rounding
/// modifier where \p Rounded, or \p I's type.
llvm::Error onlyModifiers(FunctionTranslator &F, const Instruction &I,
                          std::initializer_list<llvm::StringRef> Allowed,
                          bool Rounded) {
  for (const std::string &M : I.Modifiers) {
    if (PtxType::parse(M))
      continue;
    if (Rounded && (M == "rn" || M == "rz" || M == "rm" || M == "rp"))
      continue;
    if (llvm::is_contained(Allowed, M))
      continue;
    return F.error(I, "." + M + " is not supported for this type here");
  }
  return llvm::Error::success();
}

/// \p V (float or double) with a NaN replaced by \p T's canonical NaN
/// (.f32); .f64 NaNs keep their payload.
Value *canonical(FunctionTranslator &F, Value *V, PtxType T) {
  if (T.Bits != 32)
    return V;
  Value *NaN = F.B.CreateBitCast(F.B.getInt32(0x7fffffff), F.B.getFloatTy());
  return F.B.CreateSelect(F.B.CreateFCmpUNO(V, V), NaN, V);
}

/// .sat: clamps to [0, 1]; NaN and -0 become +0.
Value *saturate(FunctionTranslator &F, Value *V) {
  llvm::Type *Ty = V->getType();
  Value *One = llvm::ConstantFP::get(Ty, 1.0);
  Value *Zero = llvm::ConstantFP::get(Ty, 0.0);
  Value *Upper = F.B.CreateSelect(F.B.CreateFCmpOGT(V, One), One, V);
  return F.B.CreateSelect(F.B.CreateFCmpOGT(V, Zero), Upper, Zero);
}

/// The exact value \p S + \p E (doubles, |E| below half an ulp of S)
/// rounded to float by rounding to odd: the nearer float below or above
/// with an odd last bit when the value is not a float. Rounding that once
/// more to a format of at most 22 bits is correctly rounded.
Value *roundToOddFloat(FunctionTranslator &F, Value *S, Value *E) {
  llvm::Type *D = F.B.getDoubleTy();
  Value *R = F.B.CreateFPTrunc(S, F.B.getFloatTy());
  Value *Back = F.B.CreateFPExt(R, D);
  Value *Bits = F.B.CreateBitCast(R, F.B.getInt32Ty());
  Value *Zero = llvm::ConstantFP::get(D, 0.0);
  Value *Inexact =
      F.B.CreateOr(F.B.CreateFCmpONE(Back, S), F.B.CreateFCmpONE(E, Zero));
  Value *Even = F.B.CreateICmpEQ(F.B.CreateAnd(Bits, 1), F.B.getInt32(0));
  Value *Finite =
      F.B.CreateFCmpONE(F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, R),
                        llvm::ConstantFP::getInfinity(F.B.getFloatTy()));
  // Whether the exact value lies above R.
  Value *Above = F.B.CreateOr(
      F.B.CreateFCmpOGT(S, Back),
      F.B.CreateAnd(F.B.CreateFCmpOEQ(S, Back), F.B.CreateFCmpOGT(E, Zero)));
  // Towards the exact value: one step up in magnitude if it is further from
  // zero.
  Value *Away = F.B.CreateICmpEQ(Above, F.B.CreateFCmpOGE(Back, Zero));
  Value *Stepped = F.B.CreateSelect(Away, F.B.CreateAdd(Bits, F.B.getInt32(1)),
                                    F.B.CreateSub(Bits, F.B.getInt32(1)));
  Value *Fix = F.B.CreateAnd(F.B.CreateAnd(Inexact, Even), Finite);
  // A zero result steps to the smallest subnormal of the value's sign.
  Value *Negative = F.B.CreateOr(
      F.B.CreateFCmpOLT(S, Zero),
      F.B.CreateAnd(F.B.CreateFCmpOEQ(S, Zero), F.B.CreateFCmpOLT(E, Zero)));
  Value *ZeroBits =
      F.B.CreateSelect(Negative, F.B.getInt32(0x80000001), F.B.getInt32(1));
  Value *IsZero =
      F.B.CreateFCmpOEQ(R, llvm::ConstantFP::get(F.B.getFloatTy(), 0.0));
  Stepped = F.B.CreateSelect(IsZero, ZeroBits, Stepped);
  return F.B.CreateBitCast(F.B.CreateSelect(Fix, Stepped, Bits),
                           F.B.getFloatTy());
}

/// a * b + c of three floats from a 16-bit format (so a * b is exact in
/// double), rounded to odd to float: the sum and its rounding error
/// (TwoSum) give the exact value.
Value *fusedToOddFloat(FunctionTranslator &F, Value *A, Value *B, Value *C) {
  llvm::Type *D = F.B.getDoubleTy();
  Value *P = F.B.CreateFMul(F.B.CreateFPExt(A, D), F.B.CreateFPExt(B, D));
  Value *Q = F.B.CreateFPExt(C, D);
  Value *S = F.B.CreateFAdd(P, Q);
  Value *BB = F.B.CreateFSub(S, P);
  Value *E = F.B.CreateFAdd(F.B.CreateFSub(P, F.B.CreateFSub(S, BB)),
                            F.B.CreateFSub(Q, BB));
  // Infinities and NaNs: no error term.
  Value *Finite =
      F.B.CreateFCmpONE(F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, S),
                        llvm::ConstantFP::getInfinity(D));
  E = F.B.CreateSelect(Finite, E, llvm::ConstantFP::get(D, 0.0));
  Value *R = roundToOddFloat(F, S, E);
  // NaN stays NaN (narrow16 makes it canonical).
  return F.B.CreateSelect(F.B.CreateFCmpUNO(S, S),
                          F.B.CreateFPTrunc(S, F.B.getFloatTy()), R);
}

/// A float rounded to nearest even in \p T's 16-bit format (bits); NaN is
/// the canonical 0x7fff.
Value *narrow16(FunctionTranslator &F, Value *V, PtxType T) {
  Value *R;
  if (T.K == PtxType::Kind::BFloat) {
    Value *Bits = F.B.CreateBitCast(V, F.B.getInt32Ty());
    Value *Odd = F.B.CreateAnd(F.B.CreateLShr(Bits, 16), 1);
    Value *Rounded =
        F.B.CreateAdd(F.B.CreateAdd(Bits, F.B.getInt32(0x7fff)), Odd);
    R = F.B.CreateTrunc(F.B.CreateLShr(Rounded, 16), F.B.getInt16Ty());
  } else {
    R = F.B.CreateBitCast(F.B.CreateFPTrunc(V, F.B.getHalfTy()),
                          F.B.getInt16Ty());
  }
  return F.B.CreateSelect(F.B.CreateFCmpUNO(V, V), F.B.getInt16(0x7fff), R);
}

/// The min or max of two values by PTX's rules: -0 is below +0; a NaN
/// operand gives the other one, two NaNs (or, with \p PropagateNaN, any)
/// give NaN.
Value *minMaxFloat(FunctionTranslator &F, bool Min, bool PropagateNaN, Value *A,
                   Value *B) {
  llvm::Type *Ty = A->getType();
  unsigned W = Ty->getPrimitiveSizeInBits();
  llvm::Type *IntTy = F.B.getIntNTy(W);
  Value *IA = F.B.CreateBitCast(A, IntTy), *IB = F.B.CreateBitCast(B, IntTy);
  // Equal values differ only as zeros: min ors the signs, max ands them.
  Value *Equal =
      F.B.CreateBitCast(Min ? F.B.CreateOr(IA, IB) : F.B.CreateAnd(IA, IB), Ty);
  Value *Pick =
      F.B.CreateSelect(Min ? F.B.CreateFCmpOLT(A, B) : F.B.CreateFCmpOGT(A, B),
                       A, F.B.CreateSelect(F.B.CreateFCmpOEQ(A, B), Equal, B));
  Value *NaN = llvm::ConstantFP::getNaN(Ty);
  Value *ANaN = F.B.CreateFCmpUNO(A, A), *BNaN = F.B.CreateFCmpUNO(B, B);
  if (PropagateNaN)
    return F.B.CreateSelect(F.B.CreateOr(ANaN, BNaN), NaN, Pick);
  return F.B.CreateSelect(ANaN, F.B.CreateSelect(BNaN, NaN, B),
                          F.B.CreateSelect(BNaN, A, Pick));
}

/// add, sub, mul of two float or double values in mode \p R.
Value *arithmetic(FunctionTranslator &F, llvm::StringRef Op, Rounding R,
                  Value *A, Value *B) {
  if (R == Rounding::None || R == Rounding::Nearest) {
    Value *V = Op == "add"   ? F.B.CreateFAdd(A, B)
               : Op == "sub" ? F.B.CreateFSub(A, B)
                             : F.B.CreateFMul(A, B);
    // Without a rounding modifier ptxas may fuse a multiply and an add.
    if (auto *Inst = llvm::dyn_cast<llvm::Instruction>(V);
        Inst && R == Rounding::None)
      Inst->setHasAllowContract(true);
    return V;
  }
  bool Double = A->getType()->isDoubleTy();
  std::string Name =
      std::string("__nv_") + (Double ? "d" : "f") + Op.str() + "_" + suffix(R);
  llvm::Type *Ty = A->getType();
  auto Callee = F.declare(Name, llvm::FunctionType::get(Ty, {Ty, Ty}, false));
  return F.B.CreateCall(Callee, {A, B});
}

/// fma of three float or double values in mode \p R.
Value *fusedMultiplyAdd(FunctionTranslator &F, Rounding R, Value *A, Value *B,
                        Value *C) {
  llvm::Type *Ty = A->getType();
  if (R == Rounding::None || R == Rounding::Nearest)
    return F.B.CreateIntrinsic(llvm::Intrinsic::fma, {Ty}, {A, B, C});
  std::string Name =
      std::string(Ty->isDoubleTy() ? "__nv_fma_" : "__nv_fmaf_") + suffix(R);
  auto Callee =
      F.declare(Name, llvm::FunctionType::get(Ty, {Ty, Ty, Ty}, false));
  return F.B.CreateCall(Callee, {A, B, C});
}

/// The modifiers and operation of one floating-point instruction.
struct FloatOp {
  llvm::StringRef Op; ///< add, sub, mul, min, max, fma.
  PtxType T;
  Rounding R = Rounding::None;
  bool Ftz = false, Sat = false, Relu = false, PropagateNaN = false;
};

/// An .f64 result as an H200 gives it: a NaN result is a NaN operand,
/// quieted (an invalid operation gives the host's default NaN). Which one
/// when several are NaN: b before a for add, sub, mul, min, max; b, then
/// c, then a for fma.
Value *nanOperand(FunctionTranslator &F, llvm::StringRef Op, Value *R,
                  const std::vector<Value *> &Args) {
  // Lowest priority first.
  std::vector<Value *> Order = Args;
  if (Op == "fma")
    Order = {Args[0], Args[2], Args[1]};
  Value *Pick = R;
  for (Value *A : Order) {
    Value *Quiet =
        F.B.CreateBitCast(F.B.CreateOr(F.B.CreateBitCast(A, F.B.getInt64Ty()),
                                       F.B.getInt64(0x0008000000000000)),
                          A->getType());
    Pick = F.B.CreateSelect(F.B.CreateFCmpUNO(A, A), Quiet, Pick);
  }
  return F.B.CreateSelect(F.B.CreateFCmpUNO(R, R), Pick, R);
}

/// One .f32 or .f64 operation on \p Args.
Value *wideOp(FunctionTranslator &F, const FloatOp &O,
              std::vector<Value *> Args) {
  if (O.Ftz)
    for (Value *&A : Args)
      A = flushSubnormal(F, A, O.T);
  Value *R;
  if (O.Op == "fma")
    R = fusedMultiplyAdd(F, O.R, Args[0], Args[1], Args[2]);
  else if (O.Op == "min" || O.Op == "max") {
    R = Args[0];
    for (size_t K = 1; K < Args.size(); ++K)
      R = minMaxFloat(F, O.Op == "min", O.PropagateNaN, R, Args[K]);
  } else
    R = arithmetic(F, O.Op, O.R, Args[0], Args[1]);
  if (O.Ftz && O.Op != "min" && O.Op != "max") {
    // .ftz flushes a result that is tiny before rounding (|exact| below
    // the smallest normal), even one that rounds up to it: the operation
    // in double decides, being exact (add, sub, mul) or close enough.
    llvm::Type *D = F.B.getDoubleTy();
    std::vector<Value *> Exact;
    for (Value *A : Args)
      Exact.push_back(F.B.CreateFPExt(A, D));
    Value *X = O.Op == "fma"
                   ? fusedMultiplyAdd(F, Rounding::Nearest, Exact[0], Exact[1],
                                      Exact[2])
                   : arithmetic(F, O.Op, Rounding::Nearest, Exact[0], Exact[1]);
    Value *Tiny =
        F.B.CreateFCmpOLT(F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X),
                          llvm::ConstantFP::get(D, 0x1p-126));
    Value *Bits = F.B.CreateBitCast(R, F.B.getInt32Ty());
    R = F.B.CreateSelect(
        Tiny,
        F.B.CreateBitCast(F.B.CreateAnd(Bits, F.B.getInt32(0x80000000)),
                          R->getType()),
        R);
  }
  if (O.Sat)
    R = saturate(F, R);
  if (O.Ftz)
    R = flushSubnormal(F, R, O.T);
  if (O.T.Bits == 64)
    return nanOperand(F, O.Op, R, Args);
  return canonical(F, R, O.T);
}

/// One lane of a 16-bit operation on the bits \p Args; the bits of the
/// result.
Value *narrowOp(FunctionTranslator &F, const FloatOp &O,
                std::vector<Value *> Args) {
  std::vector<Value *> Wide;
  for (Value *A : Args)
    Wide.push_back(widen16(F, O.Ftz ? flushSubnormal(F, A, O.T) : A, O.T));
  Value *R;
  if (O.Op == "fma") {
    R = fusedToOddFloat(F, Wide[0], Wide[1], Wide[2]);
  } else if (O.Op == "min" || O.Op == "max") {
    R = Wide[0];
    for (size_t K = 1; K < Wide.size(); ++K)
      R = minMaxFloat(F, O.Op == "min", O.PropagateNaN, R, Wide[K]);
  } else {
    R = arithmetic(F, O.Op, Rounding::Nearest, Wide[0], Wide[1]);
  }
  if (O.Sat)
    R = saturate(F, R);
  // .relu: negative values and -0 become +0; NaN stays NaN.
  if (O.Relu)
    R = F.B.CreateSelect(
        F.B.CreateFCmpOLE(R, llvm::ConstantFP::get(R->getType(), 0.0)),
        llvm::ConstantFP::get(R->getType(), 0.0), R);
  if (O.Ftz && O.Op != "min" && O.Op != "max") {
    // As for .f32: a result tiny before rounding is flushed (R is exact or
    // rounded to odd, so it is below 2^-14 exactly when the result is).
    Value *Tiny =
        F.B.CreateFCmpOLT(F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, R),
                          llvm::ConstantFP::get(R->getType(), 0x1p-14));
    R = F.B.CreateSelect(
        Tiny, F.B.CreateCopySign(llvm::ConstantFP::get(R->getType(), 0.0), R),
        R);
  }
  Value *Bits = narrow16(F, R, O.T);
  return O.Ftz ? flushSubnormal(F, Bits, O.T) : Bits;
}

/// Runs \p O on operands 1.. of \p I and writes operand 0.
llvm::Error runFloatOp(FunctionTranslator &F, const Instruction &I,
                       const FloatOp &O, size_t Count) {
  auto S = sources(F, I, O.T, 1, Count);
  if (!S)
    return S.takeError();
  Value *R;
  if (isWide(O.T)) {
    R = wideOp(F, O, *S);
  } else if (O.T.Lanes == 1) {
    R = narrowOp(F, O, *S);
  } else {
    Value *Lanes[2];
    for (unsigned K = 0; K < 2; ++K) {
      std::vector<Value *> Args;
      for (Value *A : *S)
        Args.push_back(lane(F, A, K));
      Lanes[K] = narrowOp(F, O, Args);
    }
    R = pack(F, Lanes[0], Lanes[1]);
  }
  return F.write(I, I.Operands[0], R, O.T);
}

/// Fills the modifiers of \p O from \p I and checks them against what PTX
/// defines for \p O.Op and its type.
llvm::Error parseFloatOp(FunctionTranslator &F, const Instruction &I,
                         FloatOp &O) {
  auto R = roundingOf(F, I);
  if (!R)
    return R.takeError();
  O.R = *R;
  O.Ftz = I.has("ftz");
  O.Sat = I.has("sat");
  O.Relu = I.has("relu");
  O.PropagateNaN = I.has("NaN");
  bool MinMax = O.Op == "min" || O.Op == "max";
  if (isWide(O.T)) {
    bool F32 = O.T.Bits == 32;
    if (MinMax)
      return onlyModifiers(
          F, I,
          F32 ? std::initializer_list<llvm::StringRef>{"ftz", "NaN"}
              : std::initializer_list<llvm::StringRef>{},
          false);
    return onlyModifiers(
        F, I,
        F32 ? std::initializer_list<llvm::StringRef>{"ftz", "sat"}
            : std::initializer_list<llvm::StringRef>{},
        true);
  }
  // .f16, .f16x2, .bf16, .bf16x2: round to nearest only.
  if (O.R != Rounding::None && O.R != Rounding::Nearest)
    return F.error(I, "16-bit formats round to nearest (.rn) only");
  bool Half = O.T.K == PtxType::Kind::Float;
  if (MinMax)
    return onlyModifiers(
        F, I,
        Half ? std::initializer_list<llvm::StringRef>{"ftz", "NaN"}
             : std::initializer_list<llvm::StringRef>{"NaN"},
        false);
  if (O.Op == "fma")
    return onlyModifiers(
        F, I,
        Half ? std::initializer_list<llvm::StringRef>{"ftz", "sat", "relu"}
             : std::initializer_list<llvm::StringRef>{"relu"},
        true);
  return onlyModifiers(
      F, I,
      Half ? std::initializer_list<llvm::StringRef>{"ftz", "sat"}
           : std::initializer_list<llvm::StringRef>{},
      true);
}

/// neg, abs of one .f32/.f64 value.
Value *wideSign(FunctionTranslator &F, bool Neg, PtxType T, Value *A) {
  Value *R = Neg ? F.B.CreateFNeg(A)
                 : F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, A);
  Value *IsNaN = F.B.CreateFCmpUNO(A, A);
  if (T.Bits == 32)
    return canonical(F, R, T);
  // .f64: the operand, quieted.
  Value *Quiet =
      F.B.CreateBitCast(F.B.CreateOr(F.B.CreateBitCast(A, F.B.getInt64Ty()),
                                     F.B.getInt64(0x0008000000000000)),
                        A->getType());
  return F.B.CreateSelect(IsNaN, Quiet, R);
}

/// neg, abs of the bits of one 16-bit value.
Value *narrowSign(FunctionTranslator &F, bool Neg, PtxType T, Value *A) {
  Value *R = Neg ? F.B.CreateXor(A, F.B.getInt16(0x8000))
                 : F.B.CreateAnd(A, F.B.getInt16(0x7fff));
  Value *IsNaN = F.B.CreateFCmpUNO(widen16(F, A, T), widen16(F, A, T));
  return F.B.CreateSelect(IsNaN, F.B.getInt16(0x7fff), R);
}

/// testp.op.type p, a.
llvm::Error testProperty(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (!isWide(*T))
    return F.error(I, "takes .f32 or .f64");
  unsigned Test = 0;
  for (const std::string &M : I.Modifiers) {
    unsigned This = llvm::StringSwitch<unsigned>(M)
                        .Case("finite", llvm::fcFinite)
                        .Case("infinite", llvm::fcInf)
                        .Case("number", ~llvm::fcNan & llvm::fcAllFlags)
                        .Case("notanumber", llvm::fcNan)
                        // An H200 counts zeros as normal.
                        .Case("normal", llvm::fcNormal | llvm::fcZero)
                        .Case("subnormal", llvm::fcSubnormal)
                        .Default(0);
    if (This && Test)
      return F.error(I, "takes one property");
    Test |= This;
  }
  if (!Test)
    return F.error(I, "needs .finite, .infinite, .number, .notanumber, "
                      ".normal or .subnormal");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  return F.write(I, I.Operands[0],
                 F.B.createIsFPClass(*A, static_cast<llvm::FPClassTest>(Test)),
                 predType());
}

} // namespace

namespace arith {

llvm::Error floatBinary(FunctionTranslator &F, const Instruction &I,
                        PtxType T) {
  FloatOp O;
  O.Op = I.Opcode;
  O.T = T;
  if (auto E = parseFloatOp(F, I, O))
    return E;
  bool MinMax = O.Op == "min" || O.Op == "max";
  // min/max.f32 (and the 16-bit forms) take a third source from PTX 8.8.
  if (MinMax && I.Operands.size() == 4)
    return runFloatOp(F, I, O, 3);
  if (auto E = F.expectOperands(I, 3))
    return E;
  return runFloatOp(F, I, O, 2);
}

llvm::Error floatFma(FunctionTranslator &F, const Instruction &I, PtxType T) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  FloatOp O;
  O.Op = "fma";
  O.T = T;
  if (auto E = parseFloatOp(F, I, O))
    return E;
  if (isWide(T) && I.Opcode == "fma" && O.R == Rounding::None)
    return F.error(I, "needs a rounding modifier");
  return runFloatOp(F, I, O, 3);
}

llvm::Error floatUnary(FunctionTranslator &F, const Instruction &I, PtxType T) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  bool Neg = I.Opcode == "neg";
  bool Half = T.K == PtxType::Kind::Float && T.Bits == 16;
  bool Ftz = I.has("ftz");
  if (auto E = onlyModifiers(F, I,
                             (T.Bits == 32 || Half)
                                 ? std::initializer_list<llvm::StringRef>{"ftz"}
                                 : std::initializer_list<llvm::StringRef>{},
                             false))
    return E;
  auto A = F.read(I, I.Operands[1], T);
  if (!A)
    return A.takeError();
  Value *R;
  if (isWide(T)) {
    R = wideSign(F, Neg, T, Ftz ? flushSubnormal(F, *A, T) : *A);
  } else {
    Value *Lanes[2];
    for (unsigned K = 0; K < T.Lanes; ++K) {
      Value *L = T.Lanes == 1 ? *A : lane(F, *A, K);
      Lanes[K] = narrowSign(F, Neg, T, Ftz ? flushSubnormal(F, L, T) : L);
    }
    R = T.Lanes == 1 ? Lanes[0] : pack(F, Lanes[0], Lanes[1]);
  }
  return F.write(I, I.Operands[0], R, T);
}

void addFloatOps(OpTable &T) { T["testp"] = testProperty; }

} // namespace arith

} // namespace cucpu::ptx

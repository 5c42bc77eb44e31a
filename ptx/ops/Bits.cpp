//===- Bits.cpp - PTX instructions: logic and bit manipulation ------------===//
//
// and, or, xor, not, cnot, lop3; shl, shr, shf; popc, clz, bfind, brev,
// bfe, bfi, bmsk, szext, fns and prmt (every mode). Shift amounts, bit
// positions and field lengths past the width take the values the PTX ISA gives
// them instead of LLVM's poison.
//
//===----------------------------------------------------------------------===//

#include "ArithCommon.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Intrinsics.h"

#include <array>
#include <optional>

namespace cucpu::ptx {

namespace {

using llvm::Value;
using namespace arith;

/// Checks that \p T is a .bN type (or, with \p Typed, any integer type) of
/// one of \p Widths bits.
llvm::Error expectBits(FunctionTranslator &F, const Instruction &I, PtxType T,
                       std::initializer_list<unsigned> Widths,
                       bool Typed = false) {
  bool KindOk = Typed ? T.isInteger() : T.K == PtxType::Kind::Bits;
  if (KindOk && T.Lanes == 1 && llvm::is_contained(Widths, T.Bits))
    return llvm::Error::success();
  std::string List;
  for (unsigned W : Widths)
    List += (List.empty() ? "" : ", ") + std::to_string(W);
  return F.error(I, "takes a " + List + "-bit " +
                        (Typed ? "integer" : "bit-size") + " type");
}

/// \p V << \p Amount (i32), 0 once \p Amount reaches the width.
Value *shiftLeft(FunctionTranslator &F, Value *V, Value *Amount) {
  unsigned W = V->getType()->getIntegerBitWidth();
  Value *Big = F.B.CreateICmpUGE(Amount, F.B.getInt32(W));
  Value *Safe = F.B.CreateZExtOrTrunc(
      F.B.CreateSelect(Big, F.B.getInt32(0), Amount), V->getType());
  return F.B.CreateSelect(Big, llvm::ConstantInt::get(V->getType(), 0),
                          F.B.CreateShl(V, Safe));
}

/// \p V >> \p Amount (i32), logical; 0 once \p Amount reaches the width.
Value *shiftRight(FunctionTranslator &F, Value *V, Value *Amount) {
  unsigned W = V->getType()->getIntegerBitWidth();
  Value *Big = F.B.CreateICmpUGE(Amount, F.B.getInt32(W));
  Value *Safe = F.B.CreateZExtOrTrunc(
      F.B.CreateSelect(Big, F.B.getInt32(0), Amount), V->getType());
  return F.B.CreateSelect(Big, llvm::ConstantInt::get(V->getType(), 0),
                          F.B.CreateLShr(V, Safe));
}

/// The low \p N (i32, any value) bits set in a value of type \p Ty.
Value *lowMask(FunctionTranslator &F, llvm::Type *Ty, Value *N) {
  return F.B.CreateNot(shiftLeft(F, llvm::Constant::getAllOnesValue(Ty), N));
}

llvm::Error logic(FunctionTranslator &F, const Instruction &I) {
  bool Unary = I.Opcode == "not" || I.Opcode == "cnot";
  if (auto E = F.expectOperands(I, Unary ? 2 : 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (T->K != PtxType::Kind::Pred || I.Opcode == "cnot")
    if (auto E = expectBits(F, I, *T, {16, 32, 64}, /*Typed=*/true))
      return E;
  auto S = sources(F, I, *T, 1, Unary ? 1 : 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0];
  Value *R;
  if (I.Opcode == "not")
    R = F.B.CreateNot(A);
  else if (I.Opcode == "cnot")
    R = F.B.CreateZExt(
        F.B.CreateICmpEQ(A, llvm::ConstantInt::get(A->getType(), 0)),
        A->getType());
  else if (I.Opcode == "and")
    R = F.B.CreateAnd(A, (*S)[1]);
  else if (I.Opcode == "or")
    R = F.B.CreateOr(A, (*S)[1]);
  else
    R = F.B.CreateXor(A, (*S)[1]);
  return F.write(I, I.Operands[0], R, *T);
}

/// The immediate operand \p Index of \p I.
llvm::Expected<uint64_t> immediate(FunctionTranslator &F, const Instruction &I,
                                   size_t Index) {
  if (I.Operands[Index].K != Operand::Kind::Integer)
    return F.error(I, "operand " + std::to_string(Index + 1) +
                          " must be an integer constant");
  return I.Operands[Index].Value;
}

/// lop3.b32 d, a, b, c, immLut: the function of three inputs whose truth
/// table is immLut (bit 4a+2b+c); lop3.op.b32 d|p, a, b, c, immLut, q also
/// sets p = (d != 0) op q.
llvm::Error lookup3(FunctionTranslator &F, const Instruction &I) {
  std::string Op;
  for (const std::string &M : I.Modifiers)
    if (M == "and" || M == "or")
      Op = M;
  if (auto E = F.expectOperands(I, Op.empty() ? 5 : 6))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32}))
    return E;
  auto Lut = immediate(F, I, 4);
  if (!Lut)
    return Lut.takeError();
  auto S = sources(F, I, *T, 1, 3);
  if (!S)
    return S.takeError();
  Value *R = F.B.getInt32(0);
  for (unsigned K = 0; K < 8; ++K) {
    if (!((*Lut >> K) & 1))
      continue;
    Value *Term = F.B.getInt32(~0u);
    for (unsigned In = 0; In < 3; ++In) {
      Value *X = (*S)[In];
      // Bit 2 of K is a, bit 1 b, bit 0 c.
      bool Set = (K >> (2 - In)) & 1;
      Term = F.B.CreateAnd(Term, Set ? X : F.B.CreateNot(X));
    }
    R = F.B.CreateOr(R, Term);
  }
  const Operand &Dst = I.Operands[0];
  if (Op.empty())
    return F.write(I, Dst, R, *T);
  if (Dst.K != Operand::Kind::Pair)
    return F.error(I, "writes d|p");
  auto Q = F.readAs(I, I.Operands[5], F.B.getInt1Ty(), false);
  if (!Q)
    return Q.takeError();
  Value *NonZero = F.B.CreateICmpNE(R, F.B.getInt32(0));
  Value *P =
      Op == "and" ? F.B.CreateAnd(NonZero, *Q) : F.B.CreateOr(NonZero, *Q);
  if (auto E = F.write(I, Dst.Elements[0], R, *T))
    return E;
  return F.write(I, Dst.Elements[1], P, predType());
}

llvm::Error shift(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {16, 32, 64}, I.Opcode == "shr"))
    return E;
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  auto Amount = F.read(I, I.Operands[2], u32Type());
  if (!Amount)
    return Amount.takeError();
  // PTX: amounts past the width give 0 (shl, shr.u, shr.b) or the sign
  // (shr.s); LLVM's shifts would be poison.
  Value *R;
  if (I.Opcode == "shl")
    R = shiftLeft(F, *A, *Amount);
  else if (!T->isSigned())
    R = shiftRight(F, *A, *Amount);
  else
    R = F.B.CreateAShr(
        *A, F.B.CreateZExtOrTrunc(
                F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, *Amount,
                                          F.B.getInt32(T->Bits - 1)),
                (*A)->getType()));
  return F.write(I, I.Operands[0], R, *T);
}

/// shf.l/.r.wrap/.clamp.b32 d, a, b, c: the 64-bit value b:a shifted by c
/// (mod 32 with .wrap, at most 32 with .clamp); .l keeps the high word,
/// .r the low one.
llvm::Error funnelShift(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  bool Left = I.has("l");
  if (Left == I.has("r"))
    return F.error(I, "needs .l or .r");
  bool Clamp = I.has("clamp");
  if (Clamp == I.has("wrap"))
    return F.error(I, "needs .wrap or .clamp");
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32}))
    return E;
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  auto C = F.read(I, I.Operands[3], u32Type());
  if (!C)
    return C.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  // fshl(b, a, n) is the high word of b:a << (n % 32), fshr(b, a, n) the
  // low word of b:a >> (n % 32).
  Value *R =
      F.B.CreateIntrinsic(Left ? llvm::Intrinsic::fshl : llvm::Intrinsic::fshr,
                          {F.B.getInt32Ty()}, {B, A, *C});
  if (Clamp)
    R = F.B.CreateSelect(F.B.CreateICmpUGE(*C, F.B.getInt32(32)), Left ? A : B,
                         R);
  return F.write(I, I.Operands[0], R, *T);
}

/// popc, clz, brev.
llvm::Error countOrReverse(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32, 64}))
    return E;
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  if (I.Opcode == "brev")
    return F.write(I, I.Operands[0],
                   F.B.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, *A),
                   *T);
  Value *R = I.Opcode == "popc"
                 ? F.B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, *A)
                 : F.B.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, *A,
                                             F.B.getFalse());
  return F.write(I, I.Operands[0], F.B.CreateZExtOrTrunc(R, F.B.getInt32Ty()),
                 u32Type());
}

/// bfind: the position of the most significant 1 (unsigned) or of the most
/// significant bit that differs from the sign (signed); 0xffffffff if none.
/// .shiftamt: the left shift that moves that bit to the top instead.
llvm::Error findMostSignificant(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if ((!T->isSigned() && T->K != PtxType::Kind::Unsigned) ||
      (T->Bits != 32 && T->Bits != 64))
    return F.error(I, "takes .u32, .s32, .u64 or .s64");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  Value *X = *A;
  if (T->isSigned())
    X = F.B.CreateSelect(
        F.B.CreateICmpSLT(X, llvm::ConstantInt::get(X->getType(), 0)),
        F.B.CreateNot(X), X);
  Value *Leading = F.B.CreateZExtOrTrunc(
      F.B.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, X, F.B.getFalse()),
      F.B.getInt32Ty());
  Value *None = F.B.CreateICmpEQ(Leading, F.B.getInt32(T->Bits));
  Value *R = I.has("shiftamt")
                 ? Leading
                 : F.B.CreateSub(F.B.getInt32(T->Bits - 1), Leading);
  return F.write(I, I.Operands[0], F.B.CreateSelect(None, F.B.getInt32(~0u), R),
                 u32Type());
}

/// The position and length operands of bfe/bfi (operands \p First and
/// \p First + 1) as i64: the low 8 bits for 32-bit forms, all 32 bits
/// for 64-bit ones (as an H200 reads them).
llvm::Expected<std::pair<Value *, Value *>> fieldOperands(FunctionTranslator &F,
                                                          const Instruction &I,
                                                          size_t First,
                                                          unsigned W) {
  auto S = sources(F, I, u32Type(), First, 2);
  if (!S)
    return S.takeError();
  Value *Pos = (*S)[0], *Len = (*S)[1];
  if (W == 32) {
    Pos = F.B.CreateAnd(Pos, 0xff);
    Len = F.B.CreateAnd(Len, 0xff);
  }
  return std::make_pair(F.B.CreateZExt(Pos, F.B.getInt64Ty()),
                        F.B.CreateZExt(Len, F.B.getInt64Ty()));
}

/// \p V clamped to \p Max and made an i32 (a shift amount).
Value *clampedAmount(FunctionTranslator &F, Value *V, uint64_t Max) {
  return F.B.CreateTrunc(
      F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, V, F.B.getInt64(Max)),
      F.B.getInt32Ty());
}

/// bfe.type d, a, b, c: the field of c bits at bit b of a, extended with
/// zeros (unsigned) or with the field's top bit (signed); bits past the
/// top of a repeat that bit too.
llvm::Error extractField(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if ((!T->isSigned() && T->K != PtxType::Kind::Unsigned) ||
      (T->Bits != 32 && T->Bits != 64))
    return F.error(I, "takes .u32, .s32, .u64 or .s64");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  unsigned W = T->Bits;
  auto Field = fieldOperands(F, I, 2, W);
  if (!Field)
    return Field.takeError();
  auto [Pos, Len] = *Field;
  llvm::Type *Ty = (*A)->getType();
  // The bits of a that the field takes: min(len, W - pos), 0 past the top.
  Value *Room =
      F.B.CreateSelect(F.B.CreateICmpUGE(Pos, F.B.getInt64(W)), F.B.getInt64(0),
                       F.B.CreateSub(F.B.getInt64(W), Pos));
  Value *Taken = clampedAmount(
      F, F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Len, Room), W);
  Value *Mask = lowMask(F, Ty, Taken);
  Value *Bits =
      F.B.CreateAnd(shiftRight(F, *A, clampedAmount(F, Pos, W)), Mask);
  if (!T->isSigned())
    return F.write(I, I.Operands[0], Bits, *T);
  // The sign: bit min(pos + len - 1, W - 1) of a; 0 when len is 0.
  Value *Top = clampedAmount(
      F, F.B.CreateSub(F.B.CreateAdd(Pos, Len), F.B.getInt64(1)), W - 1);
  Value *SignBit = F.B.CreateTrunc(shiftRight(F, *A, Top), F.B.getInt1Ty());
  SignBit = F.B.CreateAnd(SignBit, F.B.CreateICmpNE(Len, F.B.getInt64(0)));
  Value *R =
      F.B.CreateSelect(SignBit, F.B.CreateOr(Bits, F.B.CreateNot(Mask)), Bits);
  return F.write(I, I.Operands[0], R, *T);
}

/// bfi.type f, a, b, c, d: b with its field of d bits at bit c replaced by
/// a's low bits (bits past the top are dropped).
llvm::Error insertField(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 5))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32, 64}))
    return E;
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  unsigned W = T->Bits;
  auto Field = fieldOperands(F, I, 3, W);
  if (!Field)
    return Field.takeError();
  Value *Pos = clampedAmount(F, Field->first, W);
  Value *Len = clampedAmount(F, Field->second, W);
  llvm::Type *Ty = (*S)[0]->getType();
  Value *Mask = shiftLeft(F, lowMask(F, Ty, Len), Pos);
  Value *Inserted = F.B.CreateAnd(shiftLeft(F, (*S)[0], Pos), Mask);
  Value *R =
      F.B.CreateOr(Inserted, F.B.CreateAnd((*S)[1], F.B.CreateNot(Mask)));
  return F.write(I, I.Operands[0], R, *T);
}

/// The wrap/clamp mode of bmsk and szext: whether it clamps.
llvm::Expected<bool> clampMode(FunctionTranslator &F, const Instruction &I) {
  bool Clamp = I.has("clamp");
  if (Clamp == I.has("wrap"))
    return F.error(I, "needs .wrap or .clamp");
  return Clamp;
}

/// bmsk.mode.b32 d, a, b: the mask of b bits from bit a. .wrap takes a and
/// b modulo 32; .clamp gives 0 for a >= 32 and runs to bit 31 for b >= 32.
llvm::Error bitMask(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32}))
    return E;
  auto Clamp = clampMode(F, I);
  if (!Clamp)
    return Clamp.takeError();
  auto S = sources(F, I, u32Type(), 1, 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  Value *A1 = F.B.CreateAnd(A, 31), *B1 = F.B.CreateAnd(B, 31);
  Value *Sum = F.B.CreateAdd(A1, B1);
  Value *Low = F.B.CreateShl(F.B.getInt32(~0u), A1);
  // Bits at or above a + b, none when the field reaches bit 31.
  Value *High = shiftLeft(F, F.B.getInt32(~0u), Sum);
  if (*Clamp) {
    Low = F.B.CreateSelect(F.B.CreateICmpUGE(A, F.B.getInt32(32)),
                           F.B.getInt32(0), Low);
    High = F.B.CreateSelect(F.B.CreateICmpUGE(B, F.B.getInt32(32)),
                            F.B.getInt32(0), High);
    B1 = F.B.CreateSelect(F.B.CreateICmpUGE(B, F.B.getInt32(32)), B, B1);
  }
  High = F.B.CreateSelect(F.B.CreateICmpEQ(B1, F.B.getInt32(0)),
                          F.B.getInt32(~0u), High);
  return F.write(I, I.Operands[0], F.B.CreateAnd(Low, F.B.CreateNot(High)), *T);
}

/// szext.mode.type d, a, b: the low b bits of a, sign- (.s32) or
/// zero-extended (.u32); b modulo 32 (.wrap) or at most 32 (.clamp); 0
/// for no bits.
llvm::Error signOrZeroExtend(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if ((!T->isSigned() && T->K != PtxType::Kind::Unsigned) || T->Bits != 32)
    return F.error(I, "takes .u32 or .s32");
  auto Clamp = clampMode(F, I);
  if (!Clamp)
    return Clamp.takeError();
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  Value *N = *Clamp ? F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, B,
                                                F.B.getInt32(32))
                    : F.B.CreateAnd(B, 31);
  // Shift the field to the top and back; N is 1..32 where it is used.
  Value *Up = F.B.CreateSub(F.B.getInt32(32), N);
  Value *SafeUp = F.B.CreateAnd(Up, 31);
  Value *Top = F.B.CreateShl(A, SafeUp);
  Value *R =
      T->isSigned() ? F.B.CreateAShr(Top, SafeUp) : F.B.CreateLShr(Top, SafeUp);
  R = F.B.CreateSelect(F.B.CreateICmpEQ(N, F.B.getInt32(0)), F.B.getInt32(0),
                       R);
  return F.write(I, I.Operands[0], R, *T);
}

/// The position (0-31) of the \p N-th (i32, at least 1) set bit of \p M
/// counting from bit 0, or 0xffffffff if M has fewer set bits.
Value *nthSetBit(FunctionTranslator &F, Value *M, Value *N) {
  Value *Total = F.B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, M);
  Value *Pos = F.B.getInt32(0);
  Value *K = N;
  // Binary search: skip each lower half that holds fewer than K set bits.
  for (unsigned Step : {16u, 8u, 4u, 2u, 1u}) {
    Value *Low = F.B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop,
                                          F.B.CreateAnd(M, (1u << Step) - 1));
    Value *Skip = F.B.CreateICmpUGT(K, Low);
    K = F.B.CreateSelect(Skip, F.B.CreateSub(K, Low), K);
    M = F.B.CreateSelect(Skip, F.B.CreateLShr(M, Step), M);
    Pos = F.B.CreateSelect(Skip, F.B.CreateAdd(Pos, F.B.getInt32(Step)), Pos);
  }
  return F.B.CreateSelect(F.B.CreateICmpUGT(N, Total), F.B.getInt32(~0u), Pos);
}

/// fns.b32 d, mask, base, offset: the position of the offset-th set bit of
/// mask from bit base upwards (offset > 0) or downwards (offset < 0), base
/// itself counting; for offset 0, base if that bit is set. 0xffffffff if
/// there is none.
llvm::Error findNthSet(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32}))
    return E;
  auto S = sources(F, I, u32Type(), 1, 3);
  if (!S)
    return S.takeError();
  Value *Mask = (*S)[0];
  // A base past 31 is undefined in PTX; its low 5 bits keep IR defined.
  Value *Base = F.B.CreateAnd((*S)[1], 31);
  Value *Offset = (*S)[2];
  Value *Up = F.B.CreateAnd(Mask, F.B.CreateShl(F.B.getInt32(~0u), Base));
  Value *UpPos = nthSetBit(F, Up, Offset);
  // Downwards: reverse the bits at or below base and search upwards.
  Value *Down = F.B.CreateUnaryIntrinsic(
      llvm::Intrinsic::bitreverse,
      F.B.CreateAnd(Mask,
                    F.B.CreateLShr(F.B.getInt32(~0u),
                                   F.B.CreateSub(F.B.getInt32(31), Base))));
  Value *DownFound = nthSetBit(F, Down, F.B.CreateNeg(Offset));
  Value *DownPos =
      F.B.CreateSelect(F.B.CreateICmpEQ(DownFound, F.B.getInt32(~0u)),
                       DownFound, F.B.CreateSub(F.B.getInt32(31), DownFound));
  Value *BaseSet = F.B.CreateTrunc(F.B.CreateLShr(Mask, Base), F.B.getInt1Ty());
  Value *AtBase = F.B.CreateSelect(BaseSet, Base, F.B.getInt32(~0u));
  Value *R = F.B.CreateSelect(
      F.B.CreateICmpSGT(Offset, F.B.getInt32(0)), UpPos,
      F.B.CreateSelect(F.B.CreateICmpEQ(Offset, F.B.getInt32(0)), AtBase,
                       DownPos));
  return F.write(I, I.Operands[0], R, *T);
}

/// prmt.b32{.mode} d, a, b, c: bytes picked from b:a (a is bytes 0-3).
/// Without a mode each nibble of c picks one (bit 3: replicate the byte's
/// sign); a mode picks by c's low two bits from a fixed table.
llvm::Error permute(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectBits(F, I, *T, {32}))
    return E;
  auto S = sources(F, I, *T, 1, 3);
  if (!S)
    return S.takeError();
  // Per mode, for c & 3 = 0..3, the byte selectors of d (d.b0 in the low
  // nibble), from the PTX ISA's table.
  std::optional<std::array<uint16_t, 4>> Table;
  for (const std::string &M : I.Modifiers) {
    auto Row =
        llvm::StringSwitch<std::optional<std::array<uint16_t, 4>>>(M)
            .Case("f4e",
                  std::array<uint16_t, 4>{0x3210, 0x4321, 0x5432, 0x6543})
            .Case("b4e",
                  std::array<uint16_t, 4>{0x5670, 0x6701, 0x7012, 0x0123})
            .Case("rc8",
                  std::array<uint16_t, 4>{0x0000, 0x1111, 0x2222, 0x3333})
            .Case("ecl",
                  std::array<uint16_t, 4>{0x3210, 0x3211, 0x3222, 0x3333})
            .Case("ecr",
                  std::array<uint16_t, 4>{0x0000, 0x1110, 0x2210, 0x3210})
            .Case("rc16",
                  std::array<uint16_t, 4>{0x1010, 0x3232, 0x1010, 0x3232})
            .Default(std::nullopt);
    if (Row && Table)
      return F.error(I, "takes one mode");
    if (Row)
      Table = Row;
  }
  Value *Bytes = F.B.CreateOr(
      F.B.CreateZExt((*S)[0], F.B.getInt64Ty()),
      F.B.CreateShl(F.B.CreateZExt((*S)[1], F.B.getInt64Ty()), 32));
  Value *Selector = (*S)[2];
  if (Table) {
    uint64_t Packed = 0;
    for (unsigned K = 0; K < 4; ++K)
      Packed |= uint64_t((*Table)[K]) << (16 * K);
    Value *Shift = F.B.CreateZExt(
        F.B.CreateMul(F.B.CreateAnd(Selector, 3), F.B.getInt32(16)),
        F.B.getInt64Ty());
    Selector = F.B.CreateTrunc(
        F.B.CreateAnd(F.B.CreateLShr(F.B.getInt64(Packed), Shift), 0xffff),
        F.B.getInt32Ty());
  }
  Value *R = F.B.getInt32(0);
  for (unsigned K = 0; K < 4; ++K) {
    Value *Nibble = F.B.CreateAnd(F.B.CreateLShr(Selector, 4 * K), 0xf);
    Value *Which = F.B.CreateAnd(Nibble, 7);
    Value *Byte = F.B.CreateTrunc(
        F.B.CreateLShr(Bytes,
                       F.B.CreateZExt(F.B.CreateMul(Which, F.B.getInt32(8)),
                                      F.B.getInt64Ty())),
        F.B.getInt8Ty());
    if (!Table) {
      // Bit 3: the byte's sign bit in all eight bits.
      Value *Replicate =
          F.B.CreateICmpNE(F.B.CreateAnd(Nibble, 8), F.B.getInt32(0));
      Value *Sign = F.B.CreateAShr(Byte, 7);
      Byte = F.B.CreateSelect(Replicate, Sign, Byte);
    }
    R = F.B.CreateOr(
        R, F.B.CreateShl(F.B.CreateZExt(Byte, F.B.getInt32Ty()), 8 * K));
  }
  return F.write(I, I.Operands[0], R, *T);
}

} // namespace

void addBitOps(OpTable &T) {
  for (const char *Op : {"and", "or", "xor", "not", "cnot"})
    T[Op] = logic;
  T["lop3"] = lookup3;
  T["shl"] = shift;
  T["shr"] = shift;
  T["shf"] = funnelShift;
  T["popc"] = countOrReverse;
  T["clz"] = countOrReverse;
  T["brev"] = countOrReverse;
  T["bfind"] = findMostSignificant;
  T["bfe"] = extractField;
  T["bfi"] = insertField;
  T["fns"] = findNthSet;
  T["prmt"] = permute;
  T["bmsk"] = bitMask;
  T["szext"] = signOrZeroExtend;
}

} // namespace cucpu::ptx

//===- Arithmetic.cpp - PTX instructions: integer and float arithmetic ----===//
//
// add, sub, mul, mad, fma, min, max, neg, abs; comparisons (setp, selp) and
// logic (and, or, xor, not, shl, shr).
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// Reads operands [From, From + Count) of \p I as \p T.
llvm::Expected<std::vector<Value *>> sources(FunctionTranslator &F,
                                             const Instruction &I, PtxType T,
                                             size_t From, size_t Count) {
  std::vector<Value *> Out;
  for (size_t K = From; K < From + Count; ++K) {
    auto V = F.read(I, I.Operands[K], T);
    if (!V)
      return V.takeError();
    Out.push_back(*V);
  }
  return Out;
}

/// The product of \p A and \p B for mul/mad's .lo, .hi and .wide.
Value *integerProduct(FunctionTranslator &F, const Instruction &I, PtxType T,
                      Value *A, Value *B) {
  if (!I.has("hi") && !I.has("wide"))
    return F.B.CreateMul(A, B);
  llvm::Type *Wide = F.B.getIntNTy(T.Bits * 2);
  Value *WA = T.isSigned() ? F.B.CreateSExt(A, Wide) : F.B.CreateZExt(A, Wide);
  Value *WB = T.isSigned() ? F.B.CreateSExt(B, Wide) : F.B.CreateZExt(B, Wide);
  Value *P = F.B.CreateMul(WA, WB);
  if (I.has("wide"))
    return P;
  return F.B.CreateTrunc(F.B.CreateLShr(P, T.Bits), A->getType());
}

/// The type of the result of mul/mad: twice as wide for .wide.
PtxType resultType(const Instruction &I, PtxType T) {
  if (I.has("wide"))
    T.Bits *= 2;
  return T;
}

llvm::Error binary(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  Value *R = nullptr;
  bool Float = T->K == PtxType::Kind::Float && T->Lanes == 1 && T->Bits >= 32;
  if (I.Opcode == "add")
    R = Float ? F.B.CreateFAdd(A, B) : F.B.CreateAdd(A, B);
  else if (I.Opcode == "sub")
    R = Float ? F.B.CreateFSub(A, B) : F.B.CreateSub(A, B);
  else if (I.Opcode == "mul")
    R = Float ? F.B.CreateFMul(A, B) : integerProduct(F, I, *T, A, B);
  else if (I.Opcode == "min" || I.Opcode == "max") {
    bool Min = I.Opcode == "min";
    if (Float)
      R = F.B.CreateBinaryIntrinsic(
          Min ? llvm::Intrinsic::minnum : llvm::Intrinsic::maxnum, A, B);
    else if (T->isSigned())
      R = F.B.CreateBinaryIntrinsic(
          Min ? llvm::Intrinsic::smin : llvm::Intrinsic::smax, A, B);
    else
      R = F.B.CreateBinaryIntrinsic(
          Min ? llvm::Intrinsic::umin : llvm::Intrinsic::umax, A, B);
  } else if (I.Opcode == "and")
    R = F.B.CreateAnd(A, B);
  else if (I.Opcode == "or")
    R = F.B.CreateOr(A, B);
  else if (I.Opcode == "xor")
    R = F.B.CreateXor(A, B);
  if (!R || (!Float && T->K == PtxType::Kind::Float))
    return F.error(I, "this form is not supported yet");
  return F.write(I, I.Operands[0], R, resultType(I, *T));
}

llvm::Error multiplyAdd(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  PtxType RT = resultType(I, *T);
  auto C = F.read(I, I.Operands[3], RT);
  if (!C)
    return C.takeError();
  Value *R;
  if (T->K == PtxType::Kind::Float && T->Lanes == 1 && T->Bits >= 32)
    R = F.B.CreateIntrinsic(llvm::Intrinsic::fma, {(*S)[0]->getType()},
                            {(*S)[0], (*S)[1], *C});
  else if (T->isInteger())
    R = F.B.CreateAdd(integerProduct(F, I, *T, (*S)[0], (*S)[1]), *C);
  else
    return F.error(I, "this form is not supported yet");
  return F.write(I, I.Operands[0], R, RT);
}

llvm::Error unary(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  bool Float = T->K == PtxType::Kind::Float && T->Lanes == 1 && T->Bits >= 32;
  Value *R = nullptr;
  if (I.Opcode == "not")
    R = F.B.CreateNot(*A);
  else if (I.Opcode == "neg")
    R = Float ? F.B.CreateFNeg(*A) : F.B.CreateNeg(*A);
  else if (I.Opcode == "abs")
    R = Float ? F.B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, *A)
              : F.B.CreateBinaryIntrinsic(llvm::Intrinsic::abs, *A,
                                          F.B.getFalse());
  if (!R)
    return F.error(I, "this form is not supported yet");
  return F.write(I, I.Operands[0], R, *T);
}

llvm::Error shift(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  PtxType U32;
  U32.K = PtxType::Kind::Unsigned;
  auto Amount = F.read(I, I.Operands[2], U32);
  if (!Amount)
    return Amount.takeError();
  // PTX: shift amounts greater than the width give 0 (shl, shr.u) or the
  // sign (shr.s); LLVM's shifts would be poison.
  unsigned W = T->Bits;
  Value *Clamped = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, *Amount,
                                             F.B.getInt32(W));
  Value *Wide = F.B.CreateZExtOrTrunc(Clamped, (*A)->getType());
  Value *R;
  if (I.Opcode == "shl") {
    R = F.B.CreateShl(*A, Wide);
    R = F.B.CreateSelect(F.B.CreateICmpUGE(Clamped, F.B.getInt32(W)),
                         llvm::ConstantInt::get((*A)->getType(), 0), R);
  } else if (T->isSigned()) {
    Value *Capped = F.B.CreateZExtOrTrunc(
        F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, *Amount,
                                  F.B.getInt32(W - 1)),
        (*A)->getType());
    R = F.B.CreateAShr(*A, Capped);
  } else {
    R = F.B.CreateLShr(*A, Wide);
    R = F.B.CreateSelect(F.B.CreateICmpUGE(Clamped, F.B.getInt32(W)),
                         llvm::ConstantInt::get((*A)->getType(), 0), R);
  }
  return F.write(I, I.Operands[0], R, *T);
}

/// The comparison of setp/set: eq, ne, lt, le, gt, ge; lo, ls, hi, hs;
/// equ, neu, ltu, leu, gtu, geu, num, nan.
llvm::Expected<Value *> compare(FunctionTranslator &F, const Instruction &I,
                                PtxType T, Value *A, Value *B) {
  using P = llvm::CmpInst::Predicate;
  std::string Op;
  for (const std::string &M : I.Modifiers)
    if (M == "eq" || M == "ne" || M == "lt" || M == "le" || M == "gt" ||
        M == "ge" || M == "lo" || M == "ls" || M == "hi" || M == "hs" ||
        M == "equ" || M == "neu" || M == "ltu" || M == "leu" || M == "gtu" ||
        M == "geu" || M == "num" || M == "nan") {
      Op = M;
      break;
    }
  if (Op.empty())
    return F.error(I, "needs a comparison operator");
  if (T.K == PtxType::Kind::Float && T.Lanes == 1 && T.Bits >= 32) {
    P Pred = llvm::StringSwitch<P>(Op)
                 .Case("eq", P::FCMP_OEQ)
                 .Case("ne", P::FCMP_ONE)
                 .Case("lt", P::FCMP_OLT)
                 .Case("le", P::FCMP_OLE)
                 .Case("gt", P::FCMP_OGT)
                 .Case("ge", P::FCMP_OGE)
                 .Case("equ", P::FCMP_UEQ)
                 .Case("neu", P::FCMP_UNE)
                 .Case("ltu", P::FCMP_ULT)
                 .Case("leu", P::FCMP_ULE)
                 .Case("gtu", P::FCMP_UGT)
                 .Case("geu", P::FCMP_UGE)
                 .Case("num", P::FCMP_ORD)
                 .Case("nan", P::FCMP_UNO)
                 .Default(P::BAD_FCMP_PREDICATE);
    if (Pred == P::BAD_FCMP_PREDICATE)
      return F.error(I, "." + Op + " does not compare floating-point values");
    return F.B.CreateFCmp(Pred, A, B);
  }
  if (!T.isInteger() && T.K != PtxType::Kind::Pred)
    return F.error(I, "this type is not supported yet");
  bool S = T.isSigned();
  P Pred = llvm::StringSwitch<P>(Op)
               .Case("eq", P::ICMP_EQ)
               .Case("ne", P::ICMP_NE)
               .Case("lt", S ? P::ICMP_SLT : P::ICMP_ULT)
               .Case("le", S ? P::ICMP_SLE : P::ICMP_ULE)
               .Case("gt", S ? P::ICMP_SGT : P::ICMP_UGT)
               .Case("ge", S ? P::ICMP_SGE : P::ICMP_UGE)
               .Case("lo", P::ICMP_ULT)
               .Case("ls", P::ICMP_ULE)
               .Case("hi", P::ICMP_UGT)
               .Case("hs", P::ICMP_UGE)
               .Default(P::BAD_ICMP_PREDICATE);
  if (Pred == P::BAD_ICMP_PREDICATE)
    return F.error(I, "." + Op + " does not compare integers");
  return F.B.CreateICmp(Pred, A, B);
}

llvm::Error setPredicate(FunctionTranslator &F, const Instruction &I) {
  if (I.Operands.size() != 3 && I.Operands.size() != 4)
    return F.error(I, "takes 3 or 4 operands");
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  auto Cmp = compare(F, I, *T, (*S)[0], (*S)[1]);
  if (!Cmp)
    return Cmp.takeError();
  Value *P = *Cmp;
  Value *Q = F.B.CreateNot(P);
  if (I.Operands.size() == 4) {
    // setp.cmp.bool: combine with a third predicate.
    auto C = F.readAs(I, I.Operands[3], F.B.getInt1Ty(), false);
    if (!C)
      return C.takeError();
    auto Combine = [&](Value *X) -> Value * {
      if (I.has("and"))
        return F.B.CreateAnd(X, *C);
      if (I.has("or"))
        return F.B.CreateOr(X, *C);
      return F.B.CreateXor(X, *C);
    };
    P = Combine(P);
    Q = Combine(Q);
  }
  PtxType Pred;
  Pred.K = PtxType::Kind::Pred;
  Pred.Bits = 1;
  const Operand &Dst = I.Operands[0];
  if (Dst.K == Operand::Kind::Pair) {
    if (auto E = F.write(I, Dst.Elements[0], P, Pred))
      return E;
    return F.write(I, Dst.Elements[1], Q, Pred);
  }
  return F.write(I, Dst, P, Pred);
}

llvm::Error selectValue(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  auto C = F.readAs(I, I.Operands[3], F.B.getInt1Ty(), false);
  if (!C)
    return C.takeError();
  return F.write(I, I.Operands[0], F.B.CreateSelect(*C, (*S)[0], (*S)[1]), *T);
}

} // namespace

void addArithmeticOps(OpTable &T) {
  for (const char *Op : {"add", "sub", "mul", "min", "max", "and", "or", "xor"})
    T[Op] = binary;
  T["mad"] = multiplyAdd;
  T["fma"] = multiplyAdd;
  for (const char *Op : {"not", "neg", "abs"})
    T[Op] = unary;
  T["shl"] = shift;
  T["shr"] = shift;
  T["setp"] = setPredicate;
  T["selp"] = selectValue;
}

} // namespace cucpu::ptx

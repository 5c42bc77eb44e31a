//===- ArithCompare.cpp - PTX instructions: comparison and selection ------===//
//
// setp and set (every comparison operator, the .and/.or/.xor combination
// with a predicate, .ftz, and the 16-bit and packed floating-point forms),
// selp and slct.
//
//===----------------------------------------------------------------------===//

#include "ArithCommon.h"

#include "llvm/ADT/StringSwitch.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;
using namespace arith;

/// The comparison operator among \p I's modifiers, or "".
std::string comparisonOf(const Instruction &I) {
  for (const std::string &M : I.Modifiers)
    if (llvm::StringSwitch<bool>(M)
            .Cases("eq", "ne", "lt", "le", "gt", "ge", true)
            .Cases("lo", "ls", "hi", "hs", true)
            .Cases("equ", "neu", "ltu", "leu", "gtu", "geu", true)
            .Cases("num", "nan", true)
            .Default(false))
      return M;
  return "";
}

/// The .and/.or/.xor of setp and set, or "".
std::string combinationOf(const Instruction &I) {
  for (const std::string &M : I.Modifiers)
    if (M == "and" || M == "or" || M == "xor")
      return M;
  return "";
}

/// Compares \p A and \p B, of PTX type \p T (float values for the 16-bit
/// formats, already widened), by \p Op.
llvm::Expected<Value *> compare(FunctionTranslator &F, const Instruction &I,
                                PtxType T, llvm::StringRef Op, Value *A,
                                Value *B) {
  using P = llvm::CmpInst::Predicate;
  if (T.isFloat()) {
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
    return F.error(I, "cannot compare this type");
  bool S = T.isSigned();
  bool Unsigned = Op == "lo" || Op == "ls" || Op == "hi" || Op == "hs";
  bool Ordered = T.K == PtxType::Kind::Signed ||
                 T.K == PtxType::Kind::Unsigned ||
                 (Unsigned && T.K == PtxType::Kind::Bits);
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
  if (!Ordered && Pred != P::ICMP_EQ && Pred != P::ICMP_NE)
    return F.error(I, "." + Op + " needs a signed or unsigned type, not ." +
                          (T.K == PtxType::Kind::Pred ? "pred" : "bN"));
  if (Unsigned && S)
    return F.error(I, "." + Op + " compares unsigned integers");
  return F.B.CreateICmp(Pred, A, B);
}

/// The comparisons of operands 1 and 2 of \p I by type \p T: one for
/// scalars, one per lane for .f16x2/.bf16x2.
llvm::Expected<std::vector<Value *>>
comparisons(FunctionTranslator &F, const Instruction &I, PtxType T) {
  std::string Op = comparisonOf(I);
  if (Op.empty())
    return F.error(I, "needs a comparison operator");
  bool Ftz = I.has("ftz");
  if (Ftz && !(T.K == PtxType::Kind::Float && T.Bits <= 32))
    return F.error(I, ".ftz is defined for .f32, .f16 and .f16x2 alone");
  auto S = sources(F, I, T, 1, 2);
  if (!S)
    return S.takeError();
  std::vector<Value *> Out;
  for (unsigned K = 0; K < T.Lanes; ++K) {
    Value *A = (*S)[0], *B = (*S)[1];
    if (T.isFloat() && T.Bits == 16) {
      if (T.Lanes == 2) {
        A = lane(F, A, K);
        B = lane(F, B, K);
      }
      if (Ftz) {
        A = flushSubnormal(F, A, T);
        B = flushSubnormal(F, B, T);
      }
      A = widen16(F, A, T);
      B = widen16(F, B, T);
    } else if (Ftz) {
      A = flushSubnormal(F, A, T);
      B = flushSubnormal(F, B, T);
    }
    auto C = compare(F, I, T, Op, A, B);
    if (!C)
      return C.takeError();
    Out.push_back(*C);
  }
  return Out;
}

/// \p P combined with operand \p Index of \p I (a predicate, maybe
/// negated) by .and/.or/.xor, if \p I has one.
llvm::Expected<Value *> combine(FunctionTranslator &F, const Instruction &I,
                                Value *P, size_t Index) {
  std::string Combination = combinationOf(I);
  if (Combination.empty())
    return P;
  if (I.Operands.size() <= Index)
    return F.error(I, "." + Combination + " needs a predicate operand");
  auto C = F.readAs(I, I.Operands[Index], F.B.getInt1Ty(), false);
  if (!C)
    return C.takeError();
  if (Combination == "and")
    return F.B.CreateAnd(P, *C);
  if (Combination == "or")
    return F.B.CreateOr(P, *C);
  return F.B.CreateXor(P, *C);
}

llvm::Error setPredicate(FunctionTranslator &F, const Instruction &I) {
  bool Combined = !combinationOf(I).empty();
  if (auto E = F.expectOperands(I, Combined ? 4 : 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto Cmp = comparisons(F, I, *T);
  if (!Cmp)
    return Cmp.takeError();
  const Operand &Dst = I.Operands[0];
  if (T->Lanes == 2) {
    // setp.f16x2 p|q: p compares the low halves, q the high halves.
    if (Dst.K != Operand::Kind::Pair)
      return F.error(I, "writes two predicates, p|q");
    for (unsigned K = 0; K < 2; ++K) {
      auto P = combine(F, I, (*Cmp)[K], 3);
      if (!P)
        return P.takeError();
      if (auto E = F.write(I, Dst.Elements[K], *P, predType()))
        return E;
    }
    return llvm::Error::success();
  }
  auto P = combine(F, I, (*Cmp)[0], 3);
  if (!P)
    return P.takeError();
  if (Dst.K != Operand::Kind::Pair)
    return F.write(I, Dst, *P, predType());
  // p|q: q is the complement of the comparison, combined likewise.
  auto Q = combine(F, I, F.B.CreateNot((*Cmp)[0]), 3);
  if (!Q)
    return Q.takeError();
  if (auto E = F.write(I, Dst.Elements[0], *P, predType()))
    return E;
  return F.write(I, Dst.Elements[1], *Q, predType());
}

/// The type modifiers of \p I, in order.
std::vector<PtxType> typesOf(const Instruction &I) {
  std::vector<PtxType> Out;
  for (const std::string &M : I.Modifiers)
    if (auto T = PtxType::parse(M))
      Out.push_back(*T);
  return Out;
}

/// set.cmp.dtype.stype d, a, b: all ones (integers) or 1.0 (floats) where
/// the comparison holds, else 0; per lane for packed types.
llvm::Error setValue(FunctionTranslator &F, const Instruction &I) {
  bool Combined = !combinationOf(I).empty();
  if (auto E = F.expectOperands(I, Combined ? 4 : 3))
    return E;
  std::vector<PtxType> Types = typesOf(I);
  if (Types.size() != 2)
    return F.error(I, "takes a destination and a source type");
  PtxType D = Types[0], S = Types[1];
  if (S.Lanes == 2 && D.Lanes != 2 && !(D.isInteger() && D.Bits == 32))
    return F.error(I, "of a packed type writes .f16x2, .bf16x2, .u32 or .s32");
  if (S.Lanes == 1 && D.Lanes != 1)
    return F.error(I, "of a scalar type writes a scalar");
  bool DstOk = (D.isInteger() && D.Bits == 32 && D.K != PtxType::Kind::Bits) ||
               (D.K == PtxType::Kind::Float && D.Bits == 32) ||
               (D.isFloat() && D.Bits == 16);
  if (!DstOk)
    return F.error(I, "writes .u32, .s32, .f32, .f16 or .bf16 (or packed)");
  auto Cmp = comparisons(F, I, S);
  if (!Cmp)
    return Cmp.takeError();
  std::vector<Value *> Lanes;
  for (Value *C : *Cmp) {
    auto P = combine(F, I, C, 3);
    if (!P)
      return P.takeError();
    Lanes.push_back(*P);
  }
  Value *R;
  if (S.Lanes == 2) {
    // Lanes of 16 bits: 0xffff or 1.0 in the destination's format.
    uint16_t True = D.isInteger()                  ? 0xffff
                    : D.K == PtxType::Kind::BFloat ? 0x3f80
                                                   : 0x3c00;
    Value *L[2];
    for (unsigned K = 0; K < 2; ++K)
      L[K] = F.B.CreateSelect(Lanes[K], F.B.getInt16(True), F.B.getInt16(0));
    R = pack(F, L[0], L[1]);
  } else if (D.isInteger()) {
    R = F.B.CreateSExt(Lanes[0], F.B.getInt32Ty());
  } else if (D.Bits == 16) {
    R = F.B.CreateSelect(
        Lanes[0], F.B.getInt16(D.K == PtxType::Kind::BFloat ? 0x3f80 : 0x3c00),
        F.B.getInt16(0));
  } else {
    R = F.B.CreateSelect(Lanes[0], llvm::ConstantFP::get(F.B.getFloatTy(), 1.0),
                         llvm::ConstantFP::get(F.B.getFloatTy(), 0.0));
  }
  return F.write(I, I.Operands[0], R, D);
}

llvm::Error selectValue(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (T->K == PtxType::Kind::Pred || T->Lanes != 1 || T->Bits < 16)
    return F.error(I, "takes a 16-, 32- or 64-bit type");
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  auto C = F.readAs(I, I.Operands[3], F.B.getInt1Ty(), false);
  if (!C)
    return C.takeError();
  return F.write(I, I.Operands[0], F.B.CreateSelect(*C, (*S)[0], (*S)[1]), *T);
}

/// slct.dtype.s32 d, a, b, c and slct{.ftz}.dtype.f32: a if c >= 0, else b.
llvm::Error selectBySign(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  std::vector<PtxType> Types = typesOf(I);
  if (Types.size() != 2)
    return F.error(I, "takes a destination and a comparand type");
  PtxType D = Types[0], C = Types[1];
  if (D.K == PtxType::Kind::Pred || D.Lanes != 1 || D.Bits < 16 ||
      (D.isFloat() && D.Bits == 16))
    return F.error(I, "takes a 16-, 32- or 64-bit destination type");
  bool FloatC = C.K == PtxType::Kind::Float && C.Bits == 32 && C.Lanes == 1;
  if (!FloatC && !(C.isSigned() && C.Bits == 32))
    return F.error(I, "compares an .s32 or .f32 operand");
  if (I.has("ftz") && !FloatC)
    return F.error(I, ".ftz is defined for an .f32 comparand alone");
  auto S = sources(F, I, D, 1, 2);
  if (!S)
    return S.takeError();
  auto V = F.read(I, I.Operands[3], C);
  if (!V)
    return V.takeError();
  Value *Cond;
  if (FloatC) {
    Value *X = I.has("ftz") ? flushSubnormal(F, *V, C) : *V;
    Cond = F.B.CreateFCmpOGE(X, llvm::ConstantFP::get(X->getType(), 0.0));
  } else {
    Cond = F.B.CreateICmpSGE(*V, F.B.getInt32(0));
  }
  return F.write(I, I.Operands[0], F.B.CreateSelect(Cond, (*S)[0], (*S)[1]), D);
}

} // namespace

namespace arith {

void addCompareOps(OpTable &T) {
  T["setp"] = setPredicate;
  T["set"] = setValue;
  T["selp"] = selectValue;
  T["slct"] = selectBySign;
}

} // namespace arith

} // namespace cucpu::ptx

//===- Conversion.cpp - PTX instructions: mov, cvta, isspacep, cvt --------===//
//
// Moves and address conversions; cvt itself is in ConvertCvt.cpp.
//
//===----------------------------------------------------------------------===//

#include "Convert.h"
#include "Ops.h"

#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

namespace {

/// The lanes of a vector register (.reg .v2/.v4), or null if \p Op is not
/// one.
const LocalSymbol *vectorRegister(FunctionTranslator &F, const Operand &Op) {
  if (Op.K != Operand::Kind::Register)
    return nullptr;
  const LocalSymbol *L = F.lookup(Op.Name);
  if (!L || L->StateSpace != Space::Reg || !L->Type->isVectorTy())
    return nullptr;
  return L;
}

/// mov.v2/.v4.type d, a: lane by lane, each side a vector register or a
/// braced list of scalar registers.
llvm::Error moveVector(FunctionTranslator &F, const Instruction &I, PtxType T,
                       unsigned Lanes) {
  const Operand &Dst = I.Operands[0], &Src = I.Operands[1];
  llvm::Type *Elem = T.irType(F.Ctx);
  std::vector<llvm::Value *> Values;
  if (Src.K == Operand::Kind::Vector) {
    if (Src.Elements.size() != Lanes)
      return F.error(I, "the source list needs one register per lane");
    for (const Operand &E : Src.Elements) {
      auto V = F.read(I, E, T);
      if (!V)
        return V.takeError();
      Values.push_back(*V);
    }
  } else if (const LocalSymbol *L = vectorRegister(F, Src)) {
    auto *VTy = llvm::cast<llvm::FixedVectorType>(L->Type);
    if (VTy->getNumElements() != Lanes)
      return F.error(I, "the vector register " + Src.Name + " has " +
                            llvm::Twine(VTy->getNumElements()) + " lanes");
    llvm::Value *Whole = F.B.CreateLoad(L->Type, L->Storage, Src.Name);
    for (unsigned K = 0; K < Lanes; ++K)
      Values.push_back(F.convertBits(F.B.CreateExtractElement(Whole, K), Elem,
                                     T.isSigned()));
  } else {
    return F.error(I, "the source must be a vector register or a list");
  }
  if (Dst.K == Operand::Kind::Vector) {
    if (Dst.Elements.size() != Lanes)
      return F.error(I, "the destination list needs one register per lane");
    for (unsigned K = 0; K < Lanes; ++K)
      if (auto E = F.write(I, Dst.Elements[K], Values[K], T))
        return E;
    return llvm::Error::success();
  }
  const LocalSymbol *L = vectorRegister(F, Dst);
  if (!L)
    return F.error(I, "the destination must be a vector register or a list");
  auto *VTy = llvm::cast<llvm::FixedVectorType>(L->Type);
  if (VTy->getNumElements() != Lanes)
    return F.error(I, "the vector register " + Dst.Name + " has " +
                          llvm::Twine(VTy->getNumElements()) + " lanes");
  llvm::Value *Whole = llvm::PoisonValue::get(VTy);
  for (unsigned K = 0; K < Lanes; ++K)
    Whole = F.B.CreateInsertElement(
        Whole, F.convertBits(Values[K], VTy->getElementType(), T.isSigned()),
        K);
  F.B.CreateStore(Whole, L->Storage);
  return llvm::Error::success();
}

llvm::Error move(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (I.has("v2") || I.has("v4") || I.has("v8"))
    return moveVector(F, I, *T, I.has("v2") ? 2 : I.has("v4") ? 4 : 8);
  if (vectorRegister(F, I.Operands[0]) || vectorRegister(F, I.Operands[1]))
    return F.error(I, "moves a vector register only with .v2 or .v4");
  const Operand &Dst = I.Operands[0], &Src = I.Operands[1];
  // mov.b64 %rd, {%r1, %r2} packs; mov.b64 {%r1, %r2}, %rd unpacks.
  if (Src.K == Operand::Kind::Vector || Dst.K == Operand::Kind::Vector) {
    const Operand &Vec = Src.K == Operand::Kind::Vector ? Src : Dst;
    unsigned N = Vec.Elements.size();
    if (N == 0 || T->width() % N)
      return F.error(I, "cannot split the value into the vector's elements");
    PtxType Part;
    Part.K = PtxType::Kind::Bits;
    Part.Bits = T->width() / N;
    llvm::Type *WholeTy = F.B.getIntNTy(T->width());
    if (Src.K == Operand::Kind::Vector) {
      llvm::Value *Whole = llvm::ConstantInt::get(WholeTy, 0);
      for (unsigned K = 0; K < N; ++K) {
        auto V = F.read(I, Vec.Elements[K], Part);
        if (!V)
          return V.takeError();
        llvm::Value *Wide = F.B.CreateZExt(*V, WholeTy);
        Whole = F.B.CreateOr(Whole, F.B.CreateShl(Wide, K * Part.Bits));
      }
      return F.write(I, Dst, Whole, *T);
    }
    auto Whole = F.readAs(I, Src, WholeTy, false);
    if (!Whole)
      return Whole.takeError();
    for (unsigned K = 0; K < N; ++K) {
      llvm::Value *V = F.B.CreateTrunc(F.B.CreateLShr(*Whole, K * Part.Bits),
                                       F.B.getIntNTy(Part.Bits));
      if (auto E = F.write(I, Vec.Elements[K], V, Part))
        return E;
    }
    return llvm::Error::success();
  }
  auto V = F.read(I, Src, *T);
  if (!V)
    return V.takeError();
  return F.write(I, Dst, *V, *T);
}

/// cvta.space: a state-space address to a generic one; cvta.to.space: back.
/// Global, constant, local and parameter addresses are the CPU addresses
/// themselves; a .shared address is an offset into the shared window.
llvm::Error convertAddress(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  Space S = FunctionTranslator::spaceOf(I);
  auto V = F.read(I, I.Operands[1], *T);
  if (!V)
    return V.takeError();
  llvm::Value *Result = *V;
  if (S == Space::Shared) {
    llvm::Value *Window = F.windowAddress();
    llvm::Value *Wide = F.B.CreateZExt(*V, F.B.getInt64Ty());
    Result =
        I.has("to") ? F.B.CreateSub(Wide, Window) : F.B.CreateAdd(Wide, Window);
  } else if (S == Space::None) {
    return F.error(I, "needs a state space (.global, .shared, .local, "
                      ".const or .param)");
  }
  return F.write(I, I.Operands[0], Result, *T);
}

/// isspacep.space p, a: whether the generic address a is in the state
/// space. Global, constant, local and parameter addresses are all CPU
/// addresses here, told apart only from the shared window: an address
/// inside the block's shared memory (its static and dynamic bytes) is
/// .shared, any other one .global (.const, .local and .param answer as
/// .global does). A cluster is one block, so .shared::cluster is .shared.
llvm::Error isSpace(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  Space S = FunctionTranslator::spaceOf(I);
  if (S == Space::None)
    return F.error(I, "needs a state space (.global, .shared, .local, "
                      ".const or .param)");
  auto A = F.readAs(I, I.Operands[1], F.B.getInt64Ty(), false);
  if (!A)
    return A.takeError();
  llvm::Value *Offset = F.B.CreateSub(*A, F.windowAddress());
  llvm::FunctionCallee SharedSize = F.declare(
      SharedSizeName, llvm::FunctionType::get(F.B.getInt32Ty(), false));
  llvm::Value *InShared = F.B.CreateICmpULT(
      Offset, F.B.CreateZExt(F.B.CreateCall(SharedSize), F.B.getInt64Ty()));
  llvm::Value *Result = S == Space::Shared ? InShared : F.B.CreateNot(InShared);
  PtxType Pred;
  Pred.K = PtxType::Kind::Pred;
  Pred.Bits = 1;
  return F.write(I, I.Operands[0], Result, Pred);
}

} // namespace

void addConversionOps(OpTable &T) {
  T["mov"] = move;
  T["cvta"] = convertAddress;
  T["isspacep"] = isSpace;
  T["cvt"] = convertValue;
}

} // namespace cucpu::ptx

//===- Memory.cpp - PTX instructions: ld, st, ldu, prefetch ---------------===//
//
// Loads and stores of every state space and vector width. Addresses become
// generic pointers (FunctionTranslator::pointer); .volatile accesses stay
// volatile, so warp-synchronous code keeps its loads and stores, and
// .relaxed/.acquire/.release accesses are atomic in their order.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

/// .v2/.v4/.v8 of \p I, or 1.
unsigned vectorWidth(const Instruction &I) {
  for (const std::string &M : I.Modifiers)
    if (M == "v2" || M == "v4" || M == "v8")
      return M[1] - '0';
  return 1;
}

/// The memory order of a .relaxed/.acquire/.release access.
llvm::AtomicOrdering ordering(const Instruction &I) {
  if (I.has("acquire"))
    return llvm::AtomicOrdering::Acquire;
  if (I.has("release"))
    return llvm::AtomicOrdering::Release;
  if (I.has("relaxed"))
    return llvm::AtomicOrdering::Monotonic;
  return llvm::AtomicOrdering::NotAtomic;
}

/// The registers of a data operand: one, or the elements of {a, b, ...}.
llvm::Expected<std::vector<const Operand *>> dataOperands(FunctionTranslator &F,
                                                          const Instruction &I,
                                                          const Operand &Op,
                                                          unsigned Width) {
  std::vector<const Operand *> Out;
  if (Width == 1) {
    if (Op.K == Operand::Kind::Vector)
      return F.error(I, "a vector operand needs .v2 or .v4");
    Out.push_back(&Op);
    return Out;
  }
  if (Op.K != Operand::Kind::Vector || Op.Elements.size() != Width)
    return F.error(I,
                   llvm::formatv("expects a vector of {0} registers", Width));
  for (const Operand &E : Op.Elements)
    Out.push_back(&E);
  return Out;
}

llvm::Error load(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  unsigned Width = vectorWidth(I);
  auto Dsts = dataOperands(F, I, I.Operands[0], Width);
  if (!Dsts)
    return Dsts.takeError();
  auto P = F.pointer(I, I.Operands[1], FunctionTranslator::spaceOf(I));
  if (!P)
    return P.takeError();
  llvm::Type *Ty = T->irType(F.Ctx);
  unsigned Bytes = T->width() / 8;
  bool Volatile = I.has("volatile");
  llvm::AtomicOrdering Order = ordering(I);
  for (unsigned K = 0; K < Width; ++K) {
    llvm::Value *Addr = F.B.CreateConstGEP1_64(F.B.getInt8Ty(), *P, K * Bytes);
    llvm::LoadInst *L = F.B.CreateLoad(Ty, Addr, Volatile);
    L->setAlignment(llvm::Align(K == 0 ? Bytes * Width : Bytes));
    if (Order != llvm::AtomicOrdering::NotAtomic && Width == 1) {
      if (Ty->isFloatingPointTy() || T->width() > 64)
        return F.error(I, "atomic loads need an integer type");
      L->setAtomic(Order);
    }
    if (auto E = F.write(I, *(*Dsts)[K], L, *T))
      return E;
  }
  return llvm::Error::success();
}

llvm::Error store(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  unsigned Width = vectorWidth(I);
  auto Srcs = dataOperands(F, I, I.Operands[1], Width);
  if (!Srcs)
    return Srcs.takeError();
  auto P = F.pointer(I, I.Operands[0], FunctionTranslator::spaceOf(I));
  if (!P)
    return P.takeError();
  unsigned Bytes = T->width() / 8;
  bool Volatile = I.has("volatile");
  llvm::AtomicOrdering Order = ordering(I);
  for (unsigned K = 0; K < Width; ++K) {
    auto V = F.read(I, *(*Srcs)[K], *T);
    if (!V)
      return V.takeError();
    llvm::Value *Addr = F.B.CreateConstGEP1_64(F.B.getInt8Ty(), *P, K * Bytes);
    llvm::StoreInst *S = F.B.CreateStore(*V, Addr, Volatile);
    S->setAlignment(llvm::Align(K == 0 ? Bytes * Width : Bytes));
    if (Order != llvm::AtomicOrdering::NotAtomic && Width == 1) {
      if ((*V)->getType()->isFloatingPointTy() || T->width() > 64)
        return F.error(I, "atomic stores need an integer type");
      S->setAtomic(Order);
    }
  }
  return llvm::Error::success();
}

/// prefetch, prefetchu: hints only.
llvm::Error prefetch(FunctionTranslator &, const Instruction &) {
  return llvm::Error::success();
}

} // namespace

void addMemoryOps(OpTable &T) {
  T["ld"] = load;
  T["ldu"] = load;
  T["st"] = store;
  T["prefetch"] = prefetch;
  T["prefetchu"] = prefetch;
}

} // namespace cucpu::ptx

//===- Memory.cpp - PTX instructions: ld, st, ldu, prefetch, cp.async -----===//
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

/// cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size |
/// ignore-src}{, cache-policy}: copies cp-size bytes (4, 8 or 16) from
/// global to shared memory, the bytes past src-size (all of them when the
/// ignore-src predicate is true) zeros. A GPU completes it later, when the
/// thread waits for its group (cp.async.commit_group, wait_group,
/// wait_all); here the copy is done at once, so the groups have nothing
/// left to wait for. As on a GPU, other threads see the data after a
/// barrier.
llvm::Error copyAsync(FunctionTranslator &F, const Instruction &I) {
  if (I.has("commit_group") || I.has("wait_group") || I.has("wait_all"))
    return llvm::Error::success();
  if (!I.has("ca") && !I.has("cg"))
    return F.error(I, "only the cp.async.ca and cp.async.cg copies are "
                      "supported (not bulk, tensor or mbarrier forms)");
  size_t Count = I.Operands.size();
  if (I.has("L2::cache_hint") && Count > 3)
    --Count; // The cache policy: a hint.
  if (Count < 3 || Count > 4)
    return F.error(I, "takes [dst], [src], cp-size and an optional "
                      "src-size or ignore-src predicate");
  const Operand &Size = I.Operands[2];
  if (Size.K != Operand::Kind::Integer ||
      (Size.Value != 4 && Size.Value != 8 && Size.Value != 16))
    return F.error(I, "cp-size must be 4, 8 or 16");
  auto Dst = F.pointer(I, I.Operands[0], Space::Shared);
  if (!Dst)
    return Dst.takeError();
  auto Src = F.pointer(I, I.Operands[1], Space::Global);
  if (!Src)
    return Src.takeError();
  llvm::Value *Full = F.B.getInt64(Size.Value);
  llvm::Value *Copied = Full;
  if (Count == 4) {
    const Operand &Extra = I.Operands[3];
    const LocalSymbol *L =
        Extra.K == Operand::Kind::Register ? F.lookup(Extra.Name) : nullptr;
    if (L && L->Ptx.K == PtxType::Kind::Pred) {
      auto Ignore = F.read(I, Extra, L->Ptx);
      if (!Ignore)
        return Ignore.takeError();
      Copied = F.B.CreateSelect(*Ignore, F.B.getInt64(0), Full);
    } else {
      auto SrcSize = F.readAs(I, Extra, F.B.getInt64Ty(), /*Signed=*/false);
      if (!SrcSize)
        return SrcSize.takeError();
      Copied = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, *SrcSize, Full);
    }
  }
  llvm::Align Align(Size.Value);
  F.B.CreateMemCpy(*Dst, Align, *Src, Align, Copied);
  llvm::Value *Tail = F.B.CreateGEP(F.B.getInt8Ty(), *Dst, Copied);
  F.B.CreateMemSet(Tail, F.B.getInt8(0), F.B.CreateSub(Full, Copied),
                   llvm::MaybeAlign(1));
  return llvm::Error::success();
}

/// createpolicy: an L2 cache eviction policy for the .L2::cache_hint
/// forms of loads, stores and copies. Caches take no hints here: the policy
/// is an opaque 64-bit value, 0.
llvm::Error createPolicy(FunctionTranslator &F, const Instruction &I) {
  if (I.Operands.empty())
    return F.error(I, "needs a destination register");
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (T->width() != 64)
    return F.error(I, "a cache policy is .b64");
  return F.write(I, I.Operands[0], F.B.getInt64(0), *T);
}

} // namespace

void addMemoryOps(OpTable &T) {
  T["cp"] = copyAsync;
  T["createpolicy"] = createPolicy;
  T["ld"] = load;
  T["ldu"] = load;
  T["st"] = store;
  T["prefetch"] = prefetch;
  T["prefetchu"] = prefetch;
}

} // namespace cucpu::ptx

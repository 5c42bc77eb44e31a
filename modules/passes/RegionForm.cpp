//===- RegionForm.cpp - A work function's regions as metadata -------------===//
#include "RegionForm.h"

#include "MetadataFields.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace cucpu::modules;
using namespace cucpu::modules::blockfn;

namespace {

constexpr const char *FormMetadata = "cucpu.region.form";
constexpr const char *SyncMetadata = "cucpu.sync.point";
constexpr const char *UniformMetadata = "cucpu.uniform.slot";

enum FormOperand : unsigned {
  FrameBytesOperand,
  PresentSlotOperand,
  WarpModeOperand,
  LoopBarriersOperand,
  LockstepsOperand,
  UniformExitsOperand,
  FrameScopesOperand,
  FormOperands
};

enum SyncOperand : unsigned {
  IdOperand,
  KindOperand,
  ModeOperand,
  SlotOperand,
  SnapshotOperand,
  SyncOperands
};

/// Puts sync point \p S's metadata on its exit block's branch.
void markExit(const SyncPoint &S) {
  LLVMContext &Ctx = S.Exit->getContext();
  S.Exit->getTerminator()->setMetadata(
      SyncMetadata,
      MDNode::get(Ctx, {numberMD(Ctx, S.Id, 32),
                        numberMD(Ctx, static_cast<uint32_t>(S.Kind), 32),
                        numberMD(Ctx, static_cast<uint32_t>(S.Mode), 32),
                        numberMD(Ctx, S.Slot, 64),
                        numberMD(Ctx, S.SnapshotSlot, 64)}));
}

/// Marks \p L as the load of a value kept once per block at \p Offset.
void markUniformLoad(LoadInst &L, uint64_t Offset) {
  LLVMContext &Ctx = L.getContext();
  L.setMetadata(UniformMetadata, MDNode::get(Ctx, numberMD(Ctx, Offset, 64)));
}

} // namespace

SmallVector<BasicBlock *, 16>
RegionForm::regionBlocks(BasicBlock *Start) const {
  SmallVector<BasicBlock *, 16> Blocks{Start};
  SmallPtrSet<BasicBlock *, 16> Seen{Start};
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    BasicBlock *BB = Blocks[I];
    if (ExitBlocks.count(BB))
      continue; // The region ends at the split.
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Blocks.push_back(S);
  }
  return Blocks;
}

MDNode *RegionForm::frameScopes(LLVMContext &Ctx) {
  if (!FrameScopeList) {
    MDBuilder MDB(Ctx);
    MDNode *Domain = MDB.createAnonymousAliasScopeDomain("cucpu.frame");
    FrameScopeList = MDNode::get(
        Ctx, {MDB.createAnonymousAliasScope(Domain, "cucpu.frame.own")});
  }
  return FrameScopeList;
}

LoadInst *RegionForm::frameLoad(IRBuilder<> &B, Type *Ty, Value *Addr, Align A,
                                const Twine &Name) {
  LoadInst *L = B.CreateAlignedLoad(Ty, Addr, A, Name);
  L->setMetadata(LLVMContext::MD_alias_scope, frameScopes(B.getContext()));
  return L;
}

StoreInst *RegionForm::frameStore(IRBuilder<> &B, Value *V, Value *Addr,
                                  Align A) {
  StoreInst *S = B.CreateAlignedStore(V, Addr, A);
  S->setMetadata(LLVMContext::MD_alias_scope, frameScopes(B.getContext()));
  return S;
}

void RegionForm::write(Function &W) const {
  LLVMContext &Ctx = W.getContext();
  SmallVector<Metadata *, 8> Exits;
  for (bool Uniform : UniformExit)
    Exits.push_back(numberMD(Ctx, Uniform, 1));
  Metadata *Ops[FormOperands] = {numberMD(Ctx, Frame.Bytes, 64),
                                 numberMD(Ctx, PresentSlot, 64),
                                 numberMD(Ctx, WarpMode, 1),
                                 numberMD(Ctx, LoopBarrierCount, 32),
                                 numberMD(Ctx, LockstepCount, 32),
                                 MDNode::get(Ctx, Exits),
                                 FrameScopeList
                                     ? static_cast<Metadata *>(FrameScopeList)
                                     : MDNode::get(Ctx, {})};
  W.setMetadata(FormMetadata, MDNode::get(Ctx, Ops));
  for (const SyncPoint &S : Syncs)
    markExit(S);
  for (const auto &[L, Offset] : UniformLoads)
    markUniformLoad(*L, Offset);
}

bool RegionForm::isRegionForm(const Function &W) {
  return W.getMetadata(FormMetadata) != nullptr;
}

std::optional<std::string> RegionForm::read(Function &W, RegionForm &Out) {
  Out = RegionForm();
  MDNode *Form = W.getMetadata(FormMetadata);
  if (!Form || Form->getNumOperands() != FormOperands)
    return std::string("it has no region form (!cucpu.region.form)");
  std::optional<uint64_t> Bytes = numberAt(*Form, FrameBytesOperand),
                          Present = numberAt(*Form, PresentSlotOperand),
                          Warp = numberAt(*Form, WarpModeOperand),
                          Loops = numberAt(*Form, LoopBarriersOperand),
                          Locksteps = numberAt(*Form, LockstepsOperand);
  auto *Exits = dyn_cast<MDNode>(Form->getOperand(UniformExitsOperand));
  auto *Scopes = dyn_cast<MDNode>(Form->getOperand(FrameScopesOperand));
  if (!Bytes || !Present || !Warp || !Loops || !Locksteps || !Exits || !Scopes)
    return std::string("its !cucpu.region.form is malformed");
  Out.Frame.Bytes = *Bytes;
  Out.PresentSlot = *Present;
  Out.WarpMode = *Warp != 0;
  Out.LoopBarrierCount = static_cast<unsigned>(*Loops);
  Out.LockstepCount = static_cast<unsigned>(*Locksteps);
  if (Out.PresentSlot && Out.PresentSlot >= Out.Frame.Bytes)
    return std::string("its present masks are past the frame");
  Out.FrameScopeList = Scopes->getNumOperands() ? Scopes : nullptr;
  for (unsigned I = 0; I < Exits->getNumOperands(); ++I) {
    std::optional<uint64_t> Uniform = numberAt(*Exits, I);
    if (!Uniform)
      return std::string("its uniform exits are malformed");
    Out.UniformExit.push_back(*Uniform != 0);
  }

  for (BasicBlock &BB : W) {
    Instruction *Term = BB.getTerminator();
    MDNode *Sync = Term ? Term->getMetadata(SyncMetadata) : nullptr;
    if (!Sync)
      continue;
    auto *Br = dyn_cast<BranchInst>(Term);
    std::optional<uint64_t> Id = numberAt(*Sync, IdOperand),
                            Kind = numberAt(*Sync, KindOperand),
                            Mode = numberAt(*Sync, ModeOperand),
                            Slot = numberAt(*Sync, SlotOperand),
                            Snapshot = numberAt(*Sync, SnapshotOperand);
    if (!Br || Br->isConditional() || Sync->getNumOperands() != SyncOperands ||
        !Id || !Kind || !Mode || !Slot || !Snapshot || *Id == 0 ||
        *Kind > static_cast<uint64_t>(SyncKind::Lockstep))
      return formatv("the sync point metadata of block '{0}' is malformed",
                     BB.getName())
          .str();
    if ((*Slot && *Slot >= *Bytes) || (*Snapshot && *Snapshot >= *Bytes))
      return formatv("the sync point of block '{0}' has its arrays past the "
                     "frame",
                     BB.getName())
          .str();
    SyncPoint S;
    S.Id = static_cast<unsigned>(*Id);
    S.Kind = static_cast<SyncKind>(*Kind);
    S.Mode = static_cast<int32_t>(*Mode);
    S.Slot = *Slot;
    S.SnapshotSlot = *Snapshot;
    S.Exit = &BB;
    S.Resume = Br->getSuccessor(0);
    Out.Syncs.push_back(S);
  }
  llvm::sort(Out.Syncs, [](const SyncPoint &A, const SyncPoint &B) {
    return A.Id < B.Id;
  });
  for (unsigned I = 0; I < Out.Syncs.size(); ++I) {
    if (Out.Syncs[I].Id != I + 1)
      return formatv("its sync points are not numbered 1..{0}",
                     Out.Syncs.size())
          .str();
    Out.ExitBlocks[Out.Syncs[I].Exit] = I + 1;
  }
  if (!Out.UniformExit.empty() &&
      Out.UniformExit.size() != Out.Syncs.size() + 1)
    return std::string("its uniform exits do not match its regions");
  if (Out.LoopBarrierCount > Out.Syncs.size() ||
      Out.LockstepCount > Out.Syncs.size())
    return std::string("it counts more loop barriers or lockstep points than "
                       "it has sync points");

  for (Instruction &I : instructions(W))
    if (MDNode *Uniform = I.getMetadata(UniformMetadata)) {
      auto *L = dyn_cast<LoadInst>(&I);
      std::optional<uint64_t> Offset = numberAt(*Uniform, 0);
      if (!L || !Offset || *Offset >= Out.Frame.Bytes)
        return std::string("a !cucpu.uniform.slot is malformed");
      Out.UniformLoads[L] = *Offset;
    }
  return std::nullopt;
}

void RegionForm::erase(Function &W) {
  W.setMetadata(FormMetadata, nullptr);
  for (Instruction &I : instructions(W)) {
    I.setMetadata(SyncMetadata, nullptr);
    I.setMetadata(UniformMetadata, nullptr);
  }
}

//===- RegionFormation.cpp - Sync points and values across them -----------===//
#include "RegionFormation.h"

#include "AbiAccess.h"
#include "LoopBarriers.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;
using namespace cucpu::modules;
using namespace cucpu::modules::blockfn;

//===----------------------------------------------------------------------===//
// Sync points
//===----------------------------------------------------------------------===//

std::optional<std::string> RegionFormation::collectSyncPoints() {
  for (Instruction &I : instructions(W)) {
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? CI->getCalledFunction() : nullptr;
    if (!Callee || !Callee->isDeclaration())
      continue;
    StringRef Name = Callee->getName();
    if (!Name.consume_front("__cucpu_"))
      continue;
    if (Name == "activemask")
      return std::string("it uses __activemask() or a warp function "
                         "without _sync");
    if (Name == "yield")
      return std::string("it waits for other threads (__nanosleep)");
    std::optional<SyncKind> Kind = syncKindOf(*CI);
    if (!Kind)
      continue;
    SyncPoint S;
    S.Call = CI;
    S.Order = Form.Syncs.size();
    S.Kind = *Kind;
    unsigned MaskArg = 1, ModeArg = syncModeOperand(*Kind);
    if (ModeArg) {
      auto *Mode = dyn_cast<ConstantInt>(CI->getArgOperand(ModeArg));
      if (!Mode)
        return std::string("a barrier or warp operation has a variable mode");
      S.Mode = static_cast<int32_t>(Mode->getSExtValue());
    }
    if (S.Kind == SyncKind::Lockstep) {
      // Only the lanes that reach it meet there (the others diverged).
      Form.WarpMode = true;
    } else if (S.warpScope()) {
      // Region formation runs the lanes of a warp together: every lane that
      // has not exited must take part, as a full mask says.
      auto *Mask = dyn_cast<ConstantInt>(CI->getArgOperand(MaskArg));
      if (!Mask || !Mask->isAllOnesValue())
        return std::string("a warp operation has a mask other than "
                           "0xffffffff");
      Form.WarpMode = true;
    }
    Form.Syncs.push_back(S);
  }
  // Loop barriers first: ids 1..LoopBarrierCount (see emitRoundEnd); then
  // lockstep points by number: the lowest id of a warp's lanes is the
  // lockstep point its lanes meet at next (emitWarpLoops).
  auto Rank = [](const SyncPoint &S) {
    return std::pair(S.Kind == SyncKind::LoopBarrier ? 0
                     : S.Kind == SyncKind::Lockstep  ? 1
                                                     : 2,
                     S.Kind == SyncKind::Lockstep ? S.Mode : 0);
  };
  std::stable_sort(Form.Syncs.begin(), Form.Syncs.end(),
                   [&](const SyncPoint &A, const SyncPoint &B) {
                     return Rank(A) < Rank(B);
                   });
  Form.LoopBarrierCount = count_if(Form.Syncs, [](const SyncPoint &S) {
    return S.Kind == SyncKind::LoopBarrier;
  });
  Form.LockstepCount = count_if(Form.Syncs, [](const SyncPoint &S) {
    return S.Kind == SyncKind::Lockstep;
  });
  for (unsigned I = 0; I < Form.Syncs.size(); ++I)
    Form.Syncs[I].Id = I + 1;
  return std::nullopt;
}

Value *RegionFormation::frameAddress(IRBuilder<> &B, uint64_t Offset,
                                     uint64_t Size, Value *Thread) {
  Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
  Value *T = B.CreateZExt(Thread ? Thread : arg(WorkArg::Linear), i64());
  Value *Off = B.CreateAdd(B.CreateMul(N, B.getInt64(Offset), "", true, true),
                           B.CreateMul(T, B.getInt64(Size), "", true, true), "",
                           true, true);
  return B.CreateInBoundsGEP(B.getInt8Ty(), arg(WorkArg::Frame), Off);
}

bool RegionFormation::regionReachesItself(const SyncPoint &S) {
  SmallPtrSet<const Instruction *, 16> SyncCalls;
  for (const SyncPoint &T : Form.Syncs)
    SyncCalls.insert(T.Call);
  // The first sync point's call from \p It to the end of its block.
  auto FirstSync = [&](BasicBlock::iterator It,
                       BasicBlock *BB) -> const Instruction * {
    for (; It != BB->end(); ++It)
      if (SyncCalls.count(&*It))
        return &*It;
    return nullptr;
  };
  BasicBlock *Home = S.Call->getParent();
  if (FirstSync(std::next(S.Call->getIterator()), Home))
    return false;
  SmallVector<BasicBlock *, 16> Work(successors(Home));
  SmallPtrSet<BasicBlock *, 16> Seen(Work.begin(), Work.end());
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (const Instruction *Stop = FirstSync(BB->begin(), BB)) {
      if (Stop == S.Call)
        return true;
      continue;
    }
    for (BasicBlock *Succ : successors(BB))
      if (Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  return false;
}

/// Rewrites the call of \p S into: operands to the frame, the split, results
/// from the frame.
void RegionFormation::lowerSyncPoint(SyncPoint &S, bool ReachesItself) {
  CallInst *CI = S.Call;
  IRBuilder<> B(CI);
  // Element t of array Sub of the sync point's arrays at S.Slot: the arrays
  // are consecutive, each N elements long.
  auto ArrayAt = [&](uint64_t Sub, uint64_t Size) {
    return frameAddress(B, S.Slot + Sub, Size);
  };
  auto Store32 = [&](Value *V, uint64_t Sub) {
    Form.frameStore(B, B.CreateZExtOrTrunc(V, i32()), ArrayAt(Sub, 4),
                    Align(4));
  };
  switch (S.Kind) {
  case SyncKind::LoopBarrier:
  case SyncKind::Barrier:
    break;
  case SyncKind::BarrierReduce:
    // Two arrays: Pred then Result.
    S.Slot = Form.Frame.add(8, 4);
    Store32(CI->getArgOperand(1), 0);
    break;
  case SyncKind::WarpSync:
  case SyncKind::Lockstep:
    break; // Only a meeting point.
  case SyncKind::Shuffle:
    // One array of the lanes' 32-bit values: each lane computes its source
    // itself. When the region after the shuffle can reach it again, a lane
    // that has run that region stores its next value before the warp's
    // later lanes have read this one: the lanes read a copy, made when the
    // warp is dispatched from the shuffle (emitWarpLoops).
    S.Slot = Form.Frame.add(4, 4);
    if (ReachesItself)
      S.SnapshotSlot = Form.Frame.add(4, 4);
    Form.frameStore(B, B.CreateBitOrPointerCast(CI->getArgOperand(2), i32()),
                    ArrayAt(0, 4), Align(4));
    break;
  default:
    // Vote and match: __cucpu_warp_exchange computes them for the warp.
    S.Slot = Form.Frame.add(CucpuWarpArraysBytes, 8);
    Store32(CI->getArgOperand(1), CucpuWarpArraysMask);
    Form.frameStore(B, B.CreateZExtOrTrunc(CI->getArgOperand(2), i64()),
                    ArrayAt(CucpuWarpArraysValue, 8), Align(8));
    break;
  }
  BasicBlock *Before = CI->getParent();
  BasicBlock *After =
      Before->splitBasicBlock(CI->getIterator(), "resume." + Twine(S.Id));
  S.Exit = Before;
  S.Resume = After;
  Form.ExitBlocks[Before] = S.Id;
  ResumeBlocks.insert(After);

  B.SetInsertPoint(CI);
  Value *Result = nullptr;
  if (S.Kind == SyncKind::Shuffle) {
    // Every lane of the warp stored its value before any lane gets here:
    // read the source lane's from the warp's array (or its copy).
    auto [Shuffled, InRange] = emitShuffle(B, S, CI);
    CI->replaceAllUsesWith(Shuffled);
    B.CreateAlignedStore(B.CreateZExt(InRange, i32()), CI->getArgOperand(6),
                         Align(4));
    CI->eraseFromParent();
    return;
  }
  if (S.Kind == SyncKind::BarrierReduce)
    Result = Form.frameLoad(B, i32(), ArrayAt(4, 4), Align(4), "reduced");
  else if (S.Kind == SyncKind::Vote || S.Kind == SyncKind::Match)
    Result = Form.frameLoad(B, i32(), ArrayAt(CucpuWarpArraysResult, 4),
                            Align(4), "warp.result");
  if (S.Kind == SyncKind::Shuffle || S.Kind == SyncKind::Match) {
    Value *PredOut = CI->getArgOperand(S.Kind == SyncKind::Shuffle ? 6 : 4);
    Value *Pred = Form.frameLoad(B, i32(), ArrayAt(CucpuWarpArraysPred, 4),
                                 Align(4), "warp.pred");
    B.CreateAlignedStore(Pred, PredOut, Align(4));
  }
  if (Result)
    CI->replaceAllUsesWith(B.CreateZExtOrTrunc(Result, CI->getType()));
  CI->eraseFromParent();
}

std::pair<Value *, Value *>
RegionFormation::emitShuffle(IRBuilder<> &B, const SyncPoint &S, CallInst *CI) {
  // PTX ISA, shfl.sync: c packs the segment mask (bits 12:8) and the clamp
  // lane (bits 4:0); an index out of range reads the lane's own value,
  // which it reads back from the shuffle's array (rather than keeping it
  // across the split a second time).
  Value *Linear = arg(WorkArg::Linear);
  Value *Own =
      Form.frameLoad(B, i32(), frameAddress(B, S.Slot, 4), Align(4), "own");
  Value *Lane = B.CreateAnd(Linear, 31, "lane");
  Value *Base = B.CreateAnd(Linear, ~31u, "lane0");
  Value *Delta = B.CreateAnd(CI->getArgOperand(3), 31);
  Value *C = CI->getArgOperand(4);
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), 31);
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  Value *MaxLane = B.CreateOr(
      MinLane, B.CreateAnd(B.CreateAnd(C, 31), B.CreateNot(SegMask)));
  Value *Src = nullptr, *InRange = nullptr;
  switch (S.Mode) {
  case 0: // idx
    Src = B.CreateOr(MinLane, B.CreateAnd(Delta, B.CreateNot(SegMask)));
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  case 1: // up
    Src = B.CreateSub(Lane, Delta);
    InRange = B.CreateICmpSGE(Src, MaxLane);
    break;
  case 2: // down
    Src = B.CreateAdd(Lane, Delta);
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  default: // bfly
    Src = B.CreateXor(Lane, Delta);
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  }
  Src = B.CreateSelect(InRange, Src, Lane);
  Value *SrcThread = B.CreateOr(Base, Src, "src");
  // A source lane that did not reach the shuffle (past the block's end, or
  // exited) does not take part: the reader gets 0, as on the GPU (an index
  // out of the segment reads the lane's own value). The lanes that did are
  // the warp's present mask, which every lane has a copy of.
  Value *PresentMask =
      Form.frameLoad(B, i32(), frameAddress(B, Form.PresentSlot, 4), Align(4));
  Value *Present =
      B.CreateICmpNE(B.CreateAnd(B.CreateLShr(PresentMask, Src), B.getInt32(1)),
                     B.getInt32(0));
  uint64_t ReadSlot = S.SnapshotSlot ? S.SnapshotSlot : S.Slot;
  Value *ValueAddr = nullptr;
  if (S.Mode == 2) {
    // Down: lane + delta, where in range, is thread Linear + delta, an
    // address LLVM can load for consecutive lanes as one vector (the frame's
    // slack covers the lanes past the end, which keep their own value).
    ValueAddr = frameAddress(B, ReadSlot, 4, B.CreateAdd(Linear, Delta));
    Present = B.CreateAnd(Present, InRange);
  } else {
    ValueAddr = frameAddress(B, ReadSlot, 4,
                             B.CreateSelect(Present, SrcThread, Linear));
  }
  Value *Theirs = Form.frameLoad(B, i32(), ValueAddr, Align(4), "theirs");
  Value *Absent = B.CreateSelect(InRange, B.getInt32(0), Own);
  Value *Result = B.CreateSelect(Present, Theirs, Absent, "shuffled");
  return {B.CreateBitOrPointerCast(Result, CI->getType()), InRange};
}

//===----------------------------------------------------------------------===//
// Private memory and values across splits
//===----------------------------------------------------------------------===//

std::optional<std::string> RegionFormation::checkAllocas() {
  for (Instruction &I : instructions(W))
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (A->getParent() != &W.getEntryBlock() || !A->isStaticAlloca())
        return std::string("it allocates memory of variable size");
  return std::nullopt;
}

/// Whether \p A is only stored to (or has its lifetime marked).
static bool neverRead(AllocaInst &A) {
  return all_of(A.users(), [&](User *U) {
    if (auto *S = dyn_cast<StoreInst>(U))
      return S->getPointerOperand() == &A && !S->isVolatile();
    auto *I = cast<Instruction>(U);
    return I->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(I);
  });
}

void RegionFormation::allocasToFrame() {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : W.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(A);
  for (AllocaInst *A : Allocas) {
    if (neverRead(*A)) {
      // E.g. a shuffle's unused predicate: its stores would go to the frame.
      for (User *U : make_early_inc_range(A->users()))
        cast<Instruction>(U)->eraseFromParent();
      A->eraseFromParent();
      continue;
    }
    uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
    uint64_t Off = Form.Frame.add(Size, A->getAlign().value());
    Size = alignTo(Size, A->getAlign().value());
    SmallVector<Use *, 8> Uses;
    for (Use &U : A->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *User = cast<Instruction>(U->getUser());
      if (User->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(User)) {
        User->eraseFromParent();
        continue;
      }
      IRBuilder<> B(insertionPointFor(*U));
      U->set(frameAddress(B, Off, Size));
      // A value's slot from spillAtSplits: only its own loads and stores
      // reach it.
      if (SpillSlots.count(A) && isa<LoadInst, StoreInst>(User))
        User->setMetadata(LLVMContext::MD_alias_scope, Form.frameScopes(Ctx));
    }
    A->eraseFromParent();
  }
}

bool RegionFormation::crossesSplit(Instruction &V) {
  BasicBlock *Def = V.getParent();
  for (Use &U : V.uses())
    if (BasicBlock *UB = useBlock(U); UB != Def && reachesThroughSplit(UB, Def))
      return true;
  return false;
}

bool RegionFormation::canRecompute(Value *V) {
  return recomputeHeight(V) <= MaxRecomputeHeight;
}

unsigned RegionFormation::recomputeHeight(Value *V) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return 0;
  auto *I = dyn_cast<Instruction>(V);
  constexpr unsigned Never = MaxRecomputeHeight + 1;
  if (!I)
    return Never;
  if (auto It = RecomputeHeights.find(I); It != RecomputeHeights.end())
    return It->second;
  // Phis never recompute, so the recursion follows no cycle.
  unsigned Height = Never;
  if (auto *L = dyn_cast<LoadInst>(I)) {
    if (isBlockInvariantLoad(*L, W))
      Height = recomputeHeight(L->getPointerOperand()) + 1;
  } else if (isa<GetElementPtrInst, CastInst, BinaryOperator, CmpInst,
                 SelectInst>(I)) {
    Height = 0;
    for (Value *Op : I->operands())
      Height = std::max(Height, recomputeHeight(Op) + 1);
  }
  Height = std::min(Height, Never);
  RecomputeHeights[I] = Height;
  return Height;
}

Value *RegionFormation::recompute(Value *V, Instruction *Before,
                                  DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *Known = Done.lookup(I))
    return Known;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(recompute(Op.get(), Before, Done));
  C->insertBefore(Before);
  C->setName(I->getName() + ".again");
  Done[I] = C;
  return C;
}

void RegionFormation::splitLiveValues() {
  SmallVector<Instruction *, 32> Crossing;
  for (Instruction &I : instructions(W))
    if (!isa<AllocaInst>(I) && !I.getType()->isVoidTy() && crossesSplit(I))
      Crossing.push_back(&I);
  SmallVector<Instruction *, 16> Demote;
  for (Instruction *I : Crossing) {
    if (!canRecompute(I)) {
      Demote.push_back(I);
      continue;
    }
    // Recompute it next to every use outside its own block.
    SmallVector<Use *, 8> Uses;
    for (Use &U : I->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      Instruction *At = insertionPointFor(*U);
      if (At->getParent() == I->getParent())
        continue;
      DenseMap<Value *, Value *> Done;
      U->set(recompute(I, At, Done));
    }
  }
  for (Instruction *I : Demote)
    if (!Divergence->isUniform(I) || !keepUniform(*I))
      spillAtSplits(*I);
}

void RegionFormation::spillAtSplits(Instruction &I) {
  // The blocks I is live into: backwards from its uses, up to its def.
  BasicBlock *Def = I.getParent();
  SmallPtrSet<BasicBlock *, 16> LiveIn;
  SmallVector<BasicBlock *, 16> Work;
  auto Reach = [&](BasicBlock *BB) {
    if (BB != Def && LiveIn.insert(BB).second)
      Work.push_back(BB);
  };
  for (Use &U : I.uses())
    Reach(useBlock(U));
  while (!Work.empty())
    for (BasicBlock *P : predecessors(Work.pop_back_val()))
      Reach(P);

  // A thread that leaves a region at a sync point where I is live stores
  // it (I's definition dominates the exit: every path from the entry to a
  // use passes it); the region after the sync point loads it.
  auto *Slot = new AllocaInst(I.getType(), DL.getAllocaAddrSpace(),
                              I.getName() + ".spill",
                              W.getEntryBlock().getFirstInsertionPt());
  SpillSlots.insert(Slot);
  DenseMap<BasicBlock *, Value *> Loaded;
  SmallVector<const SyncPoint *, 8> Crossed;
  for (const SyncPoint &S : Form.Syncs)
    if (LiveIn.count(S.Resume)) {
      IRBuilder<> B(&*S.Resume->getFirstInsertionPt());
      Loaded[S.Resume] = B.CreateLoad(I.getType(), Slot, I.getName() + ".at");
      Crossed.push_back(&S);
    }
  SSAUpdater SSA;
  SSA.Initialize(I.getType(), I.getName());
  SSA.AddAvailableValue(Def, &I);
  for (auto &[BB, V] : Loaded)
    SSA.AddAvailableValue(BB, V);
  // The value of I in \p BB: I after its def, the reload at its start if
  // it has one, else what SSA says for the block's middle or end.
  auto ValueIn = [&](BasicBlock *BB, bool AtEnd) -> Value * {
    if (BB == Def)
      return &I;
    if (Value *V = Loaded.lookup(BB))
      return V;
    return AtEnd ? SSA.GetValueAtEndOfBlock(BB)
                 : SSA.GetValueInMiddleOfBlock(BB);
  };
  SmallVector<Use *, 8> Uses;
  for (Use &U : I.uses())
    Uses.push_back(&U);
  for (Use *U : Uses) {
    auto *Phi = dyn_cast<PHINode>(U->getUser());
    U->set(Phi ? ValueIn(Phi->getIncomingBlock(*U), /*AtEnd=*/true)
               : ValueIn(cast<Instruction>(U->getUser())->getParent(),
                         /*AtEnd=*/false));
  }
  for (const SyncPoint *S : Crossed) {
    IRBuilder<> B(S->Exit->getTerminator());
    B.CreateStore(ValueIn(S->Exit, /*AtEnd=*/true), Slot);
  }
}

/// The blocks a thread can reach from \p From within one region.
SmallPtrSet<BasicBlock *, 16>
RegionFormation::reachableInRegion(BasicBlock *From) {
  SmallPtrSet<BasicBlock *, 16> Seen{From};
  SmallVector<BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Form.ExitBlocks.count(BB))
      continue;
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  return Seen;
}

bool RegionFormation::keepUniform(Instruction &I) {
  // Every thread computes the same value, so one copy serves them all:
  // threads store it where they compute it, and a region that uses it
  // after a split reads it once, before its loop over the threads. That is
  // only right for uses that no path reaches within the region that
  // computed it (those use this round's value, not the last round's).
  // Nor for a value computed in a region after a warp operation: that
  // region runs once per warp, each reading the copy before its lane loop,
  // so a later warp would read what an earlier one just stored.
  BasicBlock *Def = I.getParent();
  if (Form.WarpMode) {
    if (PerWarpBlocks.empty())
      for (const SyncPoint &S : Form.Syncs)
        if (S.warpScope())
          for (BasicBlock *BB : Form.regionBlocks(S.Resume))
            PerWarpBlocks.insert(BB);
    if (PerWarpBlocks.count(Def))
      return false;
  }
  SmallPtrSet<BasicBlock *, 16> Direct = reachableInRegion(Def);
  SmallVector<Use *, 8> Later;
  for (Use &U : I.uses()) {
    BasicBlock *UB = useBlock(U);
    bool Now = UB == Def || Direct.count(UB);
    bool Before = UB != Def && reachesThroughSplit(UB, Def);
    if (Now && Before)
      return false;
    if (Before)
      Later.push_back(&U);
  }
  if (Later.empty())
    return false;
  // Nor when a region that reads the copy also computes it and runs in
  // several rounds: a thread that computed the next value in an early round
  // would change what the later rounds read.
  for (Use *U : Later)
    if (shareMultiRoundRegion(Def, useBlock(*U)))
      return false;
  uint64_t Size = DL.getTypeStoreSize(I.getType());
  uint64_t Off = Form.Frame.add(Size, DL.getABITypeAlign(I.getType()).value());
  auto Address = [&](IRBuilder<> &B) {
    Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
    return B.CreateInBoundsGEP(B.getInt8Ty(), arg(WorkArg::Frame),
                               B.CreateMul(N, B.getInt64(Off)));
  };
  IRBuilder<> SB(&*Def->getFirstInsertionPt());
  if (!isa<PHINode>(I))
    SB.SetInsertPoint(I.getNextNode());
  Form.frameStore(SB, &I, Address(SB), DL.getABITypeAlign(I.getType()));
  for (Use *U : Later) {
    IRBuilder<> LB(insertionPointFor(*U));
    LoadInst *L = Form.frameLoad(LB, I.getType(), Address(LB),
                                 DL.getABITypeAlign(I.getType()),
                                 I.getName() + ".uniform");
    Form.UniformLoads[L] = Off;
    U->set(L);
  }
  return true;
}

bool RegionFormation::shareMultiRoundRegion(BasicBlock *A, BasicBlock *B) {
  if (MultiRoundRegions.empty()) {
    auto Add = [&](BasicBlock *Start) {
      SmallVector<BasicBlock *, 16> Blocks = Form.regionBlocks(Start);
      MultiRoundRegions.emplace_back(Blocks.begin(), Blocks.end());
    };
    if (Form.WarpMode)
      Add(&W.getEntryBlock());
    for (const SyncPoint &S : Form.Syncs)
      if (Form.WarpMode || S.Kind == SyncKind::LoopBarrier)
        Add(S.Resume);
    // A loop barrier's region without a divergent branch, whose threads
    // entered it together, runs them in step: they leave the loop in the
    // same round.
    if (!Form.WarpMode)
      for (unsigned R = Form.LoopBarrierCount; R >= 1; --R)
        if (!Staggered[R] &&
            none_of(MultiRoundRegions[R - 1], [&](BasicBlock *BB) {
              return Divergence->isDivergentBranch(*BB->getTerminator());
            }))
          MultiRoundRegions.erase(MultiRoundRegions.begin() + (R - 1));
  }
  return llvm::any_of(MultiRoundRegions, [&](const auto &Blocks) {
    return Blocks.count(A) && Blocks.count(B);
  });
}

bool RegionFormation::reachesThroughSplit(BasicBlock *UseBlock,
                                          BasicBlock *Def) {
  SmallVector<BasicBlock *, 16> Work{UseBlock};
  SmallPtrSet<BasicBlock *, 16> Seen{UseBlock};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (ResumeBlocks.count(BB))
      return true;
    for (BasicBlock *P : predecessors(BB))
      if (P != Def && Seen.insert(P).second)
        Work.push_back(P);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The stages
//===----------------------------------------------------------------------===//

void RegionFormation::logStage(StringRef Stage) {
  if (StageLog)
    *StageLog << "*** cucpu: IR of " << W.getName() << " " << Stage
              << " (cucpu-form-regions) ***\n"
              << W;
}

std::optional<std::string> RegionFormation::run() {
  if (auto Why = collectSyncPoints())
    return Why;
  if (auto Why = checkAllocas())
    return Why;
  if (!Form.Syncs.empty()) {
    if (Form.Syncs.size() >= IdMask)
      return std::string("it has too many barriers and warp operations");
    (void)Form.Frame.add(4, 4); // PlaceSlot
    if (any_of(Form.Syncs,
               [](const SyncPoint &S) { return S.Kind == SyncKind::Shuffle; }))
      Form.PresentSlot = Form.Frame.add(4, 4);
    // In the order of the code: splitting a block at a sync point keeps
    // the code before it in the block, which must then end at the first
    // sync point of the block, not at a later one.
    SmallVector<SyncPoint *, 16> InCodeOrder;
    for (SyncPoint &S : Form.Syncs)
      InCodeOrder.push_back(&S);
    llvm::sort(InCodeOrder, [](const SyncPoint *A, const SyncPoint *B) {
      return A->Order < B->Order;
    });
    // Before any split changes the code.
    SmallVector<bool, 16> ReachesItself;
    for (SyncPoint *S : InCodeOrder)
      ReachesItself.push_back(S->Kind == SyncKind::Shuffle &&
                              regionReachesItself(*S));
    for (auto [S, Again] : zip(InCodeOrder, ReachesItself))
      lowerSyncPoint(*S, Again);
    logStage("split at its sync points");
    DenseMap<const BasicBlock *, SyncKind> Meetings;
    for (const SyncPoint &S : Form.Syncs)
      Meetings[S.Resume] = S.Kind;
    Divergence.emplace(
        W, threadSources(),
        [&](LoadInst &L) { return isBlockInvariantLoad(L, W); }, Meetings);
    findUniformExits();
    splitLiveValues();
    logStage("values across the splits");
    allocasToFrame();
    logStage("private memory in the frame");
  }
  Form.write(W);
  return std::nullopt;
}

//===- ThreadDivergence.cpp - Values that differ between threads ----------===//
#include "ThreadDivergence.h"

#include "SyncCalls.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// The condition of a conditional branch or switch, or null.
const Value *branchCondition(const Instruction *Term) {
  if (auto *Br = dyn_cast<BranchInst>(Term))
    return Br->isConditional() ? Br->getCondition() : nullptr;
  if (auto *Sw = dyn_cast<SwitchInst>(Term))
    return Sw->getCondition();
  return nullptr;
}

/// Whether threads that meet at a sync call of kind \p Kind are all at the
/// same place: the block-wide barriers of the kernel (loop barriers let
/// threads that left their loop run on; warp operations hold only a warp).
bool realignsBlock(std::optional<SyncKind> Kind) {
  return Kind == SyncKind::Barrier || Kind == SyncKind::BarrierReduce;
}

/// Whether \p I computes its result from its operands alone.
bool isPureComputation(Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I))
    return CB->doesNotAccessMemory() && !CB->isConvergent() &&
           !CB->mayHaveSideEffects();
  return !I.mayReadOrWriteMemory() && !isa<AllocaInst>(I);
}

} // namespace

ThreadDivergence::ThreadDivergence(
    Function &F, ArrayRef<Value *> Sources,
    function_ref<bool(LoadInst &)> IsUniformLoad,
    const DenseMap<const BasicBlock *, SyncKind> &Meetings) {
  for (Value *V : Sources)
    Divergent.insert(V);
  auto SyncIn = [&](const BasicBlock &BB) -> std::optional<SyncKind> {
    auto It = Meetings.find(&BB);
    if (It == Meetings.end())
      return std::nullopt;
    return It->second;
  };
  DominatorTree DT(F);
  LoopInfo LI(DT);
  PostDominatorTree PDT(F);
  // Blocks where the paths of a divergent branch meet again: their phis
  // differ between the threads that took different paths.
  SmallPtrSet<const BasicBlock *, 16> Joins;
  SmallPtrSet<const Instruction *, 16> BranchesDone;
  SmallPtrSet<const Loop *, 8> LoopsDone;
  auto AnyOperandDivergent = [&](Instruction &I) {
    for (Value *Op : I.operands())
      if (Divergent.count(Op))
        return true;
    return false;
  };
  auto MarkJoins = [&](BasicBlock &BB) {
    DomTreeNode *Node = PDT.getNode(&BB);
    BasicBlock *End =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    DenseMap<const BasicBlock *, unsigned> ReachedFrom;
    unsigned Index = 0;
    for (BasicBlock *Succ : successors(&BB)) {
      ++Index;
      SmallVector<BasicBlock *, 16> Work{Succ};
      SmallPtrSet<BasicBlock *, 16> Seen;
      while (!Work.empty()) {
        BasicBlock *S = Work.pop_back_val();
        if (!Seen.insert(S).second)
          continue;
        auto [It, New] = ReachedFrom.try_emplace(S, Index);
        if (!New && It->second != Index)
          Joins.insert(S);
        if (S == End)
          continue; // Past the post-dominator the paths are one again.
        for (BasicBlock *Next : successors(S))
          Work.push_back(Next);
      }
    }
  };
  // A loop that threads leave at different iterations: its values differ
  // between threads once outside it.
  auto MarkLiveOuts = [&](Loop &L) {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        for (User *U : I.users())
          if (auto *UI = dyn_cast<Instruction>(U);
              UI && !L.contains(UI->getParent()))
            Divergent.insert(&I);
  };
  // Everything loop L computes.
  auto MarkAll = [&](Loop &L) {
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        if (!I.getType()->isVoidTy())
          Divergent.insert(&I);
  };
  // Such a loop with a sync point inside: threads meet there at different
  // iterations (a per-thread trip count around a barrier of the engine's
  // own, say), so nothing it computes is the same for all at a meeting.
  auto MarkTemporal = [&](Loop &L) {
    if (any_of(L.blocks(), [&](BasicBlock *BB) { return SyncIn(*BB); }))
      MarkAll(L);
  };
  // Blocks of loop L reached from the successors of From, not going round
  // L (its back edges), through a block that holds a block-wide barrier,
  // or into Stop; Visit(BB) is called for each and ends the walk by
  // returning true, which is then the result.
  auto Walk = [&](Loop &L, ArrayRef<BasicBlock *> From, const BasicBlock *Stop,
                  function_ref<bool(BasicBlock &)> Visit) {
    SmallVector<BasicBlock *, 16> Work;
    SmallPtrSet<BasicBlock *, 16> Seen;
    for (BasicBlock *BB : From)
      for (BasicBlock *S : successors(BB))
        Work.push_back(S);
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      if (BB == Stop || BB == L.getHeader() || !L.contains(BB) ||
          !Seen.insert(BB).second || realignsBlock(SyncIn(*BB)))
        continue;
      if (Visit(*BB))
        return true;
      append_range(Work, successors(BB));
    }
    return false;
  };
  // Whether the divergent branch ending Branching lets threads of L drift
  // apart by iterations: some threads stop at a loop barrier before the
  // branch's paths meet again (its post-dominator), and from there a
  // thread can reach L's back edge without a block-wide barrier that would
  // wait for the others. (A loop barrier of L's own header is reached only
  // round the back edge: all threads meet it in the same iteration.)
  auto Drifts = [&](Loop &L, BasicBlock &Branching) {
    DomTreeNode *Node = PDT.getNode(&Branching);
    const BasicBlock *Meet =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    SmallVector<BasicBlock *, 8> Stops;
    Walk(L, {&Branching}, Meet, [&](BasicBlock &BB) {
      if (SyncIn(BB) == SyncKind::LoopBarrier)
        Stops.push_back(&BB);
      return false;
    });
    auto GoesRound = [&](BasicBlock &BB) {
      return is_contained(successors(&BB), L.getHeader());
    };
    return any_of(Stops, [&](BasicBlock *BB) { return GoesRound(*BB); }) ||
           (!Stops.empty() && Walk(L, Stops, nullptr, GoesRound));
  };
  SmallPtrSet<const Loop *, 8> DriftingDone;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : instructions(F)) {
      if (Divergent.count(&I) || I.getType()->isVoidTy())
        continue;
      bool D = false;
      if (isa<PHINode>(I))
        D = Joins.count(I.getParent()) || AnyOperandDivergent(I);
      else if (auto *L = dyn_cast<LoadInst>(&I))
        D = !IsUniformLoad(*L) || AnyOperandDivergent(I);
      else
        D = !isPureComputation(I) || AnyOperandDivergent(I);
      if (D) {
        Divergent.insert(&I);
        Changed = true;
      }
    }
    for (BasicBlock &BB : F) {
      Instruction *Term = BB.getTerminator();
      const Value *Cond = branchCondition(Term);
      if (!Cond || !Divergent.count(Cond) || !BranchesDone.insert(Term).second)
        continue;
      MarkJoins(BB);
      for (Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop()) {
        if (L->isLoopExiting(&BB) && LoopsDone.insert(L).second) {
          MarkLiveOuts(*L);
          MarkTemporal(*L);
        }
        if (!DriftingDone.count(L) && Drifts(*L, BB)) {
          DriftingDone.insert(L);
          MarkAll(*L);
        }
      }
      Changed = true;
    }
  }
}

bool ThreadDivergence::isDivergentBranch(const Instruction &Term) const {
  const Value *Cond = branchCondition(&Term);
  return Cond && Divergent.count(Cond);
}

ThreadDivergence ThreadDivergenceAnalysis::run(Function &F,
                                               FunctionAnalysisManager &) {
  bool Work = F.getName().starts_with(WorkPrefix) &&
              F.arg_size() == unsigned(WorkArg::Count);
  SmallVector<Value *, 8> Sources;
  if (Work)
    for (WorkArg A : {WorkArg::Thread, WorkArg::TidX, WorkArg::TidY,
                      WorkArg::TidZ, WorkArg::Linear})
      Sources.push_back(F.getArg(unsigned(A)));
  else
    for (Argument &A : F.args())
      Sources.push_back(&A);
  DenseMap<const BasicBlock *, SyncKind> SyncBlocks;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (std::optional<SyncKind> Kind = syncKindOf(*CI)) {
        auto [It, New] = SyncBlocks.try_emplace(I.getParent(), *Kind);
        if (!New && realignsBlock(*Kind))
          It->second = *Kind;
      }
  return ThreadDivergence(
      F, Sources,
      [&](LoadInst &L) { return Work && isBlockInvariantLoad(L, F); },
      SyncBlocks);
}

PreservedAnalyses
ThreadDivergencePrinterPass::run(Function &F, FunctionAnalysisManager &AM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  const ThreadDivergence &D = AM.getResult<ThreadDivergenceAnalysis>(F);
  OS << "Thread divergence of '" << F.getName() << "':\n";
  for (Instruction &I : instructions(F)) {
    if (I.isTerminator()) {
      if (I.getNumSuccessors() > 1)
        OS << (D.isDivergentBranch(I) ? "  divergent branch:"
                                      : "  uniform branch:")
           << I << "\n";
      continue;
    }
    if (I.getType()->isVoidTy())
      continue;
    OS << (D.isUniform(&I) ? "  uniform:" : "  divergent:") << I << "\n";
  }
  return PreservedAnalyses::all();
}

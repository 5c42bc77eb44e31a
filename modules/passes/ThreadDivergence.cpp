//===- ThreadDivergence.cpp - Values that differ between threads ----------===//
#include "ThreadDivergence.h"

#include "SyncCalls.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

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
    function_ref<bool(const BasicBlock &)> IsSyncBlock) {
  for (Value *V : Sources)
    Divergent.insert(V);
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
  // Such a loop with a sync point inside: threads meet there at different
  // iterations (a per-thread trip count around a barrier of the engine's
  // own, say), so nothing it computes is the same for all at a meeting.
  auto MarkTemporal = [&](Loop &L) {
    if (none_of(L.blocks(), [&](BasicBlock *BB) { return IsSyncBlock(*BB); }))
      return;
    for (BasicBlock *BB : L.blocks())
      for (Instruction &I : *BB)
        if (!I.getType()->isVoidTy())
          Divergent.insert(&I);
  };
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
      for (Loop *L = LI.getLoopFor(&BB); L; L = L->getParentLoop())
        if (L->isLoopExiting(&BB) && LoopsDone.insert(L).second) {
          MarkLiveOuts(*L);
          MarkTemporal(*L);
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
  SmallPtrSet<const BasicBlock *, 8> SyncBlocks;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && syncKindOf(*CI))
      SyncBlocks.insert(I.getParent());
  return ThreadDivergence(
      F, Sources,
      [&](LoadInst &L) { return Work && isBlockInvariantLoad(L, F); },
      [&](const BasicBlock &BB) { return SyncBlocks.contains(&BB); });
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

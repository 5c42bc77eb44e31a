//===- LoopBarriers.cpp - Barriers at uniform loop headers ----------------===//
#include "LoopBarriers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// Loops with fewer instructions are not worth a region per iteration.
constexpr unsigned MinLoopInstructions = 12;

Value *branchCondition(Instruction *Term) {
  if (auto *Br = dyn_cast<BranchInst>(Term))
    return Br->isConditional() ? Br->getCondition() : nullptr;
  if (auto *Sw = dyn_cast<SwitchInst>(Term))
    return Sw->getCondition();
  return nullptr;
}

/// Whether a path from \p From reaches one of \p Targets without passing
/// \p Stop.
bool reachesAvoiding(BasicBlock *From, const SmallPtrSetImpl<BasicBlock *> &Targets,
                     BasicBlock *Stop) {
  SmallVector<BasicBlock *, 16> Work{From};
  SmallPtrSet<BasicBlock *, 16> Seen{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Stop)
      continue;
    if (Targets.count(BB))
      return true;
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  return false;
}

/// The blocks a divergent branch in \p BB decides between: from its
/// successors up to (not including) its immediate post-dominator.
SmallPtrSet<BasicBlock *, 16> influence(BasicBlock &BB,
                                        const PostDominatorTree &PDT) {
  DomTreeNode *Node = PDT.getNode(&BB);
  BasicBlock *End =
      Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
  SmallPtrSet<BasicBlock *, 16> Region;
  SmallVector<BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
  while (!Work.empty()) {
    BasicBlock *S = Work.pop_back_val();
    if (S == End || !Region.insert(S).second)
      continue;
    for (BasicBlock *Next : successors(S))
      Work.push_back(Next);
  }
  return Region;
}

} // namespace

unsigned cucpu::modules::insertLoopBarriers(
    Function &W, Value *Thread, const ThreadDivergence &Divergence,
    ArrayRef<BasicBlock *> SyncBlocks) {
  DominatorTree DT(W);
  LoopInfo LI(DT);
  PostDominatorTree PDT(W);
  SmallPtrSet<BasicBlock *, 16> Syncs(SyncBlocks.begin(), SyncBlocks.end());
  SmallVector<std::pair<BasicBlock *, SmallPtrSet<BasicBlock *, 16>>, 8>
      DivergentBranches;
  for (BasicBlock &BB : W)
    if (Value *Cond = branchCondition(BB.getTerminator());
        Cond && !Divergence.isUniform(Cond))
      DivergentBranches.push_back({&BB, influence(BB, PDT)});

  // Some threads may take a divergent branch's other way to another
  // barrier while the rest run the loop: then they are not in step.
  auto InStep = [&](BasicBlock *Header) {
    for (auto &[BB, Region] : DivergentBranches) {
      if (!Region.count(Header))
        continue;
      for (BasicBlock *S : successors(BB))
        if (reachesAvoiding(S, Syncs, Header))
          return false;
    }
    return true;
  };

  SmallVector<BasicBlock *, 8> Headers;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    unsigned Size = 0;
    bool Eligible = true;
    for (BasicBlock *BB : L->blocks()) {
      Size += BB->size();
      if (Syncs.count(BB))
        Eligible = false;
    }
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    for (BasicBlock *BB : Exiting) {
      Value *Cond = branchCondition(BB->getTerminator());
      if (!Cond || !Divergence.isUniform(Cond))
        Eligible = false;
    }
    if (Eligible && Size >= MinLoopInstructions && InStep(L->getHeader())) {
      Headers.push_back(L->getHeader());
      // Later loops must be in step with this barrier too.
      Syncs.insert(L->getHeader());
    }
  }
  if (Headers.empty())
    return 0;
  LLVMContext &Ctx = W.getContext();
  FunctionCallee Barrier = W.getParent()->getOrInsertFunction(
      "__cucpu_barrier", Type::getVoidTy(Ctx), PointerType::get(Ctx, 0));
  if (auto *F = dyn_cast<Function>(Barrier.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::Convergent);
  }
  for (BasicBlock *Header : Headers) {
    IRBuilder<> B(&*Header->getFirstInsertionPt());
    B.CreateCall(Barrier, {Thread});
  }
  return Headers.size();
}

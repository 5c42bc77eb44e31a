//===- InductionRebasingPass.cpp - Induction variables from one counter ---===//
#include "InductionRebasingPass.h"

#include "SyncCalls.h"
#include "ThreadDivergence.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace cucpu::modules {

namespace {

/// A header phi that moves by the same step in every iteration.
struct Induction {
  PHINode *Phi;
  Value *Start;
  Instruction *Next; ///< Its value from the latch.
  Value *Step;       ///< Added (Subtract: subtracted), or a GEP's index.
  bool Subtract = false;
};

/// \p P as an induction of \p L (in loop-simplify form), if it is one.
std::optional<Induction> matchInduction(PHINode &P, const Loop &L) {
  if (P.getNumIncomingValues() != 2)
    return std::nullopt;
  auto *Next =
      dyn_cast<Instruction>(P.getIncomingValueForBlock(L.getLoopLatch()));
  if (!Next)
    return std::nullopt;
  Induction Ind{&P, P.getIncomingValueForBlock(L.getLoopPreheader()), Next,
                nullptr};
  if (auto *G = dyn_cast<GetElementPtrInst>(Next)) {
    if (G->getPointerOperand() == &P && G->getNumIndices() == 1)
      Ind.Step = G->getOperand(1);
  } else if (auto *Bin = dyn_cast<BinaryOperator>(Next)) {
    if (Bin->getOpcode() == Instruction::Add)
      Ind.Step = Bin->getOperand(0) == &P   ? Bin->getOperand(1)
                 : Bin->getOperand(1) == &P ? Bin->getOperand(0)
                                            : nullptr;
    else if (Bin->getOpcode() == Instruction::Sub && Bin->getOperand(0) == &P)
      Ind = {&P, Ind.Start, Next, Bin->getOperand(1), /*Subtract=*/true};
  }
  if (!Ind.Step || Ind.Step == &P || !L.isLoopInvariant(Ind.Step))
    return std::nullopt;
  if (!P.getType()->isPointerTy() &&
      (!P.getType()->isIntegerTy() || P.getType()->getIntegerBitWidth() > 64))
    return std::nullopt;
  return Ind;
}

/// Whether a block of \p L holds a sync call.
bool holdsSyncPoint(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CI = dyn_cast<CallInst>(&I); CI && syncKindOf(*CI))
        return true;
  return false;
}

/// Whether every thread leaves \p L at the same iteration.
bool exitsTogether(const Loop &L, const ThreadDivergence &Divergence) {
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  return all_of(Exiting, [&](BasicBlock *BB) {
    return !Divergence.isDivergentBranch(*BB->getTerminator());
  });
}

/// \p Ind's start plus \p Count of its steps, built by \p B.
Value *startPlusSteps(IRBuilder<> &B, const Induction &Ind, Value *Count,
                      const Twine &Name) {
  if (auto *G = dyn_cast<GetElementPtrInst>(Ind.Next)) {
    // Each step sign-extends the index to the pointer's index width.
    Value *Steps =
        B.CreateMul(Count, B.CreateSExtOrTrunc(Ind.Step, Count->getType()),
                    Name + ".steps");
    return B.CreateGEP(G->getSourceElementType(), Ind.Start, Steps, Name);
  }
  // Wrapping arithmetic: k additions of D are S + k * D modulo 2^n.
  Value *Steps = B.CreateMul(B.CreateZExtOrTrunc(Count, Ind.Start->getType()),
                             Ind.Step, Name + ".steps");
  return Ind.Subtract ? B.CreateSub(Ind.Start, Steps, Name)
                      : B.CreateAdd(Ind.Start, Steps, Name);
}

/// Replaces \p Ind by its start plus \p Count steps at the top of the
/// loop's header, and its next value by its start plus Count + 1 steps where
/// it was computed: neither then needs the other, so no thread's value is
/// carried from one iteration to the next.
void rebase(const Induction &Ind, PHINode *Count) {
  PHINode &P = *Ind.Phi;
  IRBuilder<> B(&*P.getParent()->getFirstInsertionPt());
  P.replaceAllUsesWith(startPlusSteps(B, Ind, Count, P.getName() + ".rebased"));
  P.eraseFromParent();
  if (!Ind.Next->use_empty()) {
    B.SetInsertPoint(Ind.Next);
    Value *Following =
        B.CreateAdd(Count, ConstantInt::get(Count->getType(), 1), "",
                    /*HasNUW=*/true, /*HasNSW=*/true);
    Ind.Next->replaceAllUsesWith(
        startPlusSteps(B, Ind, Following, Ind.Next->getName() + ".rebased"));
  }
  Ind.Next->eraseFromParent();
}

/// Rebases the inductions of \p L; how many.
unsigned rebaseLoop(Loop &L, const ThreadDivergence &Divergence) {
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Latch = L.getLoopLatch();
  if (!Preheader || !Latch || !holdsSyncPoint(L) ||
      !exitsTogether(L, Divergence))
    return 0;
  SmallVector<Induction, 4> Found;
  for (PHINode &P : L.getHeader()->phis())
    if (!Divergence.isUniform(&P))
      if (std::optional<Induction> Ind = matchInduction(P, L))
        Found.push_back(*Ind);
  if (Found.empty())
    return 0;
  BasicBlock *Header = L.getHeader();
  Type *I64 = Type::getInt64Ty(Header->getContext());
  IRBuilder<> B(&Header->front());
  PHINode *Count = B.CreatePHI(I64, 2, "iteration");
  Count->addIncoming(ConstantInt::get(I64, 0), Preheader);
  B.SetInsertPoint(Latch->getTerminator());
  Count->addIncoming(B.CreateAdd(Count, ConstantInt::get(I64, 1),
                                 "iteration.next", /*HasNUW=*/true,
                                 /*HasNSW=*/true),
                     Latch);
  for (const Induction &Ind : Found)
    rebase(Ind, Count);
  return Found.size();
}

} // namespace

unsigned rebaseInductions(Function &W, LoopInfo &Loops,
                          const ThreadDivergence &Divergence) {
  unsigned Rebased = 0;
  for (Loop *L : Loops.getLoopsInPreorder())
    Rebased += rebaseLoop(*L, Divergence);
  return Rebased;
}

PreservedAnalyses InductionRebasingPass::run(Module &M,
                                             ModuleAnalysisManager &AM) {
  auto &FAM = AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  unsigned Rebased = 0;
  for (Function &W : M) {
    if (W.isDeclaration() || !W.getName().starts_with(WorkPrefix))
      continue;
    unsigned Here =
        rebaseInductions(W, FAM.getResult<LoopAnalysis>(W),
                         FAM.getResult<ThreadDivergenceAnalysis>(W));
    if (Here)
      FAM.invalidate(W, PreservedAnalyses::none());
    Rebased += Here;
  }
  return Rebased ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace cucpu::modules

//===- InvariantDivisionsPass.cpp - Conditional invariant divisions -------===//
#include "InvariantDivisionsPass.h"

#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace cucpu::modules {
namespace {

/// Whether \p I is an integer division or remainder that may trap (its
/// divisor is not a non-zero constant), computed from values \p L does not
/// change.
bool isTrappingInvariantDivision(const Instruction &I, const Loop &L) {
  switch (I.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::URem:
  case Instruction::SDiv:
  case Instruction::SRem:
    return !isSafeToSpeculativelyExecute(&I) &&
           L.isLoopInvariant(I.getOperand(0)) &&
           L.isLoopInvariant(I.getOperand(1));
  default:
    return false;
  }
}

/// Whether \p Div cannot trap when it runs at \p Where: its divisor is a
/// value (not poison: what is known of a value holds only where it is not
/// poison, and a flag such as `trunc nuw` that held where the division was
/// may not hold at \p Where), not zero there, and, signed, not negative (so
/// not -1: no overflow).
bool cannotTrapAt(const BinaryOperator &Div, const Instruction *Where,
                  const SimplifyQuery &Query) {
  const Value *Divisor = Div.getOperand(1);
  SimplifyQuery AtWhere = Query.getWithInstruction(Where);
  if (!isGuaranteedNotToBeUndefOrPoison(Divisor, Query.AC, Where, Query.DT) ||
      !isKnownNonZero(Divisor, AtWhere))
    return false;
  bool IsSigned = Div.getOpcode() == Instruction::SDiv ||
                  Div.getOpcode() == Instruction::SRem;
  return !IsSigned ||
         computeKnownBits(Divisor, /*Depth=*/0, AtWhere).isNonNegative();
}

/// Hoists or guards the conditional invariant divisions of innermost loop
/// \p L. Returns whether the IR changed.
bool handleLoop(Loop &L, const DominatorTree &DT, const SimplifyQuery &Query) {
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Preheader = L.getLoopPreheader();
  bool Changed = false;
  bool KeepScalar = false;
  for (BasicBlock *BB : L.blocks()) {
    // The vectorizer predicates the blocks that do not dominate the latch.
    if (Latch && DT.dominates(BB, Latch))
      continue;
    for (Instruction &I : make_early_inc_range(*BB)) {
      if (!isTrappingInvariantDivision(I, L))
        continue;
      auto &Div = cast<BinaryOperator>(I);
      if (Preheader && cannotTrapAt(Div, Preheader->getTerminator(), Query)) {
        Div.moveBefore(Preheader->getTerminator());
        Div.dropPoisonGeneratingFlags();
        Changed = true;
      } else {
        KeepScalar = true;
      }
    }
  }
  if (KeepScalar) {
    addStringMetadataToLoop(&L, "llvm.loop.vectorize.enable", 0);
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses InvariantDivisionsPass::run(Function &F,
                                              FunctionAnalysisManager &AM) {
  auto &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  auto &DT = AM.getResult<DominatorTreeAnalysis>(F);
  SimplifyQuery Query(F.getDataLayout(), &DT,
                      &AM.getResult<AssumptionAnalysis>(F));
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost())
      Changed |= handleLoop(*L, DT, Query);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace cucpu::modules

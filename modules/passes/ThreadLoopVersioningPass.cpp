//===- ThreadLoopVersioningPass.cpp - Uniform tests out of thread loops ---===//
#include "ThreadLoopVersioningPass.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace cucpu::modules {
namespace {

/// Loops larger than this keep one version (compile time, code size).
constexpr unsigned MaxLoopBlocks = 128;
constexpr unsigned MaxLoopInstructions = 4000;
/// How deep a branch condition's && and || are followed to its tests.
constexpr unsigned MaxConditionDepth = 8;

/// The tests of a loop and the outcome each has, for every thread, in the
/// fast version.
using Expectations = MapVector<ICmpInst *, bool>;

/// The values a test's operand takes over the loop's iterations, as exact
/// integers (i128): Lo at the first, Hi at the last, all those between in
/// between when Exact holds (the operand does not wrap).
struct ValueRange {
  Value *Lo, *Hi, *Exact;
};

class ThreadLoopVersioner {
public:
  ThreadLoopVersioner(Function &F, LoopInfo &LI, DominatorTree &DT,
                      ScalarEvolution &SE)
      : F(F), LI(LI), DT(DT), SE(SE) {}

  /// Versions every thread loop of the function that gains from it.
  bool run();

private:
  bool version(Loop &L);
  std::optional<bool> usualOutcome(const BranchInst &Br, const Loop &L) const;
  void expect(Value *Cond, bool Outcome, const Loop &L, Expectations &E,
              SmallPtrSetImpl<ICmpInst *> &Conflicting, unsigned Depth) const;
  Value *holdsThroughout(IRBuilder<> &B, SCEVExpander &X, const Loop &L,
                         const SCEV *Iterations, ICmpInst &Cmp, bool Outcome);
  std::optional<ValueRange> valueRange(IRBuilder<> &B, SCEVExpander &X,
                                       const Loop &L, const SCEV *Iterations,
                                       const SCEV *S, bool Signed);
  Loop *cloneFastVersion(Loop &L, Value *Guard, ValueToValueMapTy &VMap);
  void foldTests();

  Function &F;
  LoopInfo &LI;
  DominatorTree &DT;
  ScalarEvolution &SE;
  /// Tests made constant once every loop is versioned.
  SmallVector<std::pair<WeakTrackingVH, bool>, 16> Folds;
  bool Changed = false;
};

bool isThreadLoop(const Loop &L) {
  MDNode *Id = L.getLoopID();
  return Id && findOptionMDForLoopID(Id, "llvm.loop.parallel_accesses");
}

unsigned instructionCount(const Loop &L) {
  unsigned N = 0;
  for (const BasicBlock *BB : L.blocks())
    N += BB->size();
  return N;
}

bool ThreadLoopVersioner::run() {
  SmallVector<Loop *, 16> ThreadLoops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (L->isInnermost() && isThreadLoop(*L) &&
        L->getNumBlocks() <= MaxLoopBlocks &&
        instructionCount(*L) <= MaxLoopInstructions)
      ThreadLoops.push_back(L);
  for (Loop *L : ThreadLoops)
    Changed |= version(*L);
  foldTests();
  return Changed;
}

/// The way a block's threads usually go at \p Br: to the successor with
/// code of its own (not straight to where the two ways meet), the larger
/// if both have some; none when neither has.
std::optional<bool> ThreadLoopVersioner::usualOutcome(const BranchInst &Br,
                                                      const Loop &L) const {
  auto Work = [&](const BasicBlock *S) {
    unsigned N = 0;
    if (S->getSinglePredecessor() != Br.getParent())
      return N;
    for (const BasicBlock *D : L.blocks())
      if (DT.dominates(S, D))
        N += D->size();
    return N;
  };
  unsigned IfTrue = Work(Br.getSuccessor(0));
  unsigned IfFalse = Work(Br.getSuccessor(1));
  if (IfTrue == IfFalse)
    return std::nullopt;
  return IfTrue > IfFalse;
}

/// Records the outcome of the tests in \p L that make \p Cond come out as
/// \p Outcome: a && b true, a || b false, !a.
void ThreadLoopVersioner::expect(Value *Cond, bool Outcome, const Loop &L,
                                 Expectations &E,
                                 SmallPtrSetImpl<ICmpInst *> &Conflicting,
                                 unsigned Depth) const {
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
    if (!L.contains(Cmp) || !Cmp->getOperand(0)->getType()->isIntegerTy())
      return;
    auto [It, New] = E.insert({Cmp, Outcome});
    if (!New && It->second != Outcome)
      Conflicting.insert(Cmp);
    return;
  }
  if (Depth == MaxConditionDepth)
    return;
  Value *A, *B;
  if (Outcome ? match(Cond, m_LogicalAnd(m_Value(A), m_Value(B)))
              : match(Cond, m_LogicalOr(m_Value(A), m_Value(B)))) {
    expect(A, Outcome, L, E, Conflicting, Depth + 1);
    expect(B, Outcome, L, E, Conflicting, Depth + 1);
  } else if (match(Cond, m_Not(m_Value(A)))) {
    expect(A, !Outcome, L, E, Conflicting, Depth + 1);
  }
}

std::optional<ValueRange>
ThreadLoopVersioner::valueRange(IRBuilder<> &B, SCEVExpander &X, const Loop &L,
                                const SCEV *Iterations, const SCEV *S,
                                bool Signed) {
  // An affine recurrence of the loop, or one extended to a wider type.
  const SCEV *Inner = S;
  bool InnerSigned = Signed;
  bool Extended = false;
  if (auto *Z = dyn_cast<SCEVZeroExtendExpr>(S)) {
    Inner = Z->getOperand();
    InnerSigned = false;
    Extended = true;
  } else if (auto *Sx = dyn_cast<SCEVSignExtendExpr>(S)) {
    Inner = Sx->getOperand();
    InnerSigned = true;
    Extended = true;
  }
  auto *Rec = dyn_cast<SCEVAddRecExpr>(Inner);
  if (!Rec || Rec->getLoop() != &L || !Rec->isAffine())
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  unsigned Width = Rec->getType()->getIntegerBitWidth();
  Instruction *At = &*B.GetInsertPoint();
  if (!Step || Step->getAPInt().getSignificantBits() > 32 || Width > 64 ||
      !X.isSafeToExpandAt(Rec->getStart(), At) ||
      !X.isSafeToExpandAt(Iterations, At))
    return std::nullopt;

  // Start < 2^64, Iterations < 2^64 and |Step| < 2^31: no i128 overflow.
  Type *Wide = B.getIntNTy(128);
  auto Extend = [&](Value *V, bool AsSigned) {
    return AsSigned ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
  };
  Value *Lo =
      Extend(X.expandCodeFor(Rec->getStart(), Rec->getType(), At), InnerSigned);
  Value *Count = B.CreateZExt(
      X.expandCodeFor(Iterations, Iterations->getType(), At), Wide);
  Value *Hi = B.CreateAdd(
      Lo,
      B.CreateMul(Count, ConstantInt::get(Wide, Step->getAPInt().sext(128))));
  APInt Min = InnerSigned ? APInt::getSignedMinValue(Width).sext(128)
                          : APInt::getZero(128);
  APInt Max = InnerSigned ? APInt::getSignedMaxValue(Width).sext(128)
                          : APInt::getMaxValue(Width).zext(128);
  // Lo is in range; Hi is when the recurrence does not wrap.
  Value *Exact = B.CreateAnd(B.CreateICmpSGE(Hi, ConstantInt::get(Wide, Min)),
                             B.CreateICmpSLE(Hi, ConstantInt::get(Wide, Max)));
  if (Extended && InnerSigned && !Signed) {
    // Negative values, sign-extended, read as large unsigned ones.
    Value *Zero = ConstantInt::get(Wide, 0);
    Exact = B.CreateAnd(Exact, B.CreateAnd(B.CreateICmpSGE(Lo, Zero),
                                           B.CreateICmpSGE(Hi, Zero)));
  }
  return ValueRange{Lo, Hi, Exact};
}

/// Emits, at B (the loop's preheader), whether \p Cmp comes out as
/// \p Outcome in each of the loop's iterations; null when cucpu cannot
/// tell: one operand must be invariant in the loop and the other invariant
/// too or affine in the iteration (a thread index).
Value *ThreadLoopVersioner::holdsThroughout(IRBuilder<> &B, SCEVExpander &X,
                                            const Loop &L,
                                            const SCEV *Iterations,
                                            ICmpInst &Cmp, bool Outcome) {
  CmpInst::Predicate P =
      Outcome ? Cmp.getPredicate() : Cmp.getInversePredicate();
  const SCEV *Varying = SE.getSCEV(Cmp.getOperand(0));
  const SCEV *Bound = SE.getSCEV(Cmp.getOperand(1));
  if (!SE.isLoopInvariant(Bound, &L)) {
    std::swap(Varying, Bound);
    P = CmpInst::getSwappedPredicate(P);
  }
  Instruction *At = &*B.GetInsertPoint();
  Type *Ty = Cmp.getOperand(0)->getType();
  if (!SE.isLoopInvariant(Bound, &L) || !X.isSafeToExpandAt(Bound, At))
    return nullptr;
  if (SE.isLoopInvariant(Varying, &L)) {
    if (!X.isSafeToExpandAt(Varying, At))
      return nullptr;
    return B.CreateICmp(P, X.expandCodeFor(Varying, Ty, At),
                        X.expandCodeFor(Bound, Ty, At));
  }
  if (P == CmpInst::ICMP_EQ)
    return nullptr; // Threads with different indices differ.
  bool Signed = CmpInst::isEquality(P) ? isa<SCEVSignExtendExpr>(Varying)
                                       : CmpInst::isSigned(P);
  std::optional<ValueRange> R =
      valueRange(B, X, L, Iterations, Varying, Signed);
  if (!R)
    return nullptr;
  Value *N = X.expandCodeFor(Bound, Ty, At);
  N = Signed ? B.CreateSExt(N, B.getIntNTy(128))
             : B.CreateZExt(N, B.getIntNTy(128));
  Value *Holds;
  if (P == CmpInst::ICMP_NE) {
    // The bound lies outside the values.
    Holds = B.CreateOr(
        B.CreateAnd(B.CreateICmpSLT(N, R->Lo), B.CreateICmpSLT(N, R->Hi)),
        B.CreateAnd(B.CreateICmpSGT(N, R->Lo), B.CreateICmpSGT(N, R->Hi)));
  } else {
    // Exact integers, compared as such: holding at both ends, it holds
    // for the values between.
    CmpInst::Predicate Exact =
        CmpInst::isSigned(P) ? P : CmpInst::getSignedPredicate(P);
    Holds = B.CreateAnd(B.CreateICmp(Exact, R->Lo, N),
                        B.CreateICmp(Exact, R->Hi, N));
  }
  return B.CreateAnd(R->Exact, Holds);
}

/// Copies \p L, its preheader included; the copy runs when \p Guard holds
/// at the end of L's preheader (where Guard is computed), L otherwise.
Loop *ThreadLoopVersioner::cloneFastVersion(Loop &L, Value *Guard,
                                            ValueToValueMapTy &VMap) {
  BasicBlock *Check = L.getLoopPreheader();
  BasicBlock *Exit = L.getExitBlock();
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Preheader = SplitBlock(Check, Check->getTerminator(), &DT, &LI,
                                     nullptr, L.getHeader()->getName() + ".ph");
  SmallVector<BasicBlock *, 16> Blocks;
  Loop *Fast = cloneLoopWithPreheader(Preheader, Check, &L, VMap, ".uniform",
                                      &LI, &DT, Blocks);
  remapInstructionsInBlocks(Blocks, VMap);
  Check->getTerminator()->eraseFromParent();
  BranchInst::Create(Fast->getLoopPreheader(), Preheader, Guard, Check);
  DT.changeImmediateDominator(Exit, Check);
  // The versions meet at L's exit; values used after the loop leave it
  // through the exit's phis (LCSSA).
  auto *FastLatch = cast<BasicBlock>(VMap[Latch]);
  for (PHINode &Phi : Exit->phis()) {
    Value *V = Phi.getIncomingValueForBlock(Latch);
    Value *Mapped = VMap.lookup(V);
    Phi.addIncoming(Mapped ? Mapped : V, FastLatch);
  }
  // A loop of its own: properties such as "vectorized" are per loop.
  if (MDNode *Id = L.getLoopID()) {
    SmallVector<Metadata *, 4> Ops{nullptr};
    Ops.append(Id->op_begin() + 1, Id->op_end());
    MDNode *FastId = MDNode::getDistinct(F.getContext(), Ops);
    FastId->replaceOperandWith(0, FastId);
    Fast->setLoopID(FastId);
  }
  return Fast;
}

bool ThreadLoopVersioner::version(Loop &L) {
  Expectations E;
  SmallPtrSet<ICmpInst *, 8> Conflicting;
  for (BasicBlock *BB : L.blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || !L.contains(Br->getSuccessor(0)) ||
        !L.contains(Br->getSuccessor(1)))
      continue;
    if (std::optional<bool> Usual = usualOutcome(*Br, L))
      expect(Br->getCondition(), *Usual, L, E, Conflicting, 0);
  }
  for (ICmpInst *Cmp : Conflicting)
    E.erase(Cmp);
  if (E.empty())
    return false;

  bool Simplified = simplifyLoop(&L, &DT, &LI, &SE, nullptr, nullptr,
                                 /*PreserveLCSSA=*/false);
  BasicBlock *Check = L.getLoopPreheader();
  const SCEV *Iterations = SE.getBackedgeTakenCount(&L);
  if (!Check || !L.getExitBlock() || L.getExitingBlock() != L.getLoopLatch() ||
      isa<SCEVCouldNotCompute>(Iterations) ||
      Iterations->getType()->getIntegerBitWidth() > 64)
    return Simplified;

  SCEVExpander X(SE, F.getDataLayout(), "uniform.test");
  IRBuilder<> B(Check->getTerminator());
  Value *Guard = B.getTrue();
  SmallVector<std::pair<ICmpInst *, bool>, 8> Kept;
  for (auto [Cmp, Outcome] : E)
    if (Value *Holds = holdsThroughout(B, X, L, Iterations, *Cmp, Outcome)) {
      Guard = B.CreateAnd(Guard, Holds);
      Kept.push_back({Cmp, Outcome});
    }
  if (Kept.empty() || match(Guard, m_Zero()))
    return true; // What was expanded for nothing goes with the dead code.
  if (match(Guard, m_One())) {
    // The same for every block: one version, with the outcomes.
    for (auto [Cmp, Outcome] : Kept)
      Folds.push_back({Cmp, Outcome});
    return true;
  }
  formLCSSA(L, DT, &LI, &SE);
  ValueToValueMapTy VMap;
  cloneFastVersion(L, Guard, VMap);
  for (auto [Cmp, Outcome] : Kept)
    Folds.push_back({VMap[Cmp], Outcome});
  return true;
}

void ThreadLoopVersioner::foldTests() {
  if (Folds.empty())
    return;
  for (auto &[Test, Outcome] : Folds)
    if (auto *Cmp = dyn_cast_or_null<ICmpInst>(Test))
      replaceAndRecursivelySimplify(
          Cmp, ConstantInt::getBool(F.getContext(), Outcome));
  // The branches on constants go, with what only they reached; the blocks
  // left in a line become one (as the vectorizer prefers).
  for (BasicBlock &BB : F)
    ConstantFoldTerminator(&BB, /*DeleteDeadConditions=*/true);
  removeUnreachableBlocks(F);
  for (BasicBlock &BB : make_early_inc_range(F))
    MergeBlockIntoPredecessor(&BB);
}

} // namespace

PreservedAnalyses ThreadLoopVersioningPass::run(Function &F,
                                                FunctionAnalysisManager &AM) {
  auto &LI = AM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  ThreadLoopVersioner Versioner(F, LI, AM.getResult<DominatorTreeAnalysis>(F),
                                AM.getResult<ScalarEvolutionAnalysis>(F));
  return Versioner.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace cucpu::modules

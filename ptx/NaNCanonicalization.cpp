//===- NaNCanonicalization.cpp - Only the NaNs someone can see ------------===//
#include "NaNCanonicalization.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace cucpu::ptx {
namespace {

/// The most values one search follows: a larger web of float operations
/// keeps its canonicalizations.
constexpr unsigned MaxVisited = 4096;

/// If \p I is `select (fcmp uno x, x|c), 0x7fffffff, x` of float, x.
Value *canonicalized(Instruction &I) {
  auto *Sel = dyn_cast<SelectInst>(&I);
  if (!Sel || !Sel->getType()->isFloatTy())
    return nullptr;
  auto *NaN = dyn_cast<ConstantFP>(Sel->getTrueValue());
  auto *Test = dyn_cast<FCmpInst>(Sel->getCondition());
  Value *X = Sel->getFalseValue();
  if (!NaN || NaN->getValueAPF().bitcastToAPInt() != 0x7fffffff || !Test ||
      Test->getPredicate() != FCmpInst::FCMP_UNO || Test->getOperand(0) != X)
    return nullptr;
  Value *Other = Test->getOperand(1);
  auto *C = dyn_cast<ConstantFP>(Other);
  if (Other != X && !(C && !C->isNaN()))
    return nullptr;
  return X;
}

/// Whether \p U passes a NaN operand on as some NaN, whatever its bits, and
/// otherwise does not depend on them: the float arithmetic the translator
/// emits, and phis and selects that choose among values.
bool passesNaNsOn(const User &U, const Use &Operand) {
  if (isa<PHINode>(U))
    return true;
  if (isa<SelectInst>(U))
    return Operand.getOperandNo() != 0;
  if (auto *I = dyn_cast<Instruction>(&U)) {
    switch (I->getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub:
    case Instruction::FMul:
    case Instruction::FDiv:
    case Instruction::FRem:
    case Instruction::FNeg:
      return true;
    default:
      break;
    }
  }
  if (auto *II = dyn_cast<IntrinsicInst>(&U)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
    case Intrinsic::fabs:
    case Intrinsic::sqrt:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
      return true;
    default:
      break;
    }
  }
  return false;
}

/// Whether a NaN's bits in \p V can be seen: whether some use reached from
/// it through operations that pass NaNs on is neither a comparison nor a
/// canonicalization.
bool bitsVisible(Value *V) {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 32> Seen{V};
  while (!Work.empty()) {
    Value *Cur = Work.pop_back_val();
    for (const Use &U : Cur->uses()) {
      auto *User = cast<Instruction>(U.getUser());
      if (isa<FCmpInst>(User) || canonicalized(*User) == Cur)
        continue;
      if (!passesNaNsOn(*User, U))
        return true;
      if (Seen.insert(User).second) {
        if (Seen.size() > MaxVisited)
          return true;
        Work.push_back(User);
      }
    }
  }
  return false;
}

} // namespace

PreservedAnalyses NaNCanonicalizationPass::run(Function &F,
                                               FunctionAnalysisManager &) {
  SmallVector<Instruction *, 32> Selects;
  for (Instruction &I : instructions(F))
    if (canonicalized(I))
      Selects.push_back(&I);
  bool Changed = false;
  // One at a time: a search stops at a canonicalization only while it is
  // there, and one removed later had nothing visible beyond it either.
  for (Instruction *S : Selects) {
    if (bitsVisible(S))
      continue;
    S->replaceAllUsesWith(canonicalized(*S));
    S->eraseFromParent();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace cucpu::ptx

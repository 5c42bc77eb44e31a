//===- SharedAtomicsPass.cpp - Plain accesses for shared-memory atomics ---===//
#include "SharedAtomicsPass.h"

#include "AbiAccess.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// Whether \p Ptr points into the block's shared memory: it is derived
/// from the CucpuBlock::Shared pointer loaded from the work function's
/// block argument.
bool isShared(Value *Ptr, const Function &W) {
  auto *Base = dyn_cast<LoadInst>(getUnderlyingObject(Ptr, 0));
  if (!Base)
    return false;
  APInt Offset(64, 0);
  Value *Blk = Base->getPointerOperand()->stripAndAccumulateConstantOffsets(
      W.getDataLayout(), Offset, true);
  return Blk == W.getArg(unsigned(WorkArg::Block)) &&
         Offset.getZExtValue() == abi::sharedOffset();
}

/// Lowers the shared-memory atomics of work function \p W; whether any.
bool lowerSharedAtomics(Function &W) {
  SmallVector<Instruction *, 8> Atomics;
  for (Instruction &I : instructions(W)) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
        RMW && isShared(RMW->getPointerOperand(), W))
      Atomics.push_back(RMW);
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I);
        CX && isShared(CX->getPointerOperand(), W))
      Atomics.push_back(CX);
  }
  for (Instruction *I : Atomics) {
    // The plain loads and stores that replace it keep a mark: threads of a
    // thread loop may not run them side by side (parallelAccessGroup).
    BasicBlock *BB = I->getParent();
    Instruction *Prev = I->getPrevNode();
    Instruction *Next = I->getNextNode();
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerAtomicRMWInst(RMW);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
    for (auto It = Prev ? std::next(Prev->getIterator()) : BB->begin();
         &*It != Next; ++It)
      if (It->mayReadOrWriteMemory())
        It->setMetadata(SharedAtomicMark, MDNode::get(W.getContext(), {}));
  }
  return !Atomics.empty();
}

} // namespace

PreservedAnalyses SharedAtomicsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(WorkPrefix))
      Changed |= lowerSharedAtomics(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

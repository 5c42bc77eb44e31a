//===- LoopBarriers.cpp - Barriers at the headers of innermost loops ------===//
#include "LoopBarriers.h"

#include "SharedAtomicsPass.h"
#include "SyncCalls.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {
/// Loops with fewer instructions are not worth a region per iteration.
constexpr unsigned MinLoopInstructions = 12;

/// Iterations a thread runs per region in a loop whose thread loop cannot
/// vectorize: enough to keep its induction variables in registers, few
/// enough that a block's threads still read nearby memory in each round.
constexpr unsigned SerialIterationsPerRegion = 8;

/// Whether \p L holds an atomic: the thread loop around one of its
/// iterations would run serially anyway (atomics on shared memory become
/// plain loads and stores that threads may not run side by side).
bool holdsAtomic(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (I.isAtomic() || I.getMetadata(SharedAtomicMark))
        return true;
  return false;
}

/// Makes the barrier at \p L's header run every SerialIterationsPerRegion
/// iterations (and on entry): a counter at the header, reset at the barrier.
void stripMine(Loop &L, CallInst &Barrier) {
  BasicBlock *Header = L.getHeader();
  BasicBlock *Latch = L.getLoopLatch();
  BasicBlock *Body = Header->splitBasicBlock(Barrier.getNextNode(), "iter");
  if (Latch == Header)
    Latch = Body;
  BasicBlock *Sync = Header->splitBasicBlock(&Barrier, "iter.sync");
  LLVMContext &Ctx = Header->getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  IRBuilder<> B(&Header->front());
  PHINode *Count = B.CreatePHI(I32, 2, "iter.count");
  for (BasicBlock *Pred : predecessors(Header))
    Count->addIncoming(B.getInt32(0), Pred);
  Header->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Header);
  B.CreateCondBr(B.CreateICmpEQ(Count, B.getInt32(0)), Sync, Body);
  B.SetInsertPoint(&*Body->getFirstInsertionPt());
  PHINode *Since = B.CreatePHI(I32, 2, "iter.since");
  Since->addIncoming(B.getInt32(0), Sync);
  Since->addIncoming(Count, Header);
  B.SetInsertPoint(Latch->getTerminator());
  Value *Next = B.CreateAdd(Since, B.getInt32(1));
  Value *Wrapped = B.CreateSelect(
      B.CreateICmpEQ(Next, B.getInt32(SerialIterationsPerRegion)),
      B.getInt32(0), Next, "iter.next");
  Count->setIncomingValueForBlock(Latch, Wrapped);
}
} // namespace

unsigned cucpu::modules::insertLoopBarriers(Function &W, Value *Thread,
                                            ArrayRef<BasicBlock *> SyncBlocks) {
  DominatorTree DT(W);
  LoopInfo LI(DT);
  SmallPtrSet<BasicBlock *, 16> Syncs(SyncBlocks.begin(), SyncBlocks.end());
  SmallVector<Loop *, 8> Loops;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    unsigned Size = 0;
    bool HasSync = false;
    for (BasicBlock *BB : L->blocks()) {
      Size += BB->size();
      HasSync |= Syncs.count(BB) > 0;
    }
    if (!HasSync && Size >= MinLoopInstructions)
      Loops.push_back(L);
  }
  if (Loops.empty())
    return 0;
  FunctionCallee Barrier =
      declareJitService(*W.getParent(), JitService::__cucpu_barrier);
  if (auto *F = dyn_cast<Function>(Barrier.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::Convergent);
  }
  for (Loop *L : Loops) {
    IRBuilder<> B(&*L->getHeader()->getFirstInsertionPt());
    CallInst *Call = B.CreateCall(Barrier, {Thread});
    Call->setMetadata(LoopBarrierMetadata, MDNode::get(W.getContext(), {}));
    if (L->getLoopLatch() && holdsAtomic(*L))
      stripMine(*L, *Call);
  }
  return Loops.size();
}

PreservedAnalyses LoopBarriersPass::run(Module &M, ModuleAnalysisManager &) {
  unsigned Inserted = 0;
  for (Function &W : M) {
    if (W.isDeclaration() || !W.getName().starts_with(WorkPrefix))
      continue;
    SmallVector<BasicBlock *, 8> SyncBlocks;
    bool WarpScope = false;
    for (BasicBlock &BB : W)
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (std::optional<SyncKind> Kind = syncKindOf(*CI)) {
            SyncBlocks.push_back(&BB);
            WarpScope |= isWarpScope(*Kind);
          }
    if (!WarpScope)
      Inserted += insertLoopBarriers(W, W.getArg(unsigned(WorkArg::Thread)),
                                     SyncBlocks);
  }
  return Inserted ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

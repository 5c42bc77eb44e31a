//===- LoopBarriers.cpp - Barriers at the headers of innermost loops ------===//
#include "LoopBarriers.h"

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
} // namespace

unsigned cucpu::modules::insertLoopBarriers(Function &W, Value *Thread,
                                            ArrayRef<BasicBlock *> SyncBlocks) {
  DominatorTree DT(W);
  LoopInfo LI(DT);
  SmallPtrSet<BasicBlock *, 16> Syncs(SyncBlocks.begin(), SyncBlocks.end());
  SmallVector<BasicBlock *, 8> Headers;
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
      Headers.push_back(L->getHeader());
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
    CallInst *Call = B.CreateCall(Barrier, {Thread});
    Call->setMetadata(LoopBarrierMetadata, MDNode::get(Ctx, {}));
  }
  return Headers.size();
}

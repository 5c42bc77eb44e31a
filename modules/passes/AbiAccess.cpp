//===- AbiAccess.cpp - Reading JitAbi.h structures from IR ----------------===//
#include "AbiAccess.h"

#include "cucpu/modules/abi/JitAbi.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

#include <cstddef>

using namespace llvm;

namespace cucpu::modules::abi {

Value *threadArg(Function &F) {
  if (!F.hasFnAttribute(ThreadArgAttr) || F.arg_empty())
    return nullptr;
  return F.getArg(0);
}

static Value *fieldAddress(IRBuilder<> &B, Value *Base, uint64_t Offset) {
  if (Offset == 0)
    return Base;
  return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset);
}

LoadInst *markInvariant(LoadInst *L) {
  L->setMetadata(LLVMContext::MD_invariant_load,
                 MDNode::get(L->getContext(), {}));
  return L;
}

Value *loadField32(IRBuilder<> &B, Value *Base, uint64_t Offset,
                   const Twine &Name) {
  Value *L = B.CreateAlignedLoad(B.getInt32Ty(), fieldAddress(B, Base, Offset),
                                 Align(4), Name);
  return markInvariant(cast<LoadInst>(L));
}

Value *loadFieldPtr(IRBuilder<> &B, Value *Base, uint64_t Offset,
                    const Twine &Name) {
  Value *L = B.CreateAlignedLoad(B.getPtrTy(), fieldAddress(B, Base, Offset),
                                 Align(8), Name);
  return markInvariant(cast<LoadInst>(L));
}

Value *loadBlock(IRBuilder<> &B, Value *Thread) {
  return loadFieldPtr(B, Thread, blockOffset(), "cucpu.block");
}

SmallVector<CallBase *, 8> callsOf(Function &Callee) {
  SmallVector<CallBase *, 8> Calls;
  for (User *U : Callee.users())
    if (auto *CB = dyn_cast<CallBase>(U);
        CB && CB->getCalledOperand() == &Callee)
      Calls.push_back(CB);
  return Calls;
}

void replaceCall(CallBase *Call, Value *V) {
  if (V)
    Call->replaceAllUsesWith(V);
  else if (!Call->use_empty())
    Call->replaceAllUsesWith(PoisonValue::get(Call->getType()));
  Call->eraseFromParent();
}

uint64_t threadIdxOffset(unsigned Dim) {
  return offsetof(CucpuThread, ThreadIdx) + 4 * Dim;
}
uint64_t laneIdOffset() { return offsetof(CucpuThread, LaneId); }
uint64_t warpIdOffset() { return offsetof(CucpuThread, WarpId); }
uint64_t blockOffset() { return offsetof(CucpuThread, Block); }
uint64_t blockIdxOffset(unsigned Dim) {
  return offsetof(CucpuBlock, BlockIdx) + 4 * Dim;
}
uint64_t blockDimOffset(unsigned Dim) {
  return offsetof(CucpuBlock, BlockDim) + 4 * Dim;
}
uint64_t gridDimOffset(unsigned Dim) {
  return offsetof(CucpuBlock, GridDim) + 4 * Dim;
}
uint64_t dynamicSharedOffsetOffset() {
  return offsetof(CucpuBlock, DynamicSharedOffset);
}
uint64_t dynamicSharedBytesOffset() {
  return offsetof(CucpuBlock, DynamicSharedBytes);
}
uint64_t sharedOffset() { return offsetof(CucpuBlock, Shared); }
uint64_t paramsOffset() { return offsetof(CucpuBlock, Params); }
uint64_t texRefsOffset() { return offsetof(CucpuBlock, TexRefs); }

} // namespace cucpu::modules::abi

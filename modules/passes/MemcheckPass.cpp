//===- MemcheckPass.cpp - Checked loads and stores for CUCPU_MEMCHECK ----===//
#include "MemcheckPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/JitServices.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// What an access does, as __cucpu_memcheck's Kind (JitAbi.h), plus
/// SharedFlag when the address derives from the block's shared memory.
enum AccessKind : int32_t { Read = 0, Write = 1, Atomic = 2 };
constexpr int32_t SharedFlag = 4;

/// Whether \p Pointer derives from the block's shared memory: its
/// underlying object is the load of CucpuBlock::Shared (cucpu-shared-memory).
bool derivesFromShared(const Value *Pointer, const DataLayout &DL) {
  const auto *L = dyn_cast<LoadInst>(getUnderlyingObject(Pointer, 0));
  if (!L || !L->hasMetadata(LLVMContext::MD_invariant_load))
    return false;
  APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
  const Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, true);
  const auto *BlockLoad = dyn_cast<LoadInst>(Base);
  return Offset == abi::sharedOffset() && BlockLoad &&
         BlockLoad->hasMetadata(LLVMContext::MD_invariant_load);
}

/// One access to check.
struct Access {
  Instruction *At;
  Value *Pointer;
  Value *Size; ///< i64
  AccessKind Kind;
};

/// Whether \p Pointer certainly points into memory no check is needed for:
/// the thread's own allocas and the module's private constants (tables the
/// compiler made).
bool needsNoCheck(const Value *Pointer) {
  const Value *Base = getUnderlyingObject(Pointer, 0);
  if (isa<AllocaInst>(Base))
    return true;
  if (const auto *GV = dyn_cast<GlobalVariable>(Base))
    return GV->isConstant() && GV->hasLocalLinkage();
  return false;
}

/// The accesses of \p F to check.
SmallVector<Access, 32> accessesOf(Function &F, const DataLayout &DL) {
  SmallVector<Access, 32> Found;
  LLVMContext &Ctx = F.getContext();
  auto Bytes = [&](Type *T) {
    return ConstantInt::get(Type::getInt64Ty(Ctx),
                            DL.getTypeStoreSize(T).getFixedValue());
  };
  for (Instruction &I : instructions(F)) {
    // The runtime's own structures (thread, block, parameters) are read
    // through invariant loads.
    if (I.hasMetadata(LLVMContext::MD_invariant_load))
      continue;
    if (auto *L = dyn_cast<LoadInst>(&I))
      Found.push_back({L, L->getPointerOperand(), Bytes(L->getType()), Read});
    else if (auto *S = dyn_cast<StoreInst>(&I))
      Found.push_back({S, S->getPointerOperand(),
                       Bytes(S->getValueOperand()->getType()), Write});
    else if (auto *A = dyn_cast<AtomicRMWInst>(&I))
      Found.push_back({A, A->getPointerOperand(),
                       Bytes(A->getValOperand()->getType()), Atomic});
    else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      Found.push_back({X, X->getPointerOperand(),
                       Bytes(X->getNewValOperand()->getType()), Atomic});
    else if (auto *T = dyn_cast<MemTransferInst>(&I)) {
      Found.push_back({T, T->getRawDest(), T->getLength(), Write});
      Found.push_back({T, T->getRawSource(), T->getLength(), Read});
    } else if (auto *S = dyn_cast<MemSetInst>(&I))
      Found.push_back({S, S->getRawDest(), S->getLength(), Write});
  }
  llvm::erase_if(Found,
                 [](const Access &A) { return needsNoCheck(A.Pointer); });
  return Found;
}

} // namespace

PreservedAnalyses MemcheckPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *Ptr = PointerType::get(Ctx, 0);
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee Check = declareJitService(M, JitService::__cucpu_memcheck);
  if (auto *F = dyn_cast<Function>(Check.getCallee()))
    F->addFnAttr(Attribute::NoUnwind);
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    Value *Thread = abi::threadArg(F);
    if (!Thread)
      continue;
    for (const Access &A : accessesOf(F, DL)) {
      IRBuilder<> B(A.At);
      Value *Address = B.CreatePointerBitCastOrAddrSpaceCast(A.Pointer, Ptr);
      Value *Size = B.CreateZExtOrTrunc(A.Size, I64);
      int32_t Kind =
          A.Kind | (derivesFromShared(A.Pointer, DL) ? SharedFlag : 0);
      B.CreateCall(Check, {Thread, Address, Size, ConstantInt::get(I32, Kind)});
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- ThreadArgPass.cpp - Thread the CucpuThread* through every call -----===//
//
// JIT-compiled code must find its thread's state (threadIdx, the block, the
// engine) without thread-local storage: the engine runs many CUDA threads on
// one OS thread (fibers now, thread loops later), so TLS would be wrong or
// need saving on every switch. Instead every function defined in the module
// gets the CucpuThread* as a hidden first parameter, and every call passes
// its caller's on. Declarations (runtime library, engine services) are left
// alone: the passes that lower calls to them add the thread where needed.
//
//===----------------------------------------------------------------------===//
#include "ThreadArgPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

/// \p Attrs with an empty parameter slot in front, for the hidden thread.
static AttributeList shiftParams(LLVMContext &Ctx, AttributeList Attrs,
                                 unsigned NumParams) {
  SmallVector<AttributeSet, 8> Params;
  Params.push_back(AttributeSet());
  for (unsigned I = 0; I < NumParams; ++I)
    Params.push_back(Attrs.getParamAttrs(I));
  // allocsize names parameters by index (clang puts it on operator new and
  // new[]): they move one place right, or the module does not verify.
  AttributeSet FnAttrs = Attrs.getFnAttrs();
  if (auto AllocSize = FnAttrs.getAllocSizeArgs()) {
    std::optional<unsigned> NumElems;
    if (AllocSize->second)
      NumElems = *AllocSize->second + 1;
    AttrBuilder B(Ctx, FnAttrs);
    B.removeAttribute(Attribute::AllocSize);
    B.addAllocSizeAttr(AllocSize->first + 1, NumElems);
    FnAttrs = AttributeSet::get(Ctx, B);
  }
  return AttributeList::get(Ctx, FnAttrs, Attrs.getRetAttrs(), Params);
}

/// Re-creates \p CB calling \p Callee of type \p Ty with \p Thread first.
static void rebuildCall(CallBase *CB, FunctionType *Ty, Value *Callee,
                        Value *Thread) {
  SmallVector<Value *, 8> Args;
  Args.push_back(Thread);
  Args.append(CB->arg_begin(), CB->arg_end());
  SmallVector<OperandBundleDef, 1> Bundles;
  CB->getOperandBundlesAsDefs(Bundles);
  auto *Call =
      CallInst::Create(Ty, Callee, Args, Bundles, "", CB->getIterator());
  Call->takeName(CB);
  Call->setCallingConv(CB->getCallingConv());
  Call->setAttributes(
      shiftParams(CB->getContext(), CB->getAttributes(), CB->arg_size()));
  if (auto *CI = dyn_cast<CallInst>(CB))
    Call->setTailCallKind(CI->getTailCallKind());
  Call->copyMetadata(*CB);
  Call->setDebugLoc(CB->getDebugLoc());
  CB->replaceAllUsesWith(Call);
  CB->eraseFromParent();
}

PreservedAnalyses ThreadArgPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::get(Ctx, 0);

  SmallVector<Function *, 16> Defined;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(ThreadArgAttr))
      Defined.push_back(&F);

  DenseMap<Function *, Function *> NewOf;
  for (Function *F : Defined) {
    FunctionType *OldTy = F->getFunctionType();
    SmallVector<Type *, 8> Params{PtrTy};
    Params.append(OldTy->param_begin(), OldTy->param_end());
    auto *NewTy =
        FunctionType::get(OldTy->getReturnType(), Params, OldTy->isVarArg());
    Function *NF =
        Function::Create(NewTy, F->getLinkage(), F->getAddressSpace(), "", &M);
    NF->copyAttributesFrom(F);
    NF->setAttributes(
        shiftParams(Ctx, F->getAttributes(), OldTy->getNumParams()));
    NF->addFnAttr(ThreadArgAttr);
    NF->copyMetadata(F, 0);
    NF->splice(NF->end(), F);
    for (unsigned I = 0; I < OldTy->getNumParams(); ++I) {
      F->getArg(I)->replaceAllUsesWith(NF->getArg(I + 1));
      NF->getArg(I + 1)->takeName(F->getArg(I));
    }
    NF->getArg(0)->setName("cucpu.thread");
    NF->takeName(F);
    NewOf[F] = NF;
  }

  for (Function *F : Defined) {
    Function *NF = NewOf[F];
    for (Use &U : make_early_inc_range(F->uses())) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U))
        continue;
      Value *Thread = abi::threadArg(*CB->getFunction());
      if (!Thread || !isa<CallInst>(CB) ||
          CB->arg_size() != F->getFunctionType()->getNumParams()) {
        reportLoweringError(
            M.getContext(), LoweringFailure::Unsupported,
            "A call of " + NF->getName() +
                " in the module cannot be given the thread pointer.");
        continue;
      }
      rebuildCall(CB, NF->getFunctionType(), NF, Thread);
    }
    // Function pointers (stored, compared, called indirectly) now point to
    // the new function; indirect calls pass the thread below.
    F->replaceAllUsesWith(NF);
    F->eraseFromParent();
  }

  // Indirect calls can only reach functions defined in the module (device
  // code cannot take the address of a host or runtime function), so they
  // pass the thread too.
  for (Function *F : Defined) {
    Function *NF = NewOf[F];
    Value *Thread = abi::threadArg(*NF);
    SmallVector<CallBase *, 4> Indirect;
    for (Instruction &I : instructions(*NF))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->isIndirectCall())
          Indirect.push_back(CB);
    for (CallBase *CB : Indirect) {
      if (!isa<CallInst>(CB)) {
        reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                            "Function " + NF->getName() +
                                " uses an invoke, which device code cannot.");
        continue;
      }
      FunctionType *OldTy = CB->getFunctionType();
      SmallVector<Type *, 8> Params{PtrTy};
      Params.append(OldTy->param_begin(), OldTy->param_end());
      rebuildCall(
          CB,
          FunctionType::get(OldTy->getReturnType(), Params, OldTy->isVarArg()),
          CB->getCalledOperand(), Thread);
    }
  }
  return PreservedAnalyses::none();
}

//===- DeviceCallsPass.cpp - printf, assert and trap with the thread ------===//
#include "DeviceCallsPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

FunctionCallee declare(Module &M, JitService S, bool NoReturn) {
  FunctionCallee Callee = declareJitService(M, S);
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    if (NoReturn)
      F->addFnAttr(Attribute::NoReturn);
  }
  return Callee;
}

/// Calls \p Callee with the thread and \p Args in place of \p CB.
void replaceWith(CallBase *CB, FunctionCallee Callee, Value *T,
                 ArrayRef<Value *> Args, bool NoReturn) {
  IRBuilder<> B(CB);
  SmallVector<Value *, 6> All{T};
  All.append(Args.begin(), Args.end());
  CallInst *Call = B.CreateCall(Callee, All);
  if (NoReturn)
    Call->setDoesNotReturn();
  Value *Result = nullptr;
  if (!CB->getType()->isVoidTy())
    Result = B.CreateZExtOrTrunc(Call, CB->getType());
  abi::replaceCall(CB, Result);
}

} // namespace

PreservedAnalyses DeviceCallsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  bool Changed = false;

  auto Lower = [&](StringRef Name, auto &&Rewrite) {
    Function *F = M.getFunction(Name);
    if (!F || !F->isDeclaration())
      return;
    for (CallBase *CB : abi::callsOf(*F)) {
      Value *T = abi::threadArg(*CB->getFunction());
      if (!T) {
        reportLoweringError(M.getContext(), LoweringFailure::Internal,
                            "Call of " + Name + " outside a device function.");
        return;
      }
      Rewrite(CB, T);
      Changed = true;
    }
    if (F->use_empty())
      F->eraseFromParent();
  };

  // int vprintf(const char *Format, const char *Args): the NVVM printf ABI.
  Lower("vprintf", [&](CallBase *CB, Value *T) {
    if (CB->arg_size() != 2) {
      reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                          "vprintf takes two arguments.");
      return;
    }
    replaceWith(CB, declare(M, JitService::__cucpu_vprintf, false), T,
                {CB->getArgOperand(0), CB->getArgOperand(1)}, false);
  });
  // CUDA's __assertfail(message, file, line, function, charSize) and glibc's
  // __assert_fail(assertion, file, line, function).
  for (StringRef Name : {"__assertfail", "__assert_fail"})
    Lower(Name, [&](CallBase *CB, Value *T) {
      if (CB->arg_size() < 4) {
        reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                            Name + " takes at least four arguments.");
        return;
      }
      IRBuilder<> B(CB);
      Value *Line = B.CreateZExtOrTrunc(CB->getArgOperand(2), I32);
      replaceWith(CB, declare(M, JitService::__cucpu_assert_fail, true), T,
                  {CB->getArgOperand(0), CB->getArgOperand(1), Line,
                   CB->getArgOperand(3)},
                  true);
    });
  for (StringRef Name : {"llvm.trap", "llvm.ubsantrap", "abort"})
    Lower(Name, [&](CallBase *CB, Value *T) {
      replaceWith(CB, declare(M, JitService::__cucpu_trap, true), T, {}, true);
    });
  // A breakpoint for a debugger cucpu does not have: nothing to do.
  Lower("llvm.debugtrap",
        [&](CallBase *CB, Value *) { abi::replaceCall(CB, nullptr); });
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

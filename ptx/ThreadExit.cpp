//===- ThreadExit.cpp - exit inside device functions ----------------------===//

#include "ThreadExit.h"
#include "PtxError.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace cucpu::ptx {

namespace {

/// Whether \p F is a kernel (of the ptx_kernel calling convention, or
/// listed in nvvm.annotations).
bool isKernel(const llvm::Function &F, const llvm::Module &M) {
  if (F.getCallingConv() == llvm::CallingConv::PTX_Kernel)
    return true;
  const llvm::NamedMDNode *MD = M.getNamedMetadata("nvvm.annotations");
  if (!MD)
    return false;
  for (const llvm::MDNode *Node : MD->operands())
    if (Node->getNumOperands() >= 2)
      if (auto *V = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(
              Node->getOperand(0).get()))
        if (V->getValue() == &F)
          return true;
  return false;
}

/// Replaces the marker calls in \p F with llvm.trap.
void trapInstead(llvm::Function &Marker, llvm::Function &F) {
  llvm::SmallVector<llvm::CallInst *, 4> Markers;
  for (llvm::User *U : Marker.users())
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
        Call && Call->getFunction() == &F)
      Markers.push_back(Call);
  for (llvm::CallInst *Call : Markers) {
    llvm::CallInst::Create(
        llvm::Intrinsic::getDeclaration(F.getParent(), llvm::Intrinsic::trap),
        "", Call);
    Call->eraseFromParent();
  }
}

} // namespace

llvm::Error lowerThreadExits(llvm::Module &M) {
  llvm::Function *Marker = M.getFunction(ThreadExitName);
  if (!Marker)
    return llvm::Error::success();
  // Each round inlines the non-kernel functions that call the marker into
  // their callers; the marker moves up one level of calls per round.
  for (unsigned Round = 0;; ++Round) {
    llvm::SetVector<llvm::Function *> Exiting;
    for (llvm::User *U : Marker->users())
      if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U))
        if (!isKernel(*Call->getFunction(), M))
          Exiting.insert(Call->getFunction());
    if (Exiting.empty())
      break;
    if (Round > 64)
      return ptxError(0, "exit in device functions nested more than 64 "
                         "calls deep, or in recursive ones, is not "
                         "supported");
    for (llvm::Function *F : Exiting) {
      llvm::SmallVector<llvm::CallBase *, 8> Calls;
      for (llvm::User *U : F->users()) {
        auto *Call = llvm::dyn_cast<llvm::CallBase>(U);
        if (!Call || Call->getCalledFunction() != F)
          return ptxError(0, "device function " + F->getName() +
                                 " executes exit and is called indirectly, "
                                 "which is not supported");
        if (Call->getFunction() == F)
          return ptxError(0, "device function " + F->getName() +
                                 " executes exit and calls itself, which is "
                                 "not supported");
        Calls.push_back(Call);
      }
      for (llvm::CallBase *Call : Calls) {
        llvm::InlineFunctionInfo Info;
        llvm::InlineResult R = llvm::InlineFunction(*Call, Info);
        if (!R.isSuccess())
          return ptxError(0, "device function " + F->getName() +
                                 " executes exit and cannot be inlined: " +
                                 R.getFailureReason());
      }
      // Nothing here calls it any more. An internal function goes; one
      // another module may call (or dead code such as the weak
      // __cxa_pure_virtual clang writes as trap; exit) keeps its body, but
      // a caller elsewhere cannot be made to return, so there its exit
      // traps, failing the launch rather than running on.
      if (F->hasLocalLinkage())
        F->eraseFromParent();
      else
        trapInstead(*Marker, *F);
    }
  }
  // In a kernel, ending the thread is returning.
  llvm::SmallVector<llvm::CallInst *, 8> Exits;
  for (llvm::User *U : Marker->users())
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U))
      Exits.push_back(Call);
  for (llvm::CallInst *Call : Exits) {
    llvm::BasicBlock *BB = Call->getParent();
    BB->getTerminator()->eraseFromParent(); // unreachable
    llvm::ReturnInst::Create(M.getContext(), BB);
    Call->eraseFromParent();
  }
  Marker->eraseFromParent();
  return llvm::Error::success();
}

} // namespace cucpu::ptx

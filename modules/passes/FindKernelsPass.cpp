//===- FindKernelsPass.cpp - Mark the __global__ functions ----------------===//
#include "FindKernelsPass.h"

#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses FindKernelsPass::run(Module &M, ModuleAnalysisManager &) {
  // clang 19 lists kernels in !nvvm.annotations as {ptr @k, !"kernel", i32 1};
  // newer clang gives them the ptx_kernel calling convention. Accept both.
  for (Function &F : M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::PTX_Kernel)
      F.addFnAttr(KernelAttr);
  if (NamedMDNode *Annotations = M.getNamedMetadata("nvvm.annotations")) {
    for (MDNode *Node : Annotations->operands()) {
      for (unsigned I = 1; I + 1 < Node->getNumOperands(); I += 2) {
        auto *Key = dyn_cast<MDString>(Node->getOperand(I));
        if (!Key || Key->getString() != "kernel")
          continue;
        auto *Value =
            mdconst::dyn_extract_or_null<ConstantInt>(Node->getOperand(I + 1));
        auto *F = mdconst::dyn_extract_or_null<Function>(Node->getOperand(0));
        if (F && Value && !Value->isZero()) {
          if (F->isDeclaration())
            reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                                "Kernel " + F->getName() +
                                    " is annotated but has no body.");
          else
            F->addFnAttr(KernelAttr);
        }
      }
    }
    // The other annotations (maxntid, minctasm, ...) are hints for ptxas.
    Annotations->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

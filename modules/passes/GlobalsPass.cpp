//===- GlobalsPass.cpp - __device__ / __constant__ as instance globals ----===//
//
// Module-scope variables live in the module instance (one JITDylib per load,
// so per context), which is what CUDA specifies: "__device__ ... has the
// lifetime of the CUDA context in which it is created". They move to the
// default address space; the old address space stays visible to their users
// through a no-op addrspacecast. They keep their names and get external
// linkage so that cuModuleGetGlobal finds them and the optimizer keeps them
// (the host writes them behind the kernel's back: externally_initialized
// stays).
//
//===----------------------------------------------------------------------===//
#include "GlobalsPass.h"

#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses GlobalsPass::run(Module &M, ModuleAnalysisManager &) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<GlobalVariable *, 8> Moved;
  for (GlobalVariable &GV : make_early_inc_range(M.globals())) {
    unsigned AS = GV.getAddressSpace();
    if (AS == 1 || AS == 4) {
      // A declaration nothing uses goes: clang keeps those of threadIdx,
      // blockIdx, blockDim and gridDim at -O0 (cucc -G), after inlining
      // their accessors, and an -rdc image those it does not reach.
      if (GV.isDeclaration() && GV.use_empty())
        GV.eraseFromParent();
      else
        Moved.push_back(&GV);
    } else if (AS != 0) {
      reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                          "Variable " + GV.getName() + " is in address space " +
                              Twine(AS) + ", which cucpu does not support.");
      return PreservedAnalyses::none();
    }
  }
  // Relocatable device code (cucc -rdc) declares the variables that another
  // image defines: each one it uses is a symbol only a link supplies.
  if (readImageDescription(M).Relocatable) {
    bool Missing = false;
    for (GlobalVariable *GV : Moved) {
      if (!GV->isDeclaration())
        continue;
      reportLoweringError(
          M.getContext(), LoweringFailure::NotFound,
          "The relocatable image (compiled with -rdc) uses variable " +
              GV->getName() +
              ", which it does not define; link it with the image "
              "that defines it (cuLinkCreate, cuLinkAddData, "
              "cuLinkComplete) and load the linked image.");
      Missing = true;
    }
    if (Missing)
      return PreservedAnalyses::none();
  }
  for (GlobalVariable *GV : Moved) {
    if (GV->isDeclaration()) {
      reportLoweringError(
          M.getContext(), LoweringFailure::Unsupported,
          "Variable " + GV->getName() +
              " is declared but not defined in the module (separate "
              "compilation is not supported).");
      return PreservedAnalyses::none();
    }
    auto *NG = new GlobalVariable(M, GV->getValueType(), GV->isConstant(),
                                  GV->getLinkage(), GV->getInitializer(), "",
                                  GV, GV->getThreadLocalMode(), 0,
                                  GV->isExternallyInitialized());
    NG->copyAttributesFrom(GV);
    NG->takeName(GV);
    if (NG->hasLocalLinkage() && !NG->hasPrivateLinkage()) {
      NG->setLinkage(GlobalValue::ExternalLinkage);
      NG->setVisibility(GlobalValue::DefaultVisibility);
    }
    NG->setAlignment(GV->getAlign().value_or(DL.getPreferredAlign(GV)));
    GV->replaceAllUsesWith(ConstantExpr::getAddrSpaceCast(NG, GV->getType()));
    GV->eraseFromParent();
    if (!NG->hasPrivateLinkage())
      recordGlobalSize(M, NG->getName(),
                       DL.getTypeAllocSize(NG->getValueType()));
  }
  return PreservedAnalyses::none();
}

//===- CheckLoweredPass.cpp - Only what the host can run remains ----------===//
//
// The host backend aborts the process on an NVVM intrinsic or PTX assembly,
// and an unresolved external only fails when the JIT links. Both are
// caught here, at load time, with a message naming the culprit.
//
//===----------------------------------------------------------------------===//
#include "CheckLoweredPass.h"

#include "ExternalSymbols.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses CheckLoweredPass::run(Module &M, ModuleAnalysisManager &AM) {
  const ExternalSymbolsAnalysis::Result &External =
      AM.getResult<ExternalSymbolsAnalysis>(M);
  // Relocatable device code (cucc -rdc) leaves to the linker what another
  // image defines: loading one that still needs a definition is a symbol
  // that was not found, and the message says how to link.
  bool Relocatable = readImageDescription(M).Relocatable;
  auto Unresolved = [&](const Twine &What) {
    reportLoweringError(
        M.getContext(), LoweringFailure::NotFound,
        "The relocatable image (compiled with -rdc) uses " + What +
            ", which it does not define; link it with the image that "
            "defines it (cuLinkCreate, cuLinkAddData, cuLinkComplete) "
            "and load the linked image.");
  };
  for (Function &F : M) {
    if (F.isDeclaration()) {
      if (F.use_empty())
        continue;
      StringRef Name = F.getName();
      if (Name.starts_with("llvm.nvvm."))
        reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                            "The module uses the NVVM intrinsic " + Name +
                                ", which cucpu cannot run on the CPU.");
      else if (!F.isIntrinsic() && !External.contains(Name) && Relocatable)
        Unresolved("function " + Name);
      else if (!F.isIntrinsic() && !External.contains(Name))
        reportLoweringError(
            M.getContext(), LoweringFailure::Unsupported,
            "The module calls " + Name +
                ", which is neither defined in it nor provided by "
                "cucpu's runtime.");
      continue;
    }
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto *Asm = dyn_cast<InlineAsm>(CB->getCalledOperand()))
          reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                              "Function " + F.getName() +
                                  " contains inline PTX assembly (\"" +
                                  Asm->getAsmString() +
                                  "\"), which cucpu cannot run on the CPU.");
    // Only the thread entries are called from outside; everything else may
    // be inlined into them and dropped.
    if (!F.getName().starts_with(ThreadEntryPrefix) && !F.hasLocalLinkage())
      F.setLinkage(GlobalValue::InternalLinkage);
  }
  for (GlobalVariable &GV : M.globals())
    if (GV.isDeclaration() && !GV.use_empty() &&
        !External.contains(GV.getName()) && Relocatable) {
      // Module variables (address spaces 1 and 4) were named by
      // cucpu-globals already.
      if (GV.getAddressSpace() != 1 && GV.getAddressSpace() != 4)
        Unresolved("variable " + GV.getName());
    } else if (GV.isDeclaration() && !GV.use_empty() &&
               !External.contains(GV.getName()))
      reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                          "The module uses variable " + GV.getName() +
                              ", which it does not define.");
  return PreservedAnalyses::none();
}

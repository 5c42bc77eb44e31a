//===- BlockFunctionPass.cpp - Block functions for every kernel -----------===//
#include "BlockFunctionPass.h"

#include "BlockFunctionEmitter.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::modules;
using blockfn::RegionForm;

PreservedAnalyses BlockFunctionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Works;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(WorkPrefix))
      Works.push_back(&F);
  if (Works.empty())
    return PreservedAnalyses::all();
  for (Function *W : Works) {
    std::string Kernel =
        W->getName().drop_front(StringRef(WorkPrefix).size()).str();
    RegionForm Form;
    if (std::optional<std::string> Bad = RegionForm::read(*W, Form)) {
      reportLoweringError(M.getContext(), LoweringFailure::Internal,
                          "The work function of kernel '" + Kernel +
                              "' is not in region form (run " +
                              "cucpu-form-regions first): " + *Bad + ".");
      continue;
    }
    uint64_t FrameBytes = Form.Frame.Bytes;
    if (FrameBytes > UINT32_MAX) {
      // Known from the form: no block function to emit and drop.
      recordFallbackReason(M, Kernel,
                           "its threads need too much private memory");
      W->eraseFromParent();
      continue;
    }
    RegionForm::erase(*W);
    Function *BF =
        blockfn::BlockFunctionEmitter(*W, Kernel, std::move(Form)).run();
    std::optional<std::string> Why;
    std::string Problems;
    raw_string_ostream OS(Problems);
    if (verifyFunction(*BF, &OS))
      Why =
          "its block function does not verify (an internal error): " + Problems;
    else if (unsigned Size = BF->getInstructionCount(); Size > MaxInstructions)
      Why = formatv("its block function has {0} instructions, more than {1}: "
                    "it would take minutes to compile",
                    Size, MaxInstructions)
                .str();
    if (Why) {
      BF->eraseFromParent();
      recordFallbackReason(M, Kernel, *Why);
    } else {
      recordKernelFrame(M, Kernel, static_cast<uint32_t>(FrameBytes));
    }
    W->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

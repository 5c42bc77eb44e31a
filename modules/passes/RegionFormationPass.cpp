//===- RegionFormationPass.cpp - Regions for every kernel -----------------===//
#include "RegionFormationPass.h"

#include "ExternalSymbols.h"
#include "RegionFormation.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses RegionFormationPass::run(Module &M,
                                           ModuleAnalysisManager &AM) {
  SmallVector<Function *, 8> Works;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(WorkPrefix) &&
        !blockfn::RegionForm::isRegionForm(F))
      Works.push_back(&F);
  if (Works.empty())
    return PreservedAnalyses::all();
  const ExternalSymbolsAnalysis::Result &External =
      AM.getResult<ExternalSymbolsAnalysis>(M);
  bool HasServices =
      External.contains(jitServiceSymbol(JitService::__cucpu_warp_exchange)) &&
      External.contains(jitServiceSymbol(JitService::__cucpu_block_reduce));
  for (Function *W : Works) {
    std::optional<std::string> Why;
    if (!HasServices)
      Why = "the engine has no services for block functions";
    else
      Why = blockfn::RegionFormation(*W, StageLog).run();
    if (Why) {
      recordFallbackReason(
          M, W->getName().drop_front(StringRef(WorkPrefix).size()), *Why);
      W->eraseFromParent();
    }
  }
  return PreservedAnalyses::none();
}

//===- BlockFunctionPass.cpp - Block functions for every kernel -----------===//
//
// See BlockFunctionBuilder.h for how a block function is formed.
//
//===----------------------------------------------------------------------===//
#include "BlockFunctionPass.h"

#include "BlockFunctionBuilder.h"
#include "ExternalSymbols.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::modules;
using blockfn::BlockFunctionBuilder;

PreservedAnalyses BlockFunctionPass::run(Module &M, ModuleAnalysisManager &AM) {
  SmallVector<Function *, 8> Works;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(WorkPrefix))
      Works.push_back(&F);
  if (Works.empty())
    return PreservedAnalyses::all();
  const ExternalSymbolsAnalysis::Result &External =
      AM.getResult<ExternalSymbolsAnalysis>(M);
  bool HasServices =
      External.contains(jitServiceSymbol(JitService::__cucpu_warp_exchange)) &&
      External.contains(jitServiceSymbol(JitService::__cucpu_block_reduce));
  for (Function *W : Works) {
    std::string Kernel =
        W->getName().drop_front(StringRef(WorkPrefix).size()).str();
    BlockFunctionBuilder Builder(*W, Kernel, StageLog);
    std::optional<std::string> Why;
    if (!HasServices)
      Why = "the engine has no services for block functions";
    else
      Why = Builder.build();
    if (!Why) {
      Function *BF = M.getFunction(BlockPrefix + Kernel);
      std::string Problems;
      raw_string_ostream OS(Problems);
      if (verifyFunction(*BF, &OS)) {
        Why = "its block function does not verify (an internal error): " +
              Problems;
        BF->eraseFromParent();
      } else if (Builder.frameBytes() > UINT32_MAX) {
        Why = "its threads need too much private memory";
        BF->eraseFromParent();
      } else if (unsigned Size = BF->getInstructionCount();
                 Size > MaxInstructions) {
        Why = formatv("its block function has {0} instructions, more than "
                      "{1}: it would take minutes to compile",
                      Size, MaxInstructions)
                  .str();
        BF->eraseFromParent();
      } else {
        recordKernelFrame(M, Kernel,
                          static_cast<uint32_t>(Builder.frameBytes()));
      }
    } else if (Function *BF = M.getFunction(BlockPrefix + Kernel)) {
      BF->eraseFromParent();
    }
    if (Why)
      recordFallbackReason(M, Kernel, *Why);
    W->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

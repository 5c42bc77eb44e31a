//===- BlockFunctionPass.cpp - Block functions for every kernel -----------===//
//
// See BlockFunctionBuilder.h for how a block function is formed.
//
//===----------------------------------------------------------------------===//
#include "BlockFunctionPass.h"

#include "BlockFunctionBuilder.h"
#include "JitServices.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::modules;
using blockfn::BlockFunctionBuilder;

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
    BlockFunctionBuilder Builder(*W, Kernel);
    std::optional<std::string> Why;
    if (!State.ExternalSymbols.count(
            jitServiceSymbol(JitService::__cucpu_warp_exchange)) ||
        !State.ExternalSymbols.count(
            jitServiceSymbol(JitService::__cucpu_block_reduce)))
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
      } else {
        State.KernelFrame[Kernel] = static_cast<uint32_t>(Builder.frameBytes());
      }
    } else if (Function *BF = M.getFunction(BlockPrefix + Kernel)) {
      BF->eraseFromParent();
    }
    if (Why)
      State.FallbackReasons[Kernel] = *Why;
    W->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

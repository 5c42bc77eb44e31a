//===- PassRegistry.cpp - The GPU-to-CPU passes by name -------------------===//
#include "cucpu/modules/passes/PassRegistry.h"

#include "BlockFunctionPass.h"
#include "CheckLoweredPass.h"
#include "DebugBuiltinsPass.h"
#include "DeviceCallsPass.h"
#include "ExportGlobalsPass.h"
#include "ExternalSymbols.h"
#include "FindKernelsPass.h"
#include "FloatToIntPass.h"
#include "GlobalsPass.h"
#include "HostTargetPass.h"
#include "InductionRebasingPass.h"
#include "InlineAsmPass.h"
#include "InvariantDivisionsPass.h"
#include "LoopBarriers.h"
#include "MathIntrinsicsPass.h"
#include "MemcheckPass.h"
#include "NvvmMathPass.h"
#include "NvvmMemoryPass.h"
#include "NvvmReflectPass.h"
#include "RegionFormationPass.h"
#include "SharedAtomicsPass.h"
#include "SharedMemoryPass.h"
#include "SpecialRegistersPass.h"
#include "SyncPass.h"
#include "TexturesPass.h"
#include "ThreadArgPass.h"
#include "ThreadDivergence.h"
#include "ThreadEntryPass.h"
#include "ThreadLoopVersioningPass.h"
#include "WarpLockstepPass.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/passes/JitServices.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace cucpu::modules {

void registerLoweringPasses(PassBuilder &PB, const TargetMachine *TM) {
  PB.registerPipelineParsingCallback(
      [TM](StringRef Name, ModulePassManager &MPM,
           ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == InlineAsmPass::PipelineName) {
          MPM.addPass(InlineAsmPass());
          return true;
        }
        if (Name == NvvmReflectPass::PipelineName) {
          MPM.addPass(NvvmReflectPass());
          return true;
        }
        if (Name == FloatToIntPass::PipelineName) {
          MPM.addPass(FloatToIntPass());
          return true;
        }
        if (Name == FindKernelsPass::PipelineName) {
          MPM.addPass(FindKernelsPass());
          return true;
        }
        if (Name == HostTargetPass::PipelineName && TM) {
          MPM.addPass(
              HostTargetPass(TM->getTargetTriple(), TM->createDataLayout()));
          return true;
        }
        if (Name == ThreadArgPass::PipelineName) {
          MPM.addPass(ThreadArgPass());
          return true;
        }
        if (Name == DebugBuiltinsPass::PipelineName) {
          MPM.addPass(DebugBuiltinsPass());
          return true;
        }
        if (Name == SpecialRegistersPass::PipelineName) {
          MPM.addPass(SpecialRegistersPass());
          return true;
        }
        if (Name == TexturesPass::PipelineName) {
          MPM.addPass(TexturesPass());
          return true;
        }
        if (Name == SyncPass::PipelineName) {
          MPM.addPass(SyncPass());
          return true;
        }
        if (Name == WarpLockstepPass::PipelineName) {
          MPM.addPass(WarpLockstepPass());
          return true;
        }
        if (Name == DeviceCallsPass::PipelineName) {
          MPM.addPass(DeviceCallsPass());
          return true;
        }
        if (Name == NvvmMemoryPass::PipelineName) {
          MPM.addPass(NvvmMemoryPass());
          return true;
        }
        if (Name == NvvmMathPass::PipelineName) {
          MPM.addPass(NvvmMathPass());
          return true;
        }
        if (Name == SharedMemoryPass::PipelineName) {
          MPM.addPass(SharedMemoryPass());
          return true;
        }
        if (Name == GlobalsPass::PipelineName) {
          MPM.addPass(GlobalsPass());
          return true;
        }
        if (Name == ThreadEntryPass::PipelineName) {
          MPM.addPass(ThreadEntryPass());
          return true;
        }
        if (Name == MemcheckPass::PipelineName) {
          MPM.addPass(MemcheckPass());
          return true;
        }
        if (Name == MathIntrinsicsPass::PipelineName) {
          MPM.addPass(MathIntrinsicsPass());
          return true;
        }
        if (Name == WorkFunctionPass::PipelineName) {
          MPM.addPass(WorkFunctionPass());
          return true;
        }
        if (Name == SharedAtomicsPass::PipelineName) {
          MPM.addPass(SharedAtomicsPass());
          return true;
        }
        if (Name == LoopBarriersPass::PipelineName) {
          MPM.addPass(LoopBarriersPass());
          return true;
        }
        if (Name == InductionRebasingPass::PipelineName) {
          MPM.addPass(InductionRebasingPass());
          return true;
        }
        if (Name == RegionFormationPass::PipelineName) {
          MPM.addPass(RegionFormationPass());
          return true;
        }
        if (Name == RegionFormationPass::PrintStagesName) {
          MPM.addPass(RegionFormationPass(&errs()));
          return true;
        }
        if (Name == BlockFunctionPass::PipelineName) {
          MPM.addPass(BlockFunctionPass());
          return true;
        }
        if (StringRef Max = Name;
            Max.consume_front(BlockFunctionPass::MaxInstructionsPrefix) &&
            Max.consume_back(">")) {
          unsigned Limit;
          if (Max.getAsInteger(10, Limit))
            return false;
          MPM.addPass(BlockFunctionPass(Limit));
          return true;
        }
        if (StringRef Both = Name;
            Both.consume_front(BlockFunctionPass::FormAndEmitName)) {
          // cucpu-block-functions[<print-stages>|<max-instructions=N>]
          raw_ostream *StageLog = nullptr;
          unsigned Limit = BlockFunctionPass::DefaultMaxInstructions;
          if (Both == "<print-stages>")
            StageLog = &errs();
          else if (Both.consume_front("<max-instructions=") &&
                   Both.consume_back(">")) {
            if (Both.getAsInteger(10, Limit))
              return false;
          } else if (!Both.empty())
            return false;
          MPM.addPass(RegionFormationPass(StageLog));
          MPM.addPass(BlockFunctionPass(Limit));
          return true;
        }
        if (Name == ExportGlobalsPass::PipelineName) {
          MPM.addPass(ExportGlobalsPass());
          return true;
        }
        if (Name == CheckJitServicesPass::PipelineName) {
          MPM.addPass(CheckJitServicesPass());
          return true;
        }
        if (Name == CheckLoweredPass::PipelineName) {
          MPM.addPass(CheckLoweredPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == ThreadLoopVersioningPass::PipelineName) {
          FPM.addPass(ThreadLoopVersioningPass());
          return true;
        }
        if (Name == InvariantDivisionsPass::PipelineName) {
          FPM.addPass(InvariantDivisionsPass());
          return true;
        }
        if (Name == ThreadDivergencePrinterPass::PipelineName) {
          FPM.addPass(ThreadDivergencePrinterPass(outs()));
          return true;
        }
        return false;
      });
  // Thread loops get their fast versions where the vectorizer sees them;
  // then the loops, versions included, lose the divisions it miscompiles.
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(ThreadLoopVersioningPass());
        FPM.addPass(InvariantDivisionsPass());
      });
}

void registerLoweringAnalyses(ModuleAnalysisManager &MAM,
                              FunctionAnalysisManager &FAM,
                              const StringSet<> &ExternalSymbols) {
  MAM.registerPass([&] { return ExternalSymbolsAnalysis(ExternalSymbols); });
  FAM.registerPass([] { return ThreadDivergenceAnalysis(); });
}

std::string loweringPipeline(bool Memcheck) {
  // Inline PTX becomes the front end's IR first, so that every later pass
  // lowers it like the rest of the module.
  // Order matters: conversions get the GPU's meaning before anything
  // optimizes them; kernels are found before the calling convention is
  // reset; the thread pointer exists before anything reads the thread (and
  // before debuggers are told where threadIdx and friends lie);
  // lockstep points go in while address spaces still tell a thread's
  // private memory apart;
  // shared variables are laid out once every user has the thread; memory
  // accesses are checked once every address is a host address and before
  // the entries add their own; the entries are built on the final kernel
  // signatures; the check is last.
  std::string Pipeline =
      "cucpu-inline-asm,cucpu-nvvm-reflect,cucpu-float-to-int,cucpu-find-"
      "kernels,cucpu-host-"
      "target,cucpu-thread-"
      "arg,cucpu-debug-builtins,cucpu-sregs,cucpu-textures,cucpu-sync,cucpu-"
      "warp-lockstep,cucpu-"
      "device-calls,cucpu-nvvm-memory,cucpu-nvvm-math,cucpu-math-intrinsics,"
      "cucpu-shared-memory,cucpu-globals,";
  if (Memcheck)
    Pipeline += "cucpu-memcheck,";
  return Pipeline + "cucpu-thread-entries,cucpu-check-lowered";
}

std::string blockFunctionPipeline(bool PrintStages) {
  // Work functions get everything that meets other threads inlined; SROA
  // and friends then leave few values and little private memory to carry
  // across barriers before the regions are formed. Atomics on shared memory
  // become plain accesses before innermost loops get their barriers, which
  // leave the loops that hold such accesses serial. Induction variables of
  // loops with sync points are rebased on one counter before the regions
  // are formed, so that few values cross the splits. Variables are exported
  // last, for the block functions specialized at launch (Specialization.h);
  // then every engine service must have the type JitAbi.h gives it.
  return std::string("cucpu-work-functions,function(sroa,early-cse,"
                     "simplifycfg,instcombine<no-verify-fixpoint>,simplifycfg),"
                     "cucpu-shared-atomics,cucpu-loop-barriers,"
                     "cucpu-rebase-inductions,") +
         (PrintStages ? RegionFormationPass::PrintStagesName
                      : RegionFormationPass::PipelineName) +
         "," + BlockFunctionPass::PipelineName +
         ",cucpu-export-globals,cucpu-check-services";
}

std::string threadEntryPipeline() {
  return "cucpu-export-globals,cucpu-check-services";
}

} // namespace cucpu::modules

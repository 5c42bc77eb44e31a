//===- PassRegistry.cpp - The GPU-to-CPU passes by name -------------------===//
#include "PassRegistry.h"

#include "BlockFunctionPass.h"
#include "CheckLoweredPass.h"
#include "DebugBuiltinsPass.h"
#include "DeviceCallsPass.h"
#include "ExportGlobalsPass.h"
#include "FindKernelsPass.h"
#include "FloatToIntPass.h"
#include "GlobalsPass.h"
#include "HostTargetPass.h"
#include "InlineAsmPass.h"
#include "KernelEntryPass.h"
#include "MathIntrinsicsPass.h"
#include "MemcheckPass.h"
#include "NvvmMathPass.h"
#include "NvvmMemoryPass.h"
#include "NvvmReflectPass.h"
#include "SharedMemoryPass.h"
#include "SpecialRegistersPass.h"
#include "SyncPass.h"
#include "TexturesPass.h"
#include "ThreadArgPass.h"
#include "ThreadLoopVersioningPass.h"
#include "WarpLockstepPass.h"
#include "WorkFunctionPass.h"

#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace cucpu::modules {

void registerLoweringPasses(PassBuilder &PB, LoweringState &State) {
  PB.registerPipelineParsingCallback(
      [&State](StringRef Name, ModulePassManager &MPM,
               ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == InlineAsmPass::PipelineName) {
          MPM.addPass(InlineAsmPass(State));
          return true;
        }
        if (Name == NvvmReflectPass::PipelineName) {
          MPM.addPass(NvvmReflectPass(State));
          return true;
        }
        if (Name == FloatToIntPass::PipelineName) {
          MPM.addPass(FloatToIntPass());
          return true;
        }
        if (Name == FindKernelsPass::PipelineName) {
          MPM.addPass(FindKernelsPass(State));
          return true;
        }
        if (Name == HostTargetPass::PipelineName) {
          MPM.addPass(HostTargetPass(State));
          return true;
        }
        if (Name == ThreadArgPass::PipelineName) {
          MPM.addPass(ThreadArgPass(State));
          return true;
        }
        if (Name == DebugBuiltinsPass::PipelineName) {
          MPM.addPass(DebugBuiltinsPass());
          return true;
        }
        if (Name == SpecialRegistersPass::PipelineName) {
          MPM.addPass(SpecialRegistersPass(State));
          return true;
        }
        if (Name == TexturesPass::PipelineName) {
          MPM.addPass(TexturesPass(State));
          return true;
        }
        if (Name == SyncPass::PipelineName) {
          MPM.addPass(SyncPass(State));
          return true;
        }
        if (Name == WarpLockstepPass::PipelineName) {
          MPM.addPass(WarpLockstepPass(State));
          return true;
        }
        if (Name == DeviceCallsPass::PipelineName) {
          MPM.addPass(DeviceCallsPass(State));
          return true;
        }
        if (Name == NvvmMemoryPass::PipelineName) {
          MPM.addPass(NvvmMemoryPass(State));
          return true;
        }
        if (Name == NvvmMathPass::PipelineName) {
          MPM.addPass(NvvmMathPass(State));
          return true;
        }
        if (Name == SharedMemoryPass::PipelineName) {
          MPM.addPass(SharedMemoryPass(State));
          return true;
        }
        if (Name == GlobalsPass::PipelineName) {
          MPM.addPass(GlobalsPass(State));
          return true;
        }
        if (Name == KernelEntryPass::PipelineName) {
          MPM.addPass(KernelEntryPass(State));
          return true;
        }
        if (Name == MemcheckPass::PipelineName) {
          MPM.addPass(MemcheckPass(State));
          return true;
        }
        if (Name == MathIntrinsicsPass::PipelineName) {
          MPM.addPass(MathIntrinsicsPass(State));
          return true;
        }
        if (Name == WorkFunctionPass::PipelineName) {
          MPM.addPass(WorkFunctionPass(State));
          return true;
        }
        if (Name == BlockFunctionPass::PipelineName) {
          MPM.addPass(BlockFunctionPass(State));
          return true;
        }
        if (Name == ExportGlobalsPass::PipelineName) {
          MPM.addPass(ExportGlobalsPass());
          return true;
        }
        if (Name == CheckLoweredPass::PipelineName) {
          MPM.addPass(CheckLoweredPass(State));
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != ThreadLoopVersioningPass::PipelineName)
          return false;
        FPM.addPass(ThreadLoopVersioningPass());
        return true;
      });
  // Thread loops get their fast versions where the vectorizer sees them.
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(ThreadLoopVersioningPass());
      });
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
  return Pipeline + "cucpu-kernel-entries,cucpu-check-lowered";
}

StringRef blockFunctionPipeline() {
  // Work functions get everything that meets other threads inlined; SROA
  // and friends then leave few values and little private memory to carry
  // across barriers before the regions are formed. Variables are exported
  // last, for the block functions specialized at launch (Specialization.h).
  return "cucpu-work-functions,function(sroa,early-cse,simplifycfg,instcombine<"
         "no-verify-fixpoint>,simplifycfg),cucpu-block-functions,cucpu-export-"
         "globals";
}

} // namespace cucpu::modules

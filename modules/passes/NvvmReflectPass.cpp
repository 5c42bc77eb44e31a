//===- NvvmReflectPass.cpp - Constant answers to __nvvm_reflect -----------===//
#include "NvvmReflectPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

/// The value of __CUDA_ARCH for "sm_XY": XY0 (libdevice's convention).
static int archNumber(StringRef Arch) {
  unsigned N = 0;
  if (Arch.consume_front("sm_") || Arch.consume_front("compute_")) {
    Arch = Arch.take_while([](char C) { return C >= '0' && C <= '9'; });
    if (!Arch.getAsInteger(10, N))
      return static_cast<int>(N * 10);
  }
  return 750;
}

PreservedAnalyses NvvmReflectPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  int Arch = archNumber(readImageDescription(M).TargetArch);
  for (const char *Name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    for (CallBase *CB : abi::callsOf(*F)) {
      StringRef Query;
      if (CB->arg_size() == 1) {
        const Value *Obj = getUnderlyingObject(CB->getArgOperand(0));
        if (auto *GV = dyn_cast<GlobalVariable>(Obj);
            GV && GV->hasInitializer())
          if (auto *Data =
                  dyn_cast<ConstantDataSequential>(GV->getInitializer());
              Data && Data->isString())
            Query = Data->getAsString().split('\0').first;
      }
      // We never flush denormals and always divide and take square roots
      // with IEEE rounding, so the answers follow; __CUDA_ARCH is the
      // architecture the image was compiled for.
      int Answer = 0;
      if (Query == "__CUDA_ARCH")
        Answer = Arch;
      else if (Query == "__CUDA_PREC_DIV" || Query == "__CUDA_PREC_SQRT")
        Answer = 1;
      abi::replaceCall(CB, ConstantInt::get(CB->getType(), Answer));
      Changed = true;
    }
    if (F->use_empty())
      F->eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- HostTargetPass.cpp - Retarget NVPTX64 IR to the host ---------------===//
#include "HostTargetPass.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses HostTargetPass::run(Module &M, ModuleAnalysisManager &) {
  // NVPTX64 and x86-64 lay out the C types CUDA allows identically (natural
  // alignment, 64-bit pointers, i128 aligned to 16), so a new data layout
  // does not move any field of a kernel's structures.
  M.setTargetTriple(TargetTriple.str());
  M.setDataLayout(Layout);
  for (Function &F : M) {
    // "sm_75" / "+ptx85" mean nothing to the host backend; the JIT's target
    // machine supplies the host CPU and its features instead.
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("uniform-work-group-size");
    F.setCallingConv(CallingConv::C);
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        CB->setCallingConv(CallingConv::C);
  }
  return PreservedAnalyses::none();
}

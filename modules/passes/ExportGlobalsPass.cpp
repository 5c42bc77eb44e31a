//===- ExportGlobalsPass.cpp - Module variables visible to later objects --===//
#include "ExportGlobalsPass.h"

#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses ExportGlobalsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (GlobalVariable &G : M.globals()) {
    if (!G.hasLocalLinkage() || G.isConstant() || G.isDeclaration())
      continue;
    if (!G.hasName())
      G.setName("__cucpu_variable"); // LLVM makes it unique.
    G.setLinkage(GlobalValue::ExternalLinkage);
    G.setVisibility(GlobalValue::DefaultVisibility);
    G.setUnnamedAddr(GlobalValue::UnnamedAddr::None);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

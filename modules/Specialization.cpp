//===- Specialization.cpp - Block functions for one block shape -----------===//
#include "cucpu/modules/Specialization.h"

#include "cucpu/modules/JitError.h"
#include "cucpu/modules/passes/BlockShape.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace cucpu::modules;

std::string cucpu::modules::specializedBlockName(StringRef Kernel,
                                                 const BlockShape &Shape) {
  std::string Name;
  raw_string_ostream OS(Name);
  OS << BlockPrefix << Kernel << '.' << Shape[0] << 'x' << Shape[1] << 'x'
     << Shape[2];
  return Name;
}

std::unique_ptr<Module> cucpu::modules::extractFunction(const Module &Lowered,
                                                        StringRef Symbol,
                                                        StringRef NewName) {
  // Functions are copied (the optimizer drops those the copy does not
  // reach); so is read-only data that is private to the module. Variables
  // the code may write stay declarations, resolved to the module's
  // instances.
  ValueToValueMapTy VMap;
  std::unique_ptr<Module> M =
      CloneModule(Lowered, VMap, [](const GlobalValue *GV) {
        if (isa<Function>(GV))
          return true;
        auto *G = dyn_cast<GlobalVariable>(GV);
        return G && G->isConstant() && G->hasLocalLinkage();
      });
  M->setModuleIdentifier(Lowered.getModuleIdentifier() + "." + NewName.str());
  for (GlobalVariable &G : make_early_inc_range(M->globals()))
    if (G.hasAppendingLinkage()) // llvm.used and the like: the module's.
      G.eraseFromParent();
  Function *Kept = M->getFunction(Symbol);
  for (Function &F : *M)
    if (!F.isDeclaration() && &F != Kept) {
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setComdat(nullptr);
    }
  for (GlobalVariable &G : M->globals())
    if (G.hasLocalLinkage())
      G.setComdat(nullptr);
  if (Kept)
    Kept->setName(NewName);
  return M;
}

Expected<std::unique_ptr<Module>>
cucpu::modules::specializeBlockFunction(const Module &Lowered, StringRef Kernel,
                                        const BlockShape &Shape) {
  std::string Generic = (BlockPrefix + Kernel).str();
  const Function *Block = Lowered.getFunction(Generic);
  if (!Block || Block->isDeclaration())
    return makeJitError(JitErrorKind::NotFound,
                        "Kernel " + Kernel + " has no block function.");
  std::string Name = specializedBlockName(Kernel, Shape);
  std::unique_ptr<Module> M = extractFunction(Lowered, Generic, Name);
  specializeBlockShape(*M->getFunction(Name), Shape);
  return M;
}

Expected<std::unique_ptr<Module>>
cucpu::modules::extractThreadEntry(const Module &Lowered, StringRef Kernel) {
  std::string Entry = (ThreadEntryPrefix + Kernel).str();
  const Function *F = Lowered.getFunction(Entry);
  if (!F || F->isDeclaration())
    return makeJitError(JitErrorKind::NotFound,
                        "Kernel " + Kernel + " has no thread entry.");
  return extractFunction(Lowered, Entry, Entry);
}

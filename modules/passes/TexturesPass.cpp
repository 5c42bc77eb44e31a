//===- TexturesPass.cpp - Texture references from the launch --------------===//
#include "TexturesPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/abi/TextureAbi.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace cucpu::modules;

PreservedAnalyses TexturesPass::run(Module &M, ModuleAnalysisManager &) {
  // cucc's record of each reference's declared type has done its work.
  bool Changed = false;
  if (Function *Marker = M.getFunction("__cucpu_texref_type")) {
    for (CallBase *Call : abi::callsOf(*Marker))
      Call->eraseFromParent();
    if (Marker->use_empty())
      Marker->eraseFromParent();
    Changed = true;
  }
  Function *Handle = nullptr;
  for (Function &F : M)
    if (F.getIntrinsicID() == Intrinsic::nvvm_texsurf_handle_internal ||
        F.getIntrinsicID() == Intrinsic::nvvm_texsurf_handle)
      Handle = &F;
  if (!Handle)
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  ImageDescription Image = readImageDescription(M);
  SmallPtrSet<GlobalVariable *, 4> Textures;
  for (CallBase *Call : abi::callsOf(*Handle)) {
    Function &Caller = *Call->getFunction();
    auto *GV = dyn_cast<GlobalVariable>(
        Call->getArgOperand(Call->arg_size() - 1)->stripPointerCasts());
    int Index = GV ? Image.texRefIndex(GV->getName()) : -1;
    Value *Thread = abi::threadArg(Caller);
    if (Index < 0 || !Thread) {
      reportLoweringError(
          M.getContext(), LoweringFailure::InvalidImage,
          "Function \"" + Caller.getName() +
              "\" accesses a texture or surface that the image does "
              "not declare as a texture or surface reference.");
      return PreservedAnalyses::none();
    }
    IRBuilder<> B(Call);
    Value *Block = abi::loadBlock(B, Thread);
    Value *Table = abi::loadFieldPtr(B, Block, abi::texRefsOffset(), "texrefs");
    Value *Entry = B.CreateConstInBoundsGEP1_64(
        B.getInt8Ty(), Table, uint64_t(Index) * sizeof(CucpuTexture),
        GV->getName());
    abi::replaceCall(Call, B.CreatePtrToInt(Entry, Call->getType()));
    Textures.insert(GV);
  }
  Handle->eraseFromParent();

  removeFromUsedLists(M, [&](Constant *C) {
    auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
    return GV && Textures.contains(GV);
  });
  for (GlobalVariable *GV : Textures)
    if (GV->use_empty())
      GV->eraseFromParent();
  return PreservedAnalyses::none();
}

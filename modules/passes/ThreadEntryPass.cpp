//===- ThreadEntryPass.cpp - One thread entry per kernel ------------------===//
//
// The execution engine calls void ThreadEntryPrefix<kernel>(CucpuThread *T) for
// every CUDA thread (JitAbi.h, CucpuThreadEntry). The entry reads each
// parameter from the block's parameter buffer at the offset the image gives
// (CUDA's layout: 8-byte pointers, natural alignment), copies structs passed
// by value (the kernel may write its copy; the buffer is shared by the
// block's threads) and calls the kernel with the thread.
//
//===----------------------------------------------------------------------===//
#include "ThreadEntryPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu;
using namespace cucpu::modules;

PreservedAnalyses ThreadEntryPass::run(Module &M, ModuleAnalysisManager &) {
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &Ctx = M.getContext();
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (F.hasFnAttribute(KernelAttr))
      Kernels.push_back(&F);

  ImageDescription Image = readImageDescription(M);
  for (const KernelLayout &K : Image.Kernels) {
    Function *F = M.getFunction(K.Name);
    if (!F || !F->hasFnAttribute(KernelAttr))
      reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                          "The image describes kernel " + K.Name +
                              ", which its IR does not define.");
  }

  for (Function *K : Kernels) {
    StringRef Name = K->getName();
    const KernelLayout *Info = Image.kernel(Name);
    if (!Info) {
      reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                          "The IR defines kernel " + Name +
                              ", which the image does not describe.");
      continue;
    }
    unsigned NumParams = K->arg_size() - 1;
    if (Info->Params.size() != NumParams) {
      reportLoweringError(M.getContext(), LoweringFailure::InvalidImage,
                          "The image gives kernel " + Name + " " +
                              Twine(Info->Params.size()) +
                              " parameters, its IR " + Twine(NumParams) + ".");
      continue;
    }

    auto *EntryTy = FunctionType::get(Type::getVoidTy(Ctx),
                                      {PointerType::get(Ctx, 0)}, false);
    Function *Entry = Function::Create(EntryTy, GlobalValue::ExternalLinkage,
                                       ThreadEntryPrefix + Name, M);
    Entry->addFnAttr(Attribute::NoUnwind);
    Entry->addFnAttr(ThreadArgAttr);
    Value *T = Entry->getArg(0);
    T->setName("cucpu.thread");
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
    Value *Params = abi::loadFieldPtr(B, abi::loadBlock(B, T),
                                      abi::paramsOffset(), "params");
    // The whole buffer is readable: loads of parameters can be hoisted out
    // of the branches that use them (and out of the loops over threads).
    if (Info->ParamBytes > 0)
      cast<LoadInst>(Params)->setMetadata(
          LLVMContext::MD_dereferenceable,
          MDNode::get(Ctx,
                      ConstantAsMetadata::get(B.getInt64(Info->ParamBytes))));
    SmallVector<Value *, 8> Args{T};
    bool Ok = true;
    for (unsigned I = 0; I < NumParams && Ok; ++I) {
      const ParamSlot &P = Info->Params[I];
      Argument *A = K->getArg(I + 1);
      Type *ByVal = K->getParamByValType(I + 1);
      Type *Ty = ByVal ? ByVal : A->getType();
      uint64_t Size = ByVal ? DL.getTypeAllocSize(Ty) : DL.getTypeStoreSize(Ty);
      if (P.Size != Size || uint64_t(P.Offset) + P.Size > Info->ParamBytes) {
        reportLoweringError(
            M.getContext(), LoweringFailure::InvalidImage,
            "Parameter " + Twine(I) + " of kernel " + Name + " has " +
                Twine(P.Size) + " bytes at offset " + Twine(P.Offset) +
                " in the image, but the IR needs " + Twine(Size) +
                " bytes within " + Twine(Info->ParamBytes) + ".");
        Ok = false;
        break;
      }
      Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Params,
                                                 P.Offset, A->getName());
      if (ByVal) {
        MaybeAlign ParamAlign = K->getParamAlign(I + 1);
        Align CopyAlign = ParamAlign.value_or(DL.getABITypeAlign(Ty));
        IRBuilder<> EB(&Entry->getEntryBlock(), Entry->getEntryBlock().begin());
        AllocaInst *Copy = EB.CreateAlloca(Ty, nullptr, A->getName() + ".copy");
        Copy->setAlignment(CopyAlign);
        B.CreateMemCpy(Copy, CopyAlign, Addr, Align(1), Size);
        Args.push_back(Copy);
      } else if (Ty->isIntegerTy(1)) {
        Args.push_back(B.CreateICmpNE(
            abi::markInvariant(B.CreateLoad(B.getInt8Ty(), Addr)),
            B.getInt8(0)));
      } else {
        // The buffer is only as aligned as the engine makes it; x86 loads
        // need no alignment. It does not change during the launch.
        Args.push_back(
            abi::markInvariant(B.CreateAlignedLoad(Ty, Addr, Align(1))));
      }
    }
    if (!Ok) {
      Entry->eraseFromParent();
      continue;
    }
    B.CreateCall(K->getFunctionType(), K, Args);
    B.CreateRetVoid();
    K->setLinkage(GlobalValue::InternalLinkage);
  }
  return PreservedAnalyses::none();
}

//===- SharedMemoryPass.cpp - __shared__ variables in the block's memory --===//
//
// Each block has one shared-memory buffer (CucpuBlock::Shared): the static
// __shared__ variables first, then the dynamic part at
// Block->DynamicSharedOffset. A variable gets one offset for the whole
// module (device functions called from several kernels see it at the same
// place), but two variables that no kernel uses together may overlap, so a
// kernel's static size is only what it can reach.
//
//===----------------------------------------------------------------------===//
#include "SharedMemoryPass.h"

#include "AbiAccess.h"
#include "Translator.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>

using namespace llvm;
using namespace cucpu::modules;

namespace {

constexpr unsigned SharedAS = 3;

/// The functions each kernel can reach through calls. A function whose
/// address is taken counts as reachable from every kernel.
DenseMap<Function *, SmallPtrSet<Function *, 4>>
kernelsReaching(Module &M, ArrayRef<Function *> Kernels) {
  SmallPtrSet<Function *, 8> AddressTaken;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasAddressTaken())
      AddressTaken.insert(&F);
  DenseMap<Function *, SmallPtrSet<Function *, 4>> Reaching;
  for (Function *K : Kernels) {
    SetVector<Function *> Work;
    Work.insert(K);
    for (Function *F : AddressTaken)
      Work.insert(F);
    for (size_t I = 0; I < Work.size(); ++I) {
      Function *F = Work[I];
      Reaching[F].insert(K);
      for (Instruction &Inst : instructions(*F))
        if (auto *CB = dyn_cast<CallBase>(&Inst))
          if (Function *Callee = CB->getCalledFunction();
              Callee && !Callee->isDeclaration())
            Work.insert(Callee);
    }
  }
  return Reaching;
}

struct Placed {
  uint64_t Begin, End;
  SmallPtrSet<Function *, 4> Kernels;
};

bool shareKernel(const SmallPtrSet<Function *, 4> &A,
                 const SmallPtrSet<Function *, 4> &B) {
  for (Function *K : A)
    if (B.contains(K))
      return true;
  return false;
}

} // namespace

PreservedAnalyses SharedMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (F.hasFnAttribute(KernelAttr))
      Kernels.push_back(&F);
  // Every kernel has a size; one that uses shared memory gets a later record.
  for (Function *K : Kernels)
    recordKernelShared(M, K->getName(), 0);

  SmallVector<GlobalVariable *, 8> Shared;
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == SharedAS)
      Shared.push_back(&GV);
  if (Shared.empty())
    return PreservedAnalyses::all();

  SmallPtrSet<GlobalVariable *, 8> SharedSet(Shared.begin(), Shared.end());
  removeFromUsedLists(M, [&](Constant *C) {
    auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
    return GV && SharedSet.contains(GV);
  });
  SmallVector<Constant *, 8> AsConstants(Shared.begin(), Shared.end());
  convertUsersOfConstantsToInstructions(AsConstants);

  auto Reaching = kernelsReaching(M, Kernels);

  // Which kernels use each variable, through which functions.
  struct Var {
    GlobalVariable *GV;
    uint64_t Size;
    Align Alignment;
    SmallPtrSet<Function *, 4> Kernels;
    SetVector<Function *> Users;
    uint64_t Offset = 0;
  };
  SmallVector<Var, 8> Vars;
  for (GlobalVariable *GV : Shared) {
    Var V{GV,
          DL.getTypeAllocSize(GV->getValueType()),
          GV->getAlign().value_or(DL.getABITypeAlign(GV->getValueType())),
          {},
          {}};
    for (User *U : GV->users()) {
      auto *I = dyn_cast<Instruction>(U);
      if (!I) {
        reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                            "The address of __shared__ variable " +
                                GV->getName() +
                                " is used in a constant initializer.");
        return PreservedAnalyses::none();
      }
      Function *F = I->getFunction();
      V.Users.insert(F);
      for (Function *K : Reaching.lookup(F))
        V.Kernels.insert(K);
    }
    Vars.push_back(std::move(V));
  }

  // First fit, largest alignment and size first: a variable goes to the
  // lowest offset that overlaps no placed variable of a kernel it shares.
  // The PTX front end's shared window is the whole buffer (offset 0); it
  // takes no room of its own.
  auto IsWindow = [](const Var &V) {
    return V.GV->getName() == ptx::SharedWindowName;
  };
  SmallVector<Var *, 8> Order;
  for (Var &V : Vars)
    if (V.Size > 0)
      Order.push_back(&V);
  std::stable_sort(Order.begin(), Order.end(), [](Var *A, Var *B) {
    if (A->Alignment != B->Alignment)
      return A->Alignment > B->Alignment;
    return A->Size > B->Size;
  });
  SmallVector<Placed, 8> Done;
  StringMap<uint32_t> KernelBytes;
  for (Var *V : Order) {
    uint64_t Offset = 0;
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (const Placed &P : Done)
        if (shareKernel(P.Kernels, V->Kernels) && Offset < P.End &&
            P.Begin < Offset + V->Size) {
          Offset = alignTo(P.End, V->Alignment);
          Moved = true;
        }
    }
    V->Offset = Offset;
    Done.push_back({Offset, Offset + V->Size, V->Kernels});
    for (Function *K : V->Kernels) {
      uint32_t &Size = KernelBytes[K->getName()];
      Size = std::max<uint64_t>(Size, Offset + V->Size);
    }
  }

  for (const auto &[Kernel, Bytes] : KernelBytes)
    recordKernelShared(M, Kernel, Bytes);

  for (Var &V : Vars) {
    bool Dynamic = V.Size == 0 && !IsWindow(V);
    for (Function *F : V.Users) {
      Value *T = abi::threadArg(*F);
      if (!T) {
        reportLoweringError(M.getContext(), LoweringFailure::Internal,
                            "Function " + F->getName() +
                                " has no thread pointer.");
        return PreservedAnalyses::none();
      }
      IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
      Value *Block = abi::loadBlock(B, T);
      Value *Base =
          abi::loadFieldPtr(B, Block, abi::sharedOffset(), "cucpu.shared");
      Value *Offset =
          Dynamic
              ? B.CreateZExt(abi::loadField32(B, Block,
                                              abi::dynamicSharedOffsetOffset(),
                                              "cucpu.dynshared"),
                             B.getInt64Ty())
              : B.getInt64(V.Offset);
      Value *Addr =
          B.CreateInBoundsGEP(B.getInt8Ty(), Base, Offset, V.GV->getName());
      Value *Cast = B.CreateAddrSpaceCast(Addr, V.GV->getType());
      V.GV->replaceUsesWithIf(Cast, [F](Use &U) {
        auto *I = dyn_cast<Instruction>(U.getUser());
        return I && I->getFunction() == F;
      });
    }
    V.GV->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

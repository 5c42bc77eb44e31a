//===- NvvmMemoryPass.cpp - NVVM atomics, fences and loads for the host ---===//
//
// Device memory is host memory, so NVVM's scoped atomics become host atomic
// instructions (a CPU atomic is atomic for every scope), its fences become
// sequentially consistent fences, and ldg/ldu (loads through the read-only
// cache) become plain loads.
//
//===----------------------------------------------------------------------===//
#include "NvvmMemoryPass.h"

#include "AbiAccess.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// The atomicrmw operation of an NVVM atomic named "<op>.gen.<i|f>...".
std::optional<AtomicRMWInst::BinOp> rmwOp(StringRef Op, bool IsFloat) {
  if (IsFloat)
    return StringSwitch<std::optional<AtomicRMWInst::BinOp>>(Op)
        .Case("add", AtomicRMWInst::FAdd)
        .Case("exch", AtomicRMWInst::Xchg)
        .Case("max", AtomicRMWInst::FMax)
        .Case("min", AtomicRMWInst::FMin)
        .Default(std::nullopt);
  // clang maps both __nvvm_atom_*_max_gen_i and _ui to the same scoped
  // intrinsic, which PTX selects as a signed operation; do the same.
  return StringSwitch<std::optional<AtomicRMWInst::BinOp>>(Op)
      .Case("add", AtomicRMWInst::Add)
      .Case("exch", AtomicRMWInst::Xchg)
      .Case("max", AtomicRMWInst::Max)
      .Case("min", AtomicRMWInst::Min)
      .Case("inc", AtomicRMWInst::UIncWrap)
      .Case("dec", AtomicRMWInst::UDecWrap)
      .Case("and", AtomicRMWInst::And)
      .Case("or", AtomicRMWInst::Or)
      .Case("xor", AtomicRMWInst::Xor)
      .Default(std::nullopt);
}

Align naturalAlign(const DataLayout &DL, Type *Ty) {
  return DL.getTypeStoreSize(Ty) > 0 ? Align(DL.getTypeStoreSize(Ty))
                                     : Align(1);
}

/// Lowers \p CB, a call of llvm.nvvm.<Name>; false if Name is not ours.
bool lowerCall(CallBase *CB, StringRef Name) {
  IRBuilder<> B(CB);
  const DataLayout &DL = CB->getModule()->getDataLayout();
  auto Arg = [&](unsigned I) { return CB->getArgOperand(I); };
  Value *Result = nullptr;

  if (Name.starts_with("membar.") || Name.starts_with("fence.")) {
    B.CreateFence(AtomicOrdering::SequentiallyConsistent);
  } else if (Name.starts_with("ldg.global.") ||
             Name.starts_with("ldu.global.")) {
    auto *AlignArg = dyn_cast<ConstantInt>(Arg(1));
    uint64_t A = AlignArg ? AlignArg->getZExtValue() : 1;
    LoadInst *L = B.CreateAlignedLoad(CB->getType(), Arg(0),
                                      Align(isPowerOf2_64(A) ? A : 1));
    Result = L;
  } else if (Name.starts_with("ptr.") && Name.contains(".to.")) {
    // ptr.gen.to.shared and friends: address spaces are all flat here.
    Result = B.CreateAddrSpaceCast(Arg(0), CB->getType());
  } else if (Name.starts_with("prefetch")) {
    // A cache hint: nothing to do.
  } else if (Name.starts_with("atomic.load.inc.") ||
             Name.starts_with("atomic.load.dec.") ||
             Name.starts_with("atomic.load.add.f")) {
    AtomicRMWInst::BinOp Op =
        Name.starts_with("atomic.load.inc.")   ? AtomicRMWInst::UIncWrap
        : Name.starts_with("atomic.load.dec.") ? AtomicRMWInst::UDecWrap
                                               : AtomicRMWInst::FAdd;
    Result = B.CreateAtomicRMW(Op, Arg(0), Arg(1),
                               naturalAlign(DL, Arg(1)->getType()),
                               AtomicOrdering::SequentiallyConsistent);
  } else if (Name.consume_front("atomic.")) {
    // atomic.<op>.gen.<i|f>.<cta|sys>.<types>
    SmallVector<StringRef, 6> Parts;
    Name.split(Parts, '.');
    if (Parts.size() < 4 || Parts[1] != "gen")
      return false;
    bool IsFloat = Parts[2] == "f";
    if (Parts[0] == "cas") {
      Value *Pair = B.CreateAtomicCmpXchg(
          Arg(0), Arg(1), Arg(2), naturalAlign(DL, Arg(1)->getType()),
          AtomicOrdering::SequentiallyConsistent,
          AtomicOrdering::SequentiallyConsistent);
      Result = B.CreateExtractValue(Pair, 0);
    } else {
      std::optional<AtomicRMWInst::BinOp> Op = rmwOp(Parts[0], IsFloat);
      if (!Op)
        return false;
      Result = B.CreateAtomicRMW(*Op, Arg(0), Arg(1),
                                 naturalAlign(DL, Arg(1)->getType()),
                                 AtomicOrdering::SequentiallyConsistent);
    }
  } else {
    return false;
  }
  abi::replaceCall(CB, Result);
  return true;
}

} // namespace

PreservedAnalyses NvvmMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !Name.consume_front("llvm.nvvm."))
      continue;
    for (CallBase *CB : abi::callsOf(F)) {
      if (!lowerCall(CB, Name))
        break;
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

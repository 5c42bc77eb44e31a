//===- MathIntrinsicsPass.cpp - Runtime math as LLVM operations -----------===//
//
// Only functions whose runtime implementation (modules/runtime) is exactly
// one of these operations are replaced: results stay bit for bit the same.
//
//===----------------------------------------------------------------------===//
#include "MathIntrinsicsPass.h"

#include "AbiAccess.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// The LLVM intrinsic that computes __nv_<Name>, or not_intrinsic.
Intrinsic::ID intrinsicFor(StringRef Name) {
  return StringSwitch<Intrinsic::ID>(Name)
      .Cases("fabsf", "fabs", Intrinsic::fabs)
      .Cases("sqrtf", "sqrt", Intrinsic::sqrt)
      .Cases("floorf", "floor", Intrinsic::floor)
      .Cases("ceilf", "ceil", Intrinsic::ceil)
      .Cases("truncf", "trunc", Intrinsic::trunc)
      .Cases("fmaf", "fma", Intrinsic::fma)
      .Default(Intrinsic::not_intrinsic);
}

/// Whether \p F has the floating-point signature an intrinsic replacement
/// needs: all parameters and the result of one FP type.
bool hasFloatSignature(Function &F) {
  Type *Ty = F.getReturnType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy())
    return false;
  for (Type *P : F.getFunctionType()->params())
    if (P != Ty)
      return false;
  return !F.getFunctionType()->isVarArg();
}

} // namespace

PreservedAnalyses MathIntrinsicsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !Name.consume_front("__nv_") ||
        !hasFloatSignature(F))
      continue;
    Intrinsic::ID ID = intrinsicFor(Name);
    bool Rsqrt = Name == "rsqrtf";
    if (ID == Intrinsic::not_intrinsic && !Rsqrt)
      continue;
    for (CallBase *CB : abi::callsOf(F)) {
      IRBuilder<> B(CB);
      SmallVector<Value *, 3> Args(CB->args());
      Value *V;
      if (Rsqrt) {
        // The library's rsqrtf: 1 / sqrt in double, rounded to float.
        Value *X = B.CreateFPExt(Args[0], B.getDoubleTy());
        V = B.CreateFPTrunc(
            B.CreateFDiv(ConstantFP::get(B.getDoubleTy(), 1.0),
                         B.CreateUnaryIntrinsic(Intrinsic::sqrt, X)),
            B.getFloatTy());
      } else {
        V = B.CreateIntrinsic(ID, {F.getReturnType()}, Args);
      }
      abi::replaceCall(CB, V);
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

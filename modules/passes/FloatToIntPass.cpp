//===- FloatToIntPass.cpp - Float-to-integer conversions as on the GPU ----===//
#include "FloatToIntPass.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// A conversion of a floating-point value to an integer: the instruction
/// or intrinsic call, and whether the integer is signed.
struct Conversion {
  Instruction *I;
  bool Signed;
};

std::optional<Conversion> conversion(Instruction &I) {
  if (isa<FPToSIInst>(I))
    return Conversion{&I, true};
  if (isa<FPToUIInst>(I))
    return Conversion{&I, false};
  if (auto *Call = dyn_cast<IntrinsicInst>(&I)) {
    if (Call->getIntrinsicID() == Intrinsic::fptosi_sat)
      return Conversion{&I, true};
    if (Call->getIntrinsicID() == Intrinsic::fptoui_sat)
      return Conversion{&I, false};
  }
  return std::nullopt;
}

/// \p Ty with its element type replaced by the integer type of \p Bits.
Type *withIntBits(Type *Ty, unsigned Bits) {
  Type *Int = IntegerType::get(Ty->getContext(), Bits);
  if (auto *V = dyn_cast<VectorType>(Ty))
    return VectorType::get(Int, V->getElementCount());
  return Int;
}

/// The GPU's saturating conversion of \p X to \p Bits (32 or 64) bits.
Value *saturate(IRBuilder<> &B, Value *X, unsigned Bits, bool Signed) {
  Type *To = withIntBits(X->getType(), Bits);
  Value *Sat =
      B.CreateIntrinsic(Signed ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat,
                        {To, X->getType()}, {X});
  // The intrinsics give 0 for NaN, as the GPU does from a float (or half)
  // to 32 bits; otherwise it gives the sign bit alone.
  Type *From = X->getType()->getScalarType();
  if (Bits == 32 && (From->isFloatTy() || From->isHalfTy()))
    return Sat;
  Value *IsNaN = B.CreateFCmpUNO(X, X, "isnan");
  Constant *SignBit = ConstantInt::get(To, APInt::getSignMask(Bits));
  return B.CreateSelect(IsNaN, SignBit, Sat);
}

} // namespace

PreservedAnalyses FloatToIntPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Conversion, 16> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (std::optional<Conversion> C = conversion(I))
        Work.push_back(*C);
  bool Changed = false;
  for (const Conversion &C : Work) {
    Value *X = C.I->getOperand(0);
    unsigned Bits = C.I->getType()->getScalarSizeInBits();
    if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
      continue;
    IRBuilder<> B(C.I);
    Value *R = saturate(B, X, std::max(Bits, 32u), C.Signed);
    if (Bits < 32)
      R = B.CreateTrunc(R, C.I->getType());
    R->takeName(C.I);
    C.I->replaceAllUsesWith(R);
    C.I->eraseFromParent();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- BlockShape.cpp - Specialize a block function on a launch's shape ---===//
#include "cucpu/modules/passes/BlockShape.h"

#include "AbiAccess.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

unsigned
cucpu::modules::specializeBlockShape(Function &BF,
                                     const std::array<uint32_t, 3> &Shape) {
  if (BF.arg_empty())
    return 0;
  Value *Block = BF.getArg(0);
  const DataLayout &DL = BF.getParent()->getDataLayout();
  SmallVector<std::pair<LoadInst *, uint32_t>, 16> Reads;
  for (Instruction &I : instructions(BF)) {
    auto *L = dyn_cast<LoadInst>(&I);
    if (!L || !L->getType()->isIntegerTy(32) || L->isVolatile())
      continue;
    APInt Offset(DL.getIndexTypeSizeInBits(L->getPointerOperandType()), 0);
    const Value *Base =
        L->getPointerOperand()->stripAndAccumulateConstantOffsets(
            DL, Offset, /*AllowNonInbounds=*/true);
    if (Base != Block)
      continue;
    for (unsigned D = 0; D < 3; ++D)
      if (Offset == abi::blockDimOffset(D))
        Reads.push_back({L, Shape[D]});
  }
  for (auto [L, Value] : Reads) {
    L->replaceAllUsesWith(ConstantInt::get(L->getType(), Value));
    L->eraseFromParent();
  }
  return Reads.size();
}

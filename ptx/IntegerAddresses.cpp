//===- IntegerAddresses.cpp - PTX's integer addresses as pointers ---------===//
#include "IntegerAddresses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace cucpu::ptx {
namespace {

/// The 64-bit integers of one function that are addresses (a pointer base
/// plus integer terms), and their pointer forms.
class AddressRewriter {
public:
  explicit AddressRewriter(Function &F) : F(F) {}

  /// Rewrites the function's `inttoptr`s of addresses; returns whether it
  /// changed anything.
  bool run();

private:
  /// The deepest chain of adds followed from one address: deeper ones are
  /// left as integers.
  static constexpr unsigned MaxDepth = 256;

  /// Whether \p V is an address: a pointer base (a parameter, a loaded or a
  /// converted pointer) plus or minus integer terms, possibly through phis
  /// and selects. Phis are assumed addresses while their incoming values
  /// are looked at (a loop's pointer steps itself); settle() withdraws what
  /// rested on a phi that turned out not to be one.
  bool isAddress(Value *V, unsigned Depth = 0);
  /// isAddress() of \p V from its operands' answers.
  bool classify(Value *V, unsigned Depth);
  /// Withdraws answers that rested on a phi found not to be an address.
  void settle();
  /// Which operand of address \p I (an add) is the address.
  Value *baseOf(BinaryOperator &I);
  /// The pointer whose address is \p V (an address).
  Value *pointerOf(Value *V);
  /// Where the pointer form of instruction \p I goes: right after it.
  static Instruction *after(Instruction &I) {
    if (isa<PHINode>(I))
      return &*I.getParent()->getFirstInsertionPt();
    return I.getNextNode();
  }

  Function &F;
  DenseMap<Value *, bool> Known;
  DenseMap<Value *, Value *> Pointers;
};

bool AddressRewriter::isAddress(Value *V, unsigned Depth) {
  if (!V->getType()->isIntegerTy(64))
    return false;
  if (auto It = Known.find(V); It != Known.end())
    return It->second;
  if (Depth > MaxDepth)
    return false;
  if (isa<PHINode>(V))
    Known[V] = true;
  bool Result = classify(V, Depth);
  Known[V] = Result;
  return Result;
}

bool AddressRewriter::classify(Value *V, unsigned Depth) {
  if (isa<Argument, LoadInst, PtrToIntInst>(V))
    return true;
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    return CE->getOpcode() == Instruction::PtrToInt;
  if (auto *BO = dyn_cast<BinaryOperator>(V)) {
    if (BO->getOpcode() == Instruction::Add)
      return isAddress(BO->getOperand(0), Depth + 1) ||
             isAddress(BO->getOperand(1), Depth + 1);
    if (BO->getOpcode() == Instruction::Sub)
      return isAddress(BO->getOperand(0), Depth + 1) &&
             !isAddress(BO->getOperand(1), Depth + 1);
    return false;
  }
  // A phi or select of addresses, or of addresses and constants.
  SmallVector<Value *, 4> Choices;
  if (auto *Phi = dyn_cast<PHINode>(V))
    Choices.append(Phi->incoming_values().begin(),
                   Phi->incoming_values().end());
  else if (auto *Sel = dyn_cast<SelectInst>(V))
    Choices = {Sel->getTrueValue(), Sel->getFalseValue()};
  bool Any = false;
  for (Value *C : Choices) {
    if (isa<ConstantInt, UndefValue>(C))
      continue;
    if (!isAddress(C, Depth + 1))
      return false;
    Any = true;
  }
  return Any;
}

void AddressRewriter::settle() {
  for (bool Changed = true; Changed;) {
    Changed = false;
    // classify() may add answers for operands it had not needed before.
    SmallVector<Value *, 64> Addresses;
    for (const auto &[V, IsAddress] : Known)
      if (IsAddress)
        Addresses.push_back(V);
    for (Value *V : Addresses)
      if (!classify(V, 0)) {
        Known[V] = false;
        Changed = true;
      }
  }
}

Value *AddressRewriter::baseOf(BinaryOperator &I) {
  Value *A = I.getOperand(0), *B = I.getOperand(1);
  bool AIs = isAddress(A), BIs = isAddress(B);
  // Both can be: prefer the one that is not a loaded value (an index
  // read from memory rather than the parameter it indexes).
  if (AIs && BIs)
    return isa<LoadInst>(A) && !isa<LoadInst>(B) ? B : A;
  return AIs ? A : B;
}

Value *AddressRewriter::pointerOf(Value *V) {
  if (Value *P = Pointers.lookup(V))
    return P;
  LLVMContext &Ctx = F.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  if (auto *C = dyn_cast<Constant>(V))
    return Pointers[V] = ConstantExpr::getIntToPtr(C, Ptr);
  if (auto *A = dyn_cast<Argument>(V)) {
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    return Pointers[V] = B.CreateIntToPtr(A, Ptr, A->getName() + ".ptr");
  }
  auto *I = cast<Instruction>(V);
  if (auto *Cast = dyn_cast<PtrToIntInst>(I);
      Cast && Cast->getPointerOperand()->getType() == Ptr)
    return Pointers[V] = Cast->getPointerOperand();
  if (auto *Phi = dyn_cast<PHINode>(I)) {
    IRBuilder<> B(I->getParent(), I->getParent()->begin());
    PHINode *P =
        B.CreatePHI(Ptr, Phi->getNumIncomingValues(), I->getName() + ".ptr");
    Pointers[V] = P;
    for (unsigned K = 0; K < Phi->getNumIncomingValues(); ++K)
      P->addIncoming(pointerOf(Phi->getIncomingValue(K)),
                     Phi->getIncomingBlock(K));
    return P;
  }
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    Value *T = pointerOf(Sel->getTrueValue());
    Value *E = pointerOf(Sel->getFalseValue());
    IRBuilder<> B(after(*I));
    return Pointers[V] =
               B.CreateSelect(Sel->getCondition(), T, E, I->getName() + ".ptr");
  }
  if (auto *BO = dyn_cast<BinaryOperator>(I)) {
    Value *Base =
        BO->getOpcode() == Instruction::Sub ? BO->getOperand(0) : baseOf(*BO);
    Value *Offset =
        Base == BO->getOperand(0) ? BO->getOperand(1) : BO->getOperand(0);
    Value *BasePointer = pointerOf(Base);
    IRBuilder<> B(after(*I));
    if (BO->getOpcode() == Instruction::Sub)
      Offset = B.CreateNeg(Offset);
    return Pointers[V] = B.CreateGEP(B.getInt8Ty(), BasePointer, Offset,
                                     I->getName() + ".ptr");
  }
  // A loaded or converted (other address space) pointer.
  IRBuilder<> B(after(*I));
  return Pointers[V] = B.CreateIntToPtr(I, Ptr, I->getName() + ".ptr");
}

bool AddressRewriter::run() {
  SmallVector<IntToPtrInst *, 32> Casts;
  for (Instruction &I : instructions(F))
    if (auto *Cast = dyn_cast<IntToPtrInst>(&I);
        Cast && Cast->getType()->getPointerAddressSpace() == 0 &&
        isAddress(Cast->getOperand(0)))
      Casts.push_back(Cast);
  settle();
  bool Changed = false;
  for (IntToPtrInst *Cast : Casts) {
    Value *Address = Cast->getOperand(0);
    // Already a base: nothing to gain.
    if (!Known.lookup(Address) || isa<Argument, LoadInst>(Address))
      continue;
    Cast->replaceAllUsesWith(pointerOf(Address));
    Cast->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses IntegerAddressesPass::run(Function &F,
                                            FunctionAnalysisManager &) {
  if (F.isDeclaration() || !AddressRewriter(F).run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace cucpu::ptx

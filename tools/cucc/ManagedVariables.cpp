//===- ManagedVariables.cpp - Host access to __managed__ variables --------===//
#include "ManagedVariables.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace cucpu::cucc {

namespace {

constexpr StringLiteral ManagedAnnotation = "cucpu.managed";

/// The globals that `annotate("cucpu.managed")` marks, from
/// llvm.global.annotations ({value, annotation string, file, line, args}).
SmallSetVector<GlobalVariable *, 4> managedGlobals(Module &M) {
  SmallSetVector<GlobalVariable *, 4> Found;
  GlobalVariable *Annotations = M.getNamedGlobal("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return Found;
  auto *Entries = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Entries)
    return Found;
  for (Value *Entry : Entries->operands()) {
    auto *Fields = dyn_cast<ConstantStruct>(Entry);
    if (!Fields || Fields->getNumOperands() < 2)
      continue;
    auto *Text =
        dyn_cast<GlobalVariable>(Fields->getOperand(1)->stripPointerCasts());
    auto *Data = Text && Text->hasInitializer()
                     ? dyn_cast<ConstantDataArray>(Text->getInitializer())
                     : nullptr;
    if (!Data || !Data->isCString() ||
        Data->getAsCString() != ManagedAnnotation)
      continue;
    if (auto *G = dyn_cast<GlobalVariable>(
            Fields->getOperand(0)->stripPointerCasts()))
      Found.insert(G);
  }
  return Found;
}

/// `ptr @__cucpu_managed_address(ptr %slot, ptr %shadow)`: the variable's
/// storage, asking the runtime to bind it on the first access.
Function *addressFunction(Module &M) {
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::getUnqual(C);
  FunctionType *Type = FunctionType::get(Ptr, {Ptr, Ptr}, false);
  if (Function *F = M.getFunction("__cucpu_managed_address"))
    return F;
  Function *F = Function::Create(Type, GlobalValue::InternalLinkage,
                                 "__cucpu_managed_address", M);
  F->addFnAttr(Attribute::AlwaysInline);
  FunctionCallee Init = M.getOrInsertFunction(
      "__cudaInitManagedVar", FunctionType::get(Ptr, {Ptr}, false));
  BasicBlock *Entry = BasicBlock::Create(C, "entry", F);
  BasicBlock *Bind = BasicBlock::Create(C, "bind", F);
  BasicBlock *Done = BasicBlock::Create(C, "done", F);
  IRBuilder<> B(Entry);
  Value *Current = B.CreateLoad(Ptr, F->getArg(0));
  B.CreateCondBr(B.CreateICmpEQ(Current, F->getArg(1)), Bind, Done);
  B.SetInsertPoint(Bind);
  B.CreateRet(B.CreateCall(Init, {F->getArg(0)}));
  B.SetInsertPoint(Done);
  B.CreateRet(Current);
  return F;
}

/// Turns clang's `__cudaRegisterVar(h, @V, name, name, ext, size, const,
/// global)` for \p Shadow into `__cudaRegisterManagedVar(h, @slot, ...)`.
/// Returns whether it found the call.
bool registerAsManaged(Module &M, GlobalVariable *Shadow,
                       GlobalVariable *Slot) {
  Function *RegisterVar = M.getFunction("__cudaRegisterVar");
  if (!RegisterVar)
    return false;
  FunctionCallee RegisterManaged = M.getOrInsertFunction(
      "__cudaRegisterManagedVar", RegisterVar->getFunctionType());
  for (User *U : make_early_inc_range(RegisterVar->users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->arg_size() < 2 ||
        Call->getArgOperand(1)->stripPointerCasts() != Shadow)
      continue;
    SmallVector<Value *, 8> Args(Call->args());
    Args[1] = Slot;
    IRBuilder<> B(Call);
    B.CreateCall(RegisterManaged, Args);
    Call->eraseFromParent();
    return true;
  }
  return false;
}

/// Whether constant \p C only feeds LLVM's own tables (llvm.used, ...).
bool onlyInLlvmTables(const User *C) {
  if (const auto *G = dyn_cast<GlobalVariable>(C))
    return G->getName().starts_with("llvm.");
  if (!isa<Constant>(C) || isa<GlobalValue>(C) || C->use_empty())
    return false;
  return all_of(C->users(), [](const User *U) { return onlyInLlvmTables(U); });
}

/// Removes the entries of \p Managed from llvm.global.annotations (the
/// whole table if nothing else is annotated): they have done their work.
void dropManagedAnnotations(
    Module &M, const SmallSetVector<GlobalVariable *, 4> &Managed) {
  GlobalVariable *Annotations = M.getNamedGlobal("llvm.global.annotations");
  auto *Entries = Annotations && Annotations->hasInitializer()
                      ? dyn_cast<ConstantArray>(Annotations->getInitializer())
                      : nullptr;
  if (!Entries)
    return;
  SmallVector<Constant *, 8> Kept;
  for (Value *Entry : Entries->operands()) {
    auto *Fields = dyn_cast<ConstantStruct>(Entry);
    Value *Annotated =
        Fields ? Fields->getOperand(0)->stripPointerCasts() : nullptr;
    if (!Annotated || !is_contained(Managed, Annotated))
      Kept.push_back(cast<Constant>(Entry));
  }
  if (Kept.size() == Entries->getNumOperands())
    return;
  std::string Name = Annotations->getName().str();
  if (Kept.empty()) {
    Annotations->eraseFromParent();
    return;
  }
  auto *Type =
      ArrayType::get(Entries->getType()->getElementType(), Kept.size());
  auto *Table = new GlobalVariable(M, Type, /*isConstant=*/false,
                                   GlobalValue::AppendingLinkage,
                                   ConstantArray::get(Type, Kept), "");
  Table->setSection(Annotations->getSection());
  Annotations->eraseFromParent();
  Table->setName(Name);
}

} // namespace

Expected<unsigned> redirectManagedVariables(Module &M) {
  SmallSetVector<GlobalVariable *, 4> Managed = managedGlobals(M);
  if (Managed.empty())
    return 0;
  dropManagedAnnotations(M, Managed);
  Function *Address = addressFunction(M);
  Type *Ptr = PointerType::getUnqual(M.getContext());
  for (GlobalVariable *Shadow : Managed) {
    Shadow->removeDeadConstantUsers();
    auto *Slot = new GlobalVariable(M, Ptr, /*isConstant=*/false,
                                    GlobalValue::InternalLinkage, Shadow,
                                    Shadow->getName() + ".cucpu.managed");
    if (!registerAsManaged(M, Shadow, Slot))
      return createStringError(
          inconvertibleErrorCode(),
          formatv("the managed variable '{0}' is not registered with the "
                  "runtime in the host pass's output.",
                  Shadow->getName()));
    // Constant expressions over the variable (a GEP of an array element)
    // become instructions, so that each use can get the address first.
    convertUsersOfConstantsToInstructions({Shadow});
    // The uses as they are now: the calls added below use the shadow too.
    SmallVector<Use *, 16> Uses;
    for (Use &U : Shadow->uses())
      Uses.push_back(&U);
    for (Use *UP : Uses) {
      Use &U = *UP;
      User *Owner = U.getUser();
      if (Owner == Slot)
        continue;
      auto *I = dyn_cast<Instruction>(Owner);
      if (!I) {
        // Tables such as llvm.compiler.used may keep the shadow; any other
        // constant user is another global's initializer, which runs before
        // any code can.
        if (onlyInLlvmTables(Owner))
          continue;
        return createStringError(
            inconvertibleErrorCode(),
            formatv("the managed variable '{0}' is used in a global "
                    "initializer; cucpu can only redirect accesses from "
                    "host code.",
                    Shadow->getName()));
      }
      Instruction *Before = I;
      if (auto *Phi = dyn_cast<PHINode>(I))
        Before = Phi->getIncomingBlock(U)->getTerminator();
      IRBuilder<> B(Before);
      U.set(B.CreateCall(Address, {Slot, Shadow}));
    }
  }
  return static_cast<unsigned>(Managed.size());
}

} // namespace cucpu::cucc

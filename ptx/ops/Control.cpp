//===- Control.cpp - PTX instructions: bra, call, ret, exit, trap ---------===//
//
// A .func takes pointers to the caller's .param memory (return values
// first), so call stores its arguments into the .param variables of the
// call's block, passes their addresses, and reads the results back with
// ld.param as PTX has it. The runtime's own functions (vprintf,
// __assertfail, malloc, free) are called with their C signatures.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"
#include "ThreadExit.h"
#include "Translator.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

llvm::Error branch(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 1))
    return E;
  const Operand &Target = I.Operands[0];
  if (Target.K != Operand::Kind::Register)
    return F.error(I, "branch targets are labels (brx.idx is not supported)");
  auto BB = F.labelBlock(I, Target.Name);
  if (!BB)
    return BB.takeError();
  F.B.CreateBr(*BB);
  return llvm::Error::success();
}

llvm::Error ret(FunctionTranslator &F, const Instruction &I) {
  if (!I.Operands.empty())
    return F.error(I, "takes no operands");
  F.emitReturn();
  return llvm::Error::success();
}

llvm::Error exitThread(FunctionTranslator &F, const Instruction &I) {
  if (!I.Operands.empty())
    return F.error(I, "takes no operands");
  if (!F.Ptx.IsEntry) {
    // Ends the thread from inside a device function: lowerThreadExits()
    // inlines this function into the kernels, where the marker returns.
    F.B.CreateCall(F.declare(ThreadExitName,
                             llvm::FunctionType::get(F.B.getVoidTy(), false)));
    F.B.CreateUnreachable();
    return llvm::Error::success();
  }
  F.emitReturn();
  return llvm::Error::success();
}

llvm::Error trap(FunctionTranslator &F, const Instruction &I) {
  if (!I.Operands.empty())
    return F.error(I, "takes no operands");
  F.B.CreateCall(
      llvm::Intrinsic::getDeclaration(&F.Module.IR, llvm::Intrinsic::trap));
  F.B.CreateUnreachable();
  return llvm::Error::success();
}

} // namespace

llvm::FunctionType *runtimeSignature(llvm::LLVMContext &C,
                                     llvm::StringRef Name) {
  auto *Ptr = llvm::PointerType::get(C, 0);
  auto *I32 = llvm::Type::getInt32Ty(C);
  auto *I64 = llvm::Type::getInt64Ty(C);
  auto *Void = llvm::Type::getVoidTy(C);
  if (Name == "vprintf")
    return llvm::FunctionType::get(I32, {Ptr, Ptr}, false);
  if (Name == "__assertfail")
    return llvm::FunctionType::get(Void, {Ptr, Ptr, I32, Ptr, I64}, false);
  if (Name == "malloc")
    return llvm::FunctionType::get(Ptr, {I64}, false);
  if (Name == "free")
    return llvm::FunctionType::get(Void, {Ptr}, false);
  return nullptr;
}

bool isRuntimeFunction(llvm::StringRef Name) {
  llvm::LLVMContext C;
  return runtimeSignature(C, Name) != nullptr;
}

namespace {

/// The memory of a .param argument or result named by \p Op, or (for a
/// register or immediate argument) a temporary holding its value.
llvm::Expected<llvm::Value *> paramMemory(FunctionTranslator &F,
                                          const Instruction &I,
                                          const Operand &Op,
                                          const Variable *Formal) {
  if (Op.K == Operand::Kind::Register)
    if (const LocalSymbol *L = F.lookup(Op.Name);
        L && L->StateSpace == Space::Param)
      return L->Storage;
  // A register or immediate passed directly: spill it.
  PtxType T;
  if (Formal)
    if (auto P = PtxType::parse(Formal->Type))
      T = *P;
  auto V = F.read(I, Op, T);
  if (!V)
    return V.takeError();
  llvm::Value *Tmp = F.entryAlloca((*V)->getType(), 0, "arg");
  F.B.CreateStore(*V, Tmp);
  return Tmp;
}

llvm::Error call(FunctionTranslator &F, const Instruction &I) {
  // call (results), callee, (arguments)[, prototype];
  size_t N = I.Operands.size();
  size_t At = 0;
  const Operand *Results = nullptr;
  if (At < N && I.Operands[At].K == Operand::Kind::List)
    Results = &I.Operands[At++];
  if (At >= N || I.Operands[At].K != Operand::Kind::Register)
    return F.error(I, "expects the callee after the results");
  const Operand &Callee = I.Operands[At++];
  const Operand *Args = nullptr;
  if (At < N && I.Operands[At].K == Operand::Kind::List)
    Args = &I.Operands[At++];
  const Operand *Proto = At < N ? &I.Operands[At++] : nullptr;
  if (At != N)
    return F.error(I, "has too many operands");
  std::vector<const Operand *> Actuals;
  if (Results)
    for (const Operand &R : Results->Elements)
      Actuals.push_back(&R);
  size_t ResultCount = Actuals.size();
  if (Args)
    for (const Operand &A : Args->Elements)
      Actuals.push_back(&A);

  auto It = F.Module.Symbols.find(Callee.Name);
  const bool Direct = It != F.Module.Symbols.end() && It->second.Func;
  if (!Direct && !Proto)
    return F.error(I, "an indirect call through " + Callee.Name +
                          " needs a prototype");

  // The runtime's functions: C calling convention.
  if (Direct)
    if (llvm::FunctionType *Sig = runtimeSignature(F.Ctx, Callee.Name);
        Sig && !It->second.Func->Body) {
      if (Actuals.size() - ResultCount != Sig->getNumParams() ||
          ResultCount != (Sig->getReturnType()->isVoidTy() ? 0u : 1u))
        return F.error(I, "calls " + Callee.Name +
                              " with the wrong number of arguments");
      std::vector<llvm::Value *> Values;
      for (size_t K = 0; K < Sig->getNumParams(); ++K) {
        auto Mem = paramMemory(F, I, *Actuals[ResultCount + K], nullptr);
        if (!Mem)
          return Mem.takeError();
        Values.push_back(F.B.CreateLoad(Sig->getParamType(K), *Mem));
      }
      auto Fn = F.declare(Callee.Name, Sig);
      llvm::Value *Result = F.B.CreateCall(Fn, Values);
      if (ResultCount) {
        auto Mem = paramMemory(F, I, *Actuals[0], nullptr);
        if (!Mem)
          return Mem.takeError();
        F.B.CreateStore(Result, *Mem);
      }
      return llvm::Error::success();
    }

  llvm::FunctionType *Ty;
  llvm::Value *Target;
  const Function *Formal = Direct ? It->second.Func : nullptr;
  if (Direct) {
    auto *Fn = llvm::cast<llvm::Function>(It->second.Value);
    Ty = Fn->getFunctionType();
    Target = Fn;
  } else {
    // Through a register: every argument is a pointer to .param memory.
    std::vector<llvm::Type *> Params(Actuals.size(), F.B.getPtrTy());
    Ty = llvm::FunctionType::get(F.B.getVoidTy(), Params, false);
    auto Address = F.readAs(I, Callee, F.B.getInt64Ty(), false);
    if (!Address)
      return Address.takeError();
    Target = F.B.CreateIntToPtr(*Address, F.B.getPtrTy());
  }
  if (Ty->getNumParams() != Actuals.size())
    return F.error(I, llvm::formatv("passes {0} results and arguments to {1}, "
                                    "which takes {2}",
                                    Actuals.size(), Callee.Name,
                                    Ty->getNumParams()));
  std::vector<llvm::Value *> Values;
  for (size_t K = 0; K < Actuals.size(); ++K) {
    const Variable *Decl = nullptr;
    if (Formal) {
      Decl = K < Formal->Returns.size()
                 ? &Formal->Returns[K]
                 : &Formal->Params[K - Formal->Returns.size()];
    }
    if (!Ty->getParamType(K)->isPointerTy()) {
      // A .reg parameter: by value.
      auto V = F.readAs(I, *Actuals[K], Ty->getParamType(K), false);
      if (!V)
        return V.takeError();
      Values.push_back(*V);
      continue;
    }
    auto Mem = paramMemory(F, I, *Actuals[K], Decl);
    if (!Mem)
      return Mem.takeError();
    Values.push_back(*Mem);
  }
  F.B.CreateCall(Ty, Target, Values);
  return llvm::Error::success();
}

} // namespace

void addControlOps(OpTable &T) {
  T["bra"] = branch;
  T["ret"] = ret;
  T["exit"] = exitThread;
  T["trap"] = trap;
  T["brkpt"] = trap;
  T["call"] = call;
}

} // namespace cucpu::ptx

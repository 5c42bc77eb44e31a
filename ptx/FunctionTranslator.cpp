//===- FunctionTranslator.cpp - One PTX function to LLVM IR ---------------===//

#include "FunctionTranslator.h"
#include "ops/Ops.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

using llvm::Value;

namespace {

bool isSpecialRegister(llvm::StringRef Name) {
  if (!Name.consume_front("%"))
    return false;
  llvm::StringRef Base = Name.split('.').first;
  // %envreg0 ... %envreg31: the driver's environment registers.
  unsigned EnvReg;
  if (Base.consume_front("envreg") && !Base.getAsInteger(10, EnvReg))
    return EnvReg < 32;
  return llvm::StringSwitch<bool>(Base)
      .Cases("tid", "ntid", "ctaid", "nctaid", true)
      .Cases("laneid", "warpid", "nwarpid", "smid", "nsmid", "gridid", true)
      .Cases("lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge",
             "lanemask_gt", true)
      .Cases("clock", "clock64", "globaltimer", "globaltimer_lo",
             "globaltimer_hi", true)
      .Cases("warpsize", "dynamic_smem_size", "total_smem_size", true)
      .Default(false);
}

} // namespace

llvm::GlobalVariable *ModuleContext::sharedWindow() {
  if (!SharedWindow) {
    auto *Ty = llvm::ArrayType::get(llvm::Type::getInt8Ty(IR.getContext()), 0);
    SharedWindow = new llvm::GlobalVariable(
        IR, Ty, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
        nullptr, SharedWindowName, nullptr, llvm::GlobalValue::NotThreadLocal,
        SharedAS);
    SharedWindow->setAlignment(llvm::Align(16));
  }
  return SharedWindow;
}

FunctionTranslator::FunctionTranslator(ModuleContext &Module,
                                       const Function &Ptx, llvm::Function &IR)
    : B(IR.getContext()), Module(Module), Ptx(Ptx), IR(IR),
      Ctx(IR.getContext()) {}

llvm::Error FunctionTranslator::error(const Instruction &I,
                                      const llvm::Twine &Message) const {
  std::string Spelled = I.Opcode;
  for (const std::string &M : I.Modifiers)
    Spelled += "." + M;
  return ptxError(I.Line, "'" + Spelled + "': " + Message);
}

llvm::Expected<PtxType> FunctionTranslator::type(const Instruction &I) const {
  if (auto T = lastType(I.Modifiers))
    return *T;
  return error(I, "the instruction needs a type modifier");
}

llvm::Error FunctionTranslator::expectOperands(const Instruction &I,
                                               size_t N) const {
  if (I.Operands.size() != N)
    return error(
        I, llvm::formatv("takes {0} operands, not {1}", N, I.Operands.size()));
  return llvm::Error::success();
}

Space FunctionTranslator::spaceOf(const Instruction &I) {
  for (const std::string &M : I.Modifiers) {
    Space S = llvm::StringSwitch<Space>(M)
                  .Case("global", Space::Global)
                  .Case("shared", Space::Shared)
                  .Case("shared::cta", Space::Shared)
                  // Clusters are of one block: the cluster's shared
                  // memory is the block's own.
                  .Case("shared::cluster", Space::Shared)
                  .Case("local", Space::Local)
                  .Case("const", Space::Const)
                  .Case("param", Space::Param)
                  .Default(Space::None);
    if (S != Space::None)
      return S;
  }
  return Space::None;
}

llvm::Value *FunctionTranslator::entryAlloca(llvm::Type *Ty, unsigned Align,
                                             const llvm::Twine &Name) {
  llvm::IRBuilder<> AB(Entry, Entry->begin());
  auto *A = AB.CreateAlloca(Ty, nullptr, Name);
  if (Align)
    A->setAlignment(llvm::Align(Align));
  return A;
}

llvm::FunctionCallee FunctionTranslator::declare(llvm::StringRef Name,
                                                 llvm::FunctionType *Ty) {
  return Module.IR.getOrInsertFunction(Name, Ty);
}

llvm::BasicBlock *FunctionTranslator::newBlock(const llvm::Twine &Name) {
  return llvm::BasicBlock::Create(Ctx, Name, &IR);
}

const LocalSymbol *FunctionTranslator::lookup(llvm::StringRef Name) {
  for (size_t S = Scopes.size(); S-- > 0;) {
    auto It = Scopes[S].find(Name);
    if (It != Scopes[S].end())
      return &It->second;
    // %r57 from a %r<100> declaration of this scope.
    llvm::StringRef Prefix = Name.rtrim("0123456789");
    unsigned Index;
    if (Prefix.size() == Name.size() ||
        Name.drop_front(Prefix.size()).getAsInteger(10, Index))
      continue;
    auto R = Ranges[S].find(Prefix);
    if (R == Ranges[S].end() || Index >= R->second.first)
      continue;
    // PTX numbers %r<N> as %r0..%r(N-1); nvcc's %r1 is one of them.
    if (Name.size() - Prefix.size() > 1 && Name[Prefix.size()] == '0')
      continue;
    LocalSymbol Sym = R->second.second;
    Sym.Storage = entryAlloca(Sym.Type, 0, Name);
    return &Scopes[S].try_emplace(Name, Sym).first->second;
  }
  return nullptr;
}

llvm::Error FunctionTranslator::declaration(const Variable &V) {
  auto &Scope = Scopes.back();
  if (V.StateSpace == Space::Reg) {
    auto T = PtxType::parse(V.Type);
    if (!T)
      return ptxError(V.Line, "register type ." + V.Type + " is not supported");
    LocalSymbol Sym;
    Sym.StateSpace = Space::Reg;
    Sym.Ptx = *T;
    Sym.Type = T->irType(Ctx);
    if (V.VectorWidth)
      Sym.Type = llvm::FixedVectorType::get(Sym.Type, V.VectorWidth);
    Sym.Decl = &V;
    if (V.RangeCount) {
      if (!Ranges.back().try_emplace(V.Name, V.RangeCount, Sym).second)
        return ptxError(V.Line, "register " + V.Name + "<> declared twice");
      return llvm::Error::success();
    }
    Sym.Storage = entryAlloca(Sym.Type, 0, V.Name);
    if (!Scope.try_emplace(V.Name, Sym).second)
      return ptxError(V.Line, "register " + V.Name + " declared twice");
    return llvm::Error::success();
  }
  if (V.StateSpace == Space::Local || V.StateSpace == Space::Param) {
    // Bytes of the variable: element size times the dimensions.
    auto T = PtxType::parse(V.Type);
    if (!T || T->K == PtxType::Kind::Pred)
      return ptxError(V.Line, "variable type ." + V.Type + " is not supported");
    uint64_t Bytes = T->width() / 8 * (V.VectorWidth ? V.VectorWidth : 1);
    for (uint64_t D : V.Dims) {
      if (D == 0)
        return ptxError(
            V.Line,
            "a ." +
                std::string(V.StateSpace == Space::Local ? "local" : "param") +
                " array needs a size");
      if (Bytes > (uint64_t(1) << 30) / D)
        return ptxError(V.Line, "variable " + V.Name + " is too large");
      Bytes *= D;
    }
    LocalSymbol Sym;
    Sym.StateSpace = V.StateSpace;
    Sym.Decl = &V;
    Sym.Type = llvm::ArrayType::get(B.getInt8Ty(), Bytes);
    Sym.Storage =
        entryAlloca(Sym.Type, std::max(V.Align, T->width() / 8), V.Name);
    if (!Scope.try_emplace(V.Name, Sym).second)
      return ptxError(V.Line, "variable " + V.Name + " declared twice");
    return llvm::Error::success();
  }
  if (V.StateSpace == Space::Shared)
    return sharedDeclaration(V);
  return ptxError(V.Line,
                  "variables of this state space cannot be declared in a "
                  "function body by this driver (declare " +
                      V.Name + " at module scope)");
}

llvm::Error FunctionTranslator::sharedDeclaration(const Variable &V) {
  // A .shared variable of a function body (nvcc declares a kernel's
  // __shared__ arrays there) lives in the module like one at module scope.
  auto T = PtxType::parse(V.Type);
  if (!T || T->K == PtxType::Kind::Pred || !V.Init.empty())
    return ptxError(V.Line, "unsupported .shared declaration of " + V.Name);
  uint64_t Element = T->width() / 8 * (V.VectorWidth ? V.VectorWidth : 1);
  uint64_t Bytes = Element;
  bool Unsized = false;
  for (uint64_t D : V.Dims) {
    if (D == 0) {
      Unsized = true;
      continue;
    }
    if (Bytes > (uint64_t(1) << 32) / D)
      return ptxError(V.Line, "variable " + V.Name + " is too large");
    Bytes *= D;
  }
  auto *Ty = llvm::ArrayType::get(B.getInt8Ty(), Unsized ? 0 : Bytes);
  auto *GV = new llvm::GlobalVariable(
      Module.IR, Ty, false,
      Unsized ? llvm::GlobalValue::ExternalLinkage
              : llvm::GlobalValue::InternalLinkage,
      Unsized ? nullptr : llvm::UndefValue::get(Ty), V.Name, nullptr,
      llvm::GlobalValue::NotThreadLocal, SharedAS);
  GV->setAlignment(llvm::Align(
      V.Align ? V.Align
              : std::min<uint64_t>(std::max<uint64_t>(Element, 1), 16)));
  LocalSymbol Sym;
  Sym.StateSpace = Space::Shared;
  Sym.Decl = &V;
  Sym.Type = Ty;
  Sym.Storage = GV;
  if (!Scopes.back().try_emplace(V.Name, Sym).second)
    return ptxError(V.Line, "variable " + V.Name + " declared twice");
  return llvm::Error::success();
}

llvm::Error FunctionTranslator::declareParams() {
  Scopes.emplace_back();
  Ranges.emplace_back();
  auto Arg = IR.arg_begin();
  auto Declare = [&](const Variable &V) -> llvm::Error {
    LocalSymbol Sym;
    Sym.StateSpace = V.StateSpace == Space::Reg ? Space::Reg : Space::Param;
    Sym.Decl = &V;
    llvm::Argument &A = *Arg++;
    A.setName(V.Name);
    if (Sym.StateSpace == Space::Reg) {
      // .reg parameters (a .func ABI-less form): a register by value.
      auto T = PtxType::parse(V.Type);
      Sym.Ptx = T ? *T : PtxType();
      Sym.Type = A.getType();
      Sym.Storage = entryAlloca(Sym.Type, 0, V.Name + ".reg");
      B.CreateStore(&A, Sym.Storage);
    } else if (A.getType()->isPointerTy()) {
      Sym.Storage = &A;
    } else {
      Sym.Type = A.getType();
      Sym.Storage = entryAlloca(Sym.Type, 0, V.Name + ".addr");
      B.CreateStore(&A, Sym.Storage);
    }
    if (!Scopes.back().try_emplace(V.Name, Sym).second)
      return ptxError(V.Line, "parameter " + V.Name + " declared twice");
    return llvm::Error::success();
  };
  for (const Variable &V : Ptx.Returns)
    if (auto E = Declare(V))
      return E;
  for (const Variable &V : Ptx.Params)
    if (auto E = Declare(V))
      return E;
  return llvm::Error::success();
}

llvm::Error FunctionTranslator::collectLabels(const Block &Body) {
  for (const Statement &S : Body.Statements) {
    if (S.K == Statement::Kind::Label) {
      auto *BB = llvm::BasicBlock::Create(Ctx, S.Label);
      if (!Labels.try_emplace(S.Label, BB).second) {
        delete BB;
        return ptxError(S.Line, "label " + S.Label + " defined twice");
      }
    } else if (S.K == Statement::Kind::Block) {
      if (auto E = collectLabels(*S.Body))
        return E;
    }
  }
  return llvm::Error::success();
}

llvm::Expected<llvm::BasicBlock *>
FunctionTranslator::labelBlock(const Instruction &I, llvm::StringRef Label) {
  auto It = Labels.find(Label);
  if (It == Labels.end())
    return error(I, "no label named " + Label);
  return It->second;
}

void FunctionTranslator::emitReturn() {
  if (IR.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(llvm::Constant::getNullValue(IR.getReturnType()));
}

llvm::Error FunctionTranslator::run() {
  Entry = llvm::BasicBlock::Create(Ctx, "entry", &IR);
  B.SetInsertPoint(Entry);
  if (auto E = declareParams())
    return E;
  if (auto E = collectLabels(*Ptx.Body)) {
    // No label is placed yet: every block made so far is ours to free.
    for (auto &L : Labels)
      delete L.second;
    Labels.clear();
    return E;
  }
  llvm::Error Result = block(*Ptx.Body);
  // Labels never placed (only after an error) are not the function's to
  // free. Branches may still refer to them: the half-built body goes first
  // (which also frees the placed blocks).
  std::vector<llvm::BasicBlock *> Unplaced;
  for (auto &L : Labels)
    if (!L.second->getParent())
      Unplaced.push_back(L.second);
  if (Result)
    IR.dropAllReferences();
  for (llvm::BasicBlock *BB : Unplaced)
    delete BB;
  if (Result)
    return Result;
  if (!B.GetInsertBlock()->getTerminator())
    emitReturn();
  return llvm::Error::success();
}

llvm::Error FunctionTranslator::block(const Block &Body) {
  for (const Statement &S : Body.Statements) {
    switch (S.K) {
    case Statement::Kind::Label: {
      llvm::BasicBlock *BB = Labels[S.Label];
      if (!B.GetInsertBlock()->getTerminator())
        B.CreateBr(BB);
      BB->insertInto(&IR);
      B.SetInsertPoint(BB);
      break;
    }
    case Statement::Kind::Declaration:
      if (auto E = declaration(S.Decl))
        return E;
      break;
    case Statement::Kind::Block:
      Scopes.emplace_back();
      Ranges.emplace_back();
      if (auto E = block(*S.Body))
        return E;
      Scopes.pop_back();
      Ranges.pop_back();
      break;
    case Statement::Kind::Pragma:
    case Statement::Kind::Prototype:
      break;
    case Statement::Kind::Instruction:
      if (auto E = instruction(S.Instr))
        return E;
      break;
    }
  }
  return llvm::Error::success();
}

llvm::Error FunctionTranslator::instruction(const Instruction &I) {
  const OpTable &Table = opTable();
  auto Handler = Table.find(I.Opcode);
  if (Handler == Table.end())
    return ptxError(I.Line, "the instruction '" + I.Opcode +
                                "' is not supported by this driver's PTX JIT");
  // Code after a branch or return that no label starts is unreachable, but
  // still has to be well formed.
  if (B.GetInsertBlock()->getTerminator())
    B.SetInsertPoint(newBlock("dead"));
  if (I.Guard.empty())
    return Handler->second(*this, I);
  Operand GuardOp;
  GuardOp.Name = I.Guard;
  auto Pred = readAs(I, GuardOp, B.getInt1Ty(), false);
  if (!Pred)
    return Pred.takeError();
  Value *Cond = I.GuardNegated ? B.CreateNot(*Pred) : *Pred;
  llvm::BasicBlock *Then = newBlock("guarded");
  llvm::BasicBlock *Done = newBlock("after.guard");
  B.CreateCondBr(Cond, Then, Done);
  B.SetInsertPoint(Then);
  if (auto E = Handler->second(*this, I))
    return E;
  if (!B.GetInsertBlock()->getTerminator())
    B.CreateBr(Done);
  B.SetInsertPoint(Done);
  return llvm::Error::success();
}

llvm::Value *FunctionTranslator::specialRegister(llvm::StringRef Name) {
  llvm::StringRef Reg = Name.drop_front(); // '%'
  llvm::Type *Ty = (Reg == "clock64" || Reg == "gridid" || Reg == "globaltimer")
                       ? B.getInt64Ty()
                       : B.getInt32Ty();
  auto Callee = declare(("llvm.nvvm.read.ptx.sreg." + Reg).str(),
                        llvm::FunctionType::get(Ty, /*isVarArg=*/false));
  return B.CreateCall(Callee);
}

llvm::Value *FunctionTranslator::convertBits(Value *V, llvm::Type *Ty,
                                             bool Signed) {
  llvm::Type *From = V->getType();
  if (From == Ty)
    return V;
  unsigned FromBits = From->getPrimitiveSizeInBits();
  unsigned ToBits = Ty->getPrimitiveSizeInBits();
  if (FromBits == ToBits)
    return B.CreateBitCast(V, Ty);
  // Different widths: as integers, then reinterpreted.
  if (!From->isIntegerTy())
    V = B.CreateBitCast(V, B.getIntNTy(FromBits));
  llvm::Type *IntTo = B.getIntNTy(ToBits);
  V = FromBits > ToBits ? B.CreateTrunc(V, IntTo)
      : Signed          ? B.CreateSExt(V, IntTo)
                        : B.CreateZExt(V, IntTo);
  return Ty->isIntegerTy() ? V : B.CreateBitCast(V, Ty);
}

llvm::Expected<llvm::Value *>
FunctionTranslator::symbolAddress(const Instruction &I, llvm::StringRef Name,
                                  uint64_t Offset, Space &SymbolSpace) {
  if (const LocalSymbol *L = lookup(Name)) {
    if (L->StateSpace == Space::Reg)
      return error(I, "register " + Name + " used as an address symbol");
    SymbolSpace = L->StateSpace;
    Value *P = L->Storage;
    if (P->getType()->getPointerAddressSpace() != GenericAS)
      P = B.CreateAddrSpaceCast(P, B.getPtrTy());
    return B.CreateConstGEP1_64(B.getInt8Ty(), P, Offset);
  }
  auto It = Module.Symbols.find(Name);
  if (It == Module.Symbols.end())
    return error(I, "no register or symbol named " + Name);
  SymbolSpace = It->second.StateSpace;
  Value *P = It->second.Value;
  if (P->getType()->getPointerAddressSpace() != GenericAS)
    P = B.CreateAddrSpaceCast(P, B.getPtrTy());
  return B.CreateConstGEP1_64(B.getInt8Ty(), P, Offset);
}

llvm::Expected<llvm::Value *> FunctionTranslator::readAs(const Instruction &I,
                                                         const Operand &Op,
                                                         llvm::Type *Ty,
                                                         bool Signed) {
  switch (Op.K) {
  case Operand::Kind::Register: {
    if (const LocalSymbol *L = lookup(Op.Name);
        L && L->StateSpace == Space::Reg) {
      Value *V = B.CreateLoad(L->Type, L->Storage, Op.Name);
      if (Op.Negated)
        V = B.CreateNot(V);
      return convertBits(V, Ty, Signed);
    }
    if (isSpecialRegister(Op.Name))
      return convertBits(specialRegister(Op.Name), Ty, false);
    // PTX ISA §5.4: WARP_SZ, the run-time constant warp size.
    if (Op.Name == "WARP_SZ")
      return convertBits(B.getInt32(32), Ty, false);
    // A symbol: its address (a .shared symbol: its window offset).
    Space S;
    auto P = symbolAddress(I, Op.Name, Op.Value, S);
    if (!P)
      return P.takeError();
    Value *Address = B.CreatePtrToInt(*P, B.getInt64Ty());
    if (S == Space::Shared) {
      Address = B.CreateSub(Address, windowAddress());
    }
    return convertBits(Address, Ty, false);
  }
  case Operand::Kind::Integer: {
    if (Ty->isFloatingPointTy())
      return B.CreateSIToFP(B.getInt64(Op.Value), Ty);
    return convertBits(B.getInt64(Op.Value), Ty, true);
  }
  case Operand::Kind::Float:
  case Operand::Kind::Double: {
    bool IsFloat = Op.K == Operand::Kind::Float;
    Value *V =
        IsFloat
            ? convertBits(B.getInt32(uint32_t(Op.Value)), B.getFloatTy(), false)
            : convertBits(B.getInt64(Op.Value), B.getDoubleTy(), false);
    if (Ty->isFloatingPointTy() && Ty != V->getType())
      return Ty->getPrimitiveSizeInBits() <
                     V->getType()->getPrimitiveSizeInBits()
                 ? B.CreateFPTrunc(V, Ty)
                 : B.CreateFPExt(V, Ty);
    return convertBits(V, Ty, false);
  }
  default:
    return error(I, "expected a register or an immediate operand");
  }
}

llvm::Expected<llvm::Value *>
FunctionTranslator::read(const Instruction &I, const Operand &Op, PtxType T) {
  return readAs(I, Op, T.irType(Ctx), T.isSigned());
}

llvm::Error FunctionTranslator::write(const Instruction &I, const Operand &Dst,
                                      Value *V, PtxType T) {
  if (Dst.K == Operand::Kind::Sink)
    return llvm::Error::success();
  if (Dst.K != Operand::Kind::Register)
    return error(I, "the destination must be a register");
  const LocalSymbol *L = lookup(Dst.Name);
  if (!L || L->StateSpace != Space::Reg)
    return error(I, "no register named " + Dst.Name);
  B.CreateStore(convertBits(V, L->Type, T.isSigned()), L->Storage);
  return llvm::Error::success();
}

llvm::Value *FunctionTranslator::genericWindow() {
  return B.CreateAddrSpaceCast(Module.sharedWindow(), B.getPtrTy());
}

llvm::Value *FunctionTranslator::windowAddress() {
  return B.CreatePtrToInt(genericWindow(), B.getInt64Ty());
}

llvm::Expected<llvm::Value *> FunctionTranslator::pointer(const Instruction &I,
                                                          const Operand &Addr,
                                                          Space S) {
  if (Addr.K != Operand::Kind::Address)
    return error(I, "expected an address operand [...]");
  if (Addr.Elements.size() > 1)
    return error(I, "an address takes one base");
  if (Addr.Elements.empty()) {
    // [N]: an absolute address in the state space.
    Value *Offset = B.getInt64(Addr.Value);
    if (S == Space::Shared)
      return B.CreateGEP(B.getInt8Ty(), genericWindow(), Offset);
    return B.CreateIntToPtr(Offset, B.getPtrTy());
  }
  const Operand &Base = Addr.Elements[0];
  const LocalSymbol *L = lookup(Base.Name);
  if (L && L->StateSpace == Space::Reg) {
    Value *Reg = B.CreateLoad(L->Type, L->Storage, Base.Name);
    if (!Reg->getType()->isIntegerTy() ||
        Reg->getType()->getIntegerBitWidth() < 32)
      return error(I, "the address register " + Base.Name +
                          " is not a 32- or 64-bit integer register");
    Value *Int = B.CreateZExt(Reg, B.getInt64Ty());
    // Indexing the window's generic address (one cast, a constant) keeps
    // the stride of consecutive threads' accesses visible to the
    // vectorizer.
    if (S == Space::Shared)
      return B.CreateGEP(B.getInt8Ty(), genericWindow(),
                         B.CreateAdd(Int, B.getInt64(Addr.Value)));
    Value *P = B.CreateIntToPtr(Int, B.getPtrTy());
    return B.CreateGEP(B.getInt8Ty(), P, B.getInt64(Addr.Value));
  }
  Space SymbolSpace;
  return symbolAddress(I, Base.Name, Addr.Value, SymbolSpace);
}

} // namespace cucpu::ptx

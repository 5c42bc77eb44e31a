//===- InlineAsmPass.cpp - Inline PTX through the PTX front end -----------===//
//
// clang leaves `asm("add.u32 %0, %1, %2;" : "=r"(x) : "r"(a), "r"(b))` in the
// IR as a call of the InlineAsm "add.u32 $0, $1, $2;" with the constraints
// "=r,r,r". This pass writes each such asm as a PTX function
//
//   .visible .func (.param .b32 __cucpu_out0) __cucpu_inline_asm_0(
//       .reg .b32 %cucpu_op1, .reg .b32 %cucpu_op2)
//   {
//   .reg .b32 %cucpu_op0;
//   {
//   add.u32 %cucpu_op0, %cucpu_op1, %cucpu_op2;
//   }
//   st.param.b32 [__cucpu_out0], %cucpu_op0;
//   ret;
//   }
//
// translates it with the PTX front end into the module's context, links it in
// and inlines it where the asm was. An `exit` in the asm ends the thread: the
// front end leaves it as a call of its marker, which the module's device
// functions carry up into their kernels, where it returns (ThreadExit.h).
// docs/inline-asm.md has the rules.
//
//===----------------------------------------------------------------------===//
#include "InlineAsmPass.h"

#include "PtxError.h"
#include "ThreadExit.h"
#include "Translator.h"
#include "cucpu/modules/passes/LoweringDiagnostic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// The PTX register an operand constraint asks for.
struct RegisterClass {
  char Code;       ///< The constraint letter.
  const char *Ptx; ///< The register's PTX type.
  unsigned Bits;   ///< Its width.
  bool Float;      ///< .f32 or .f64.
};

/// NVPTX's register constraints. "c" (a char) lives in a 16-bit register, as
/// LLVM's NVPTX back end keeps it; "N" is another name of "l".
constexpr RegisterClass Classes[] = {
    {'h', "b16", 16, false}, {'c', "b16", 16, false}, {'r', "b32", 32, false},
    {'l', "b64", 64, false}, {'N', "b64", 64, false}, {'f', "f32", 32, true},
    {'d', "f64", 64, true},
};

const RegisterClass *registerClass(StringRef Code) {
  if (Code.size() == 1)
    for (const RegisterClass &C : Classes)
      if (C.Code == Code[0])
        return &C;
  return nullptr;
}

Type *irType(LLVMContext &C, const RegisterClass &R) {
  if (R.Float)
    return R.Bits == 32 ? Type::getFloatTy(C) : Type::getDoubleTy(C);
  return IntegerType::get(C, R.Bits);
}

/// One operand ($N) of an asm.
struct AsmOperand {
  enum class Kind { Output, Input, Immediate };
  Kind K = Kind::Input;
  const RegisterClass *Class = nullptr;
  std::string Text;     ///< What $N becomes in the PTX text.
  std::string Param;    ///< The PTX parameter that carries it in or out.
  int TiedTo = -1;      ///< An input: the output operand it shares.
  Value *Arg = nullptr; ///< An input: the call's argument.
};

/// The PTX function of one asm call, without its name.
struct AsmFunction {
  std::vector<AsmOperand> Operands;
  std::string Signature;     ///< "(.param ...) NAME(.reg ...)"; NAME replaced.
  std::string Body;          ///< From the opening brace to the closing one.
  unsigned FirstAsmLine = 0; ///< Line of Body holding the asm's first line.
  bool ClobbersMemory = false;
  bool Volatile = false; ///< asm volatile: its memory accesses are too.
};

Error asmError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

/// Whether values of \p T can sit in a register operand: a scalar, or a
/// small vector such as a half2 that the register holds bit for bit.
bool isScalar(Type *T) {
  if (auto *V = dyn_cast<FixedVectorType>(T))
    return (V->getElementType()->isIntegerTy() ||
            V->getElementType()->isFloatingPointTy()) &&
           V->getPrimitiveSizeInBits() <= 64;
  return T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy();
}

/// Reads the constraints of \p Call: which operand is which, and in which
/// PTX register it lives.
Error readOperands(CallInst &Call, InlineAsm &IA, AsmFunction &Fn) {
  unsigned NextArg = 0;
  unsigned Outputs = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber) {
      if (!C.Codes.empty() && C.Codes[0] == "{memory}")
        Fn.ClobbersMemory = true;
      continue;
    }
    if (C.Type == InlineAsm::isLabel)
      return asmError("asm goto is not supported");
    std::string Code = C.Codes.empty() ? "" : C.Codes[0];
    if (C.isIndirect)
      return asmError("the memory operand \"" + Code +
                      "\" is not supported; pass the address in an \"l\" "
                      "register");
    AsmOperand Op;
    unsigned N = Fn.Operands.size();
    if (C.Type == InlineAsm::isOutput) {
      Op.K = AsmOperand::Kind::Output;
      Op.Class = registerClass(Code);
      if (!Op.Class)
        return asmError("the output constraint \"=" + Code +
                        "\" is not supported (h, r, l, f, d, c are)");
      Type *Result = Call.getType();
      if (auto *ST = dyn_cast<StructType>(Result))
        Result = Outputs < ST->getNumElements() ? ST->getElementType(Outputs)
                                                : nullptr;
      if (!Result || !isScalar(Result))
        return asmError(formatv("output {0} is not a scalar value", N));
      Op.Text = "%cucpu_op" + std::to_string(N);
      Op.Param = "__cucpu_out" + std::to_string(Outputs++);
      Fn.Operands.push_back(Op);
      continue;
    }
    if (NextArg >= Call.arg_size())
      return asmError("the call has fewer arguments than the constraints");
    Op.Arg = Call.getArgOperand(NextArg++);
    if (!isScalar(Op.Arg->getType()))
      return asmError(formatv("operand {0} is not a scalar value", N));
    unsigned Tied;
    if (!Code.empty() && !StringRef(Code).getAsInteger(10, Tied)) {
      if (Tied >= N || Fn.Operands[Tied].K != AsmOperand::Kind::Output)
        return asmError(formatv("operand {0} is tied to {1}, which is not an "
                                "output",
                                N, Tied));
      Op.Class = Fn.Operands[Tied].Class;
      Op.TiedTo = static_cast<int>(Tied);
      Op.Text = Fn.Operands[Tied].Text;
      Op.Param = "%cucpu_tied" + std::to_string(N);
    } else if (Code == "n" || Code == "i") {
      auto *CI = dyn_cast<ConstantInt>(Op.Arg);
      if (!CI)
        return asmError(
            formatv("operand {0} (\"{1}\") is not a constant", N, Code));
      Op.K = AsmOperand::Kind::Immediate;
      Op.Text = std::to_string(CI->getSExtValue());
    } else {
      Op.Class = registerClass(Code);
      if (!Op.Class)
        return asmError("the input constraint \"" + Code +
                        "\" is not supported (h, r, l, f, d, c, n are)");
      Op.Text = Op.Param = "%cucpu_op" + std::to_string(N);
    }
    Fn.Operands.push_back(Op);
  }
  return Error::success();
}

/// The asm text with its operands ($0, ${1}), escapes ($$, and the $( $| $)
/// of assembler dialects) and unique number (${:uid}) spelled out as PTX.
Expected<std::string> substitute(StringRef Asm, ArrayRef<AsmOperand> Operands) {
  std::string Out;
  for (size_t I = 0; I < Asm.size(); ++I) {
    char Ch = Asm[I];
    if (Ch != '$') {
      Out += Ch;
      continue;
    }
    if (++I == Asm.size())
      return asmError("the asm text ends in '$'");
    char Next = Asm[I];
    StringRef Ref;
    if (Next == '$' || Next == '|') {
      Out += Next;
      continue;
    }
    if (Next == '(' || Next == ')') {
      Out += Next == '(' ? '{' : '}';
      continue;
    }
    if (Next == '{') {
      size_t Close = Asm.find('}', I);
      if (Close == StringRef::npos)
        return asmError("an operand reference '${' is not closed");
      Ref = Asm.slice(I + 1, Close);
      I = Close;
      if (Ref == ":uid") {
        // Each asm is a function of its own, so its labels cannot clash
        // with another copy's: any number is unique enough.
        Out += '0';
        continue;
      }
      if (Ref.contains(':'))
        return asmError("the operand modifier '${" + Ref +
                        "}' is not supported");
    } else if (isDigit(Next)) {
      size_t End = I;
      while (End < Asm.size() && isDigit(Asm[End]))
        ++End;
      Ref = Asm.slice(I, End);
      I = End - 1;
    } else {
      return asmError(Twine("unknown escape '$") + Twine(Next) + "'");
    }
    unsigned N;
    if (Ref.getAsInteger(10, N) || N >= Operands.size())
      return asmError("the asm names operand %" + Ref +
                      ", which it does not "
                      "have");
    Out += Operands[N].Text;
  }
  return Out;
}

/// The PTX function of \p Call.
Expected<AsmFunction> describe(CallInst &Call, InlineAsm &IA) {
  AsmFunction Fn;
  Fn.Volatile = IA.hasSideEffects();
  if (Error E = readOperands(Call, IA, Fn))
    return E;
  Expected<std::string> Text = substitute(IA.getAsmString(), Fn.Operands);
  if (!Text)
    return Text.takeError();

  std::string Returns, Params, Body = "{\n";
  for (const AsmOperand &Op : Fn.Operands) {
    if (Op.K == AsmOperand::Kind::Output) {
      Returns += (Returns.empty() ? "" : ", ") + std::string(".param .") +
                 Op.Class->Ptx + " " + Op.Param;
      Body += std::string(".reg .") + Op.Class->Ptx + " " + Op.Text + ";\n";
    } else if (Op.K == AsmOperand::Kind::Input) {
      Params += (Params.empty() ? "" : ", ") + std::string(".reg .") +
                Op.Class->Ptx + " " + Op.Param;
    }
  }
  for (const AsmOperand &Op : Fn.Operands)
    if (Op.TiedTo >= 0)
      Body += std::string("mov.") + Op.Class->Ptx + " " + Op.Text + ", " +
              Op.Param + ";\n";
  Body += "{\n";
  Fn.FirstAsmLine = 1 + static_cast<unsigned>(count(Body, '\n'));
  Body += *Text + "\n}\n";
  for (const AsmOperand &Op : Fn.Operands)
    if (Op.K == AsmOperand::Kind::Output)
      Body += std::string("st.param.") + Op.Class->Ptx + " [" + Op.Param +
              "], " + Op.Text + ";\n";
  Body += "ret;\n}\n";
  Fn.Signature =
      (Returns.empty() ? "" : "(" + Returns + ") ") + "NAME(" + Params + ")";
  Fn.Body = std::move(Body);
  return Fn;
}

/// \p V as \p To: the same bits, zero-extended or truncated to \p To's
/// width (a pointer as its 64-bit address).
Value *coerce(IRBuilder<> &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  Value *Int = V;
  if (From->isPointerTy())
    Int = B.CreatePtrToInt(V, B.getInt64Ty());
  else if (!From->isIntegerTy())
    Int = B.CreateBitCast(V, B.getIntNTy(From->getPrimitiveSizeInBits()));
  unsigned Bits = To->isPointerTy() ? 64 : To->getPrimitiveSizeInBits();
  Int = B.CreateZExtOrTrunc(Int, B.getIntNTy(Bits));
  if (To->isPointerTy())
    return B.CreateIntToPtr(Int, To);
  return To->isIntegerTy() ? Int : B.CreateBitCast(Int, To);
}

/// The asm text for a message: its whitespace runs as single spaces.
std::string spelled(StringRef Asm) {
  std::string Out;
  for (char Ch : Asm) {
    bool Space = Ch == ' ' || Ch == '\t' || Ch == '\n' || Ch == '\r';
    if (Space && (Out.empty() || Out.back() == ' '))
      continue;
    Out += Space ? ' ' : Ch;
  }
  StringRef Trimmed = StringRef(Out).rtrim();
  if (Trimmed.size() > 240)
    return Trimmed.take_front(240).str() + "...";
  return Trimmed.str();
}

/// The front end's complaint, with the line counted in the asm text.
std::string frontEndProblem(Error E, unsigned FirstAsmLine, unsigned AsmLines) {
  std::string Problem;
  handleAllErrors(
      std::move(E),
      [&](const cucpu::ptx::PtxError &P) {
        std::string Text = P.message();
        StringRef Rest = Text;
        if (Rest.consume_front("line ")) {
          auto [Number, Message] = Rest.split(": ");
          unsigned Line;
          if (!Number.getAsInteger(10, Line) && !Message.empty()) {
            if (Line >= FirstAsmLine && Line < FirstAsmLine + AsmLines)
              Problem = formatv("line {0} of the asm: {1}",
                                Line - FirstAsmLine + 1, Message);
            else
              Problem = Message.str();
            return;
          }
        }
        Problem = Text;
      },
      [&](const ErrorInfoBase &Other) { Problem = Other.message(); });
  return Problem;
}

/// Translates, links in and inlines the asm calls of one module.
class AsmLowering {
public:
  explicit AsmLowering(Module &M) : M(M) {}

  /// Replaces every asm call; records failures in the state.
  bool run();

private:
  void lower(CallInst &Call, InlineAsm &IA);
  Expected<Function *> functionFor(const AsmFunction &Fn);
  void fail(CallInst &Call, InlineAsm &IA, const Twine &Why);

  Module &M;
  /// Generated functions by their PTX text.
  StringMap<Function *> Generated;
  /// The asm texts and reasons already reported.
  StringSet<> Reported;
  SmallVector<AllocaInst *, 16> Slots;
  unsigned NextName = 0;
};

void AsmLowering::fail(CallInst &Call, InlineAsm &IA, const Twine &Why) {
  // One message per asm text and reason: clang inlines a device function
  // with an asm into every caller, and one sentence says it for all.
  std::string Text = spelled(IA.getAsmString());
  std::string Reason = Why.str();
  if (Reported.insert(Text + "\n" + Reason).second)
    reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                        "Function " + Call.getFunction()->getName() +
                            " contains inline PTX assembly that cucpu cannot "
                            "translate (\"" +
                            Text + "\"): " + Reason + ".");
  // The load fails; later passes need not meet the asm.
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(PoisonValue::get(Call.getType()));
  Call.eraseFromParent();
}

Expected<Function *> AsmLowering::functionFor(const AsmFunction &Fn) {
  std::string Key =
      (Fn.Volatile ? "volatile\n" : "\n") + Fn.Signature + "\n" + Fn.Body;
  if (Function *Known = Generated.lookup(Key))
    return Known;
  std::string Name;
  do
    Name = "__cucpu_inline_asm_" + std::to_string(NextName++);
  while (M.getNamedValue(Name));
  std::string Signature = Fn.Signature;
  Signature.replace(Signature.find("NAME"), 4, Name);
  std::string Header = ".version 9.0\n.target sm_90\n.address_size 64\n"
                       ".visible .func " +
                       Signature + "\n";
  unsigned HeaderLines = static_cast<unsigned>(count(Header, '\n'));
  Expected<std::unique_ptr<Module>> Ptx = cucpu::ptx::compile(
      Header + Fn.Body, M.getContext(), cucpu::ptx::ThreadExits::Keep);
  if (!Ptx) {
    unsigned AsmLines = 1 + static_cast<unsigned>(count(Fn.Body, '\n'));
    return asmError(frontEndProblem(Ptx.takeError(),
                                    HeaderLines + Fn.FirstAsmLine, AsmLines));
  }
  (*Ptx)->setDataLayout(M.getDataLayout());
  (*Ptx)->setTargetTriple(M.getTargetTriple());
  if (Linker::linkModules(M, std::move(*Ptx)))
    return asmError("its translation does not link into the module");
  Function *F = M.getFunction(Name);
  if (!F || F->isDeclaration())
    return asmError("its translation has no function " + Name);
  F->setLinkage(GlobalValue::InternalLinkage);
  // "asm volatile" runs each time control reaches it: a spin loop over
  // CUB's ThreadLoad<LOAD_CG> (asm volatile "ld.cg...") must load in every
  // iteration, which a plain load the optimizer may hoist does not.
  // The results' .param slots (the pointer arguments) stay plain.
  if (Fn.Volatile)
    for (Instruction &I : instructions(*F)) {
      if (auto *Load = dyn_cast<LoadInst>(&I)) {
        if (!isa<Argument>(Load->getPointerOperand()))
          Load->setVolatile(true);
      } else if (auto *Store = dyn_cast<StoreInst>(&I)) {
        if (!isa<Argument>(Store->getPointerOperand()))
          Store->setVolatile(true);
      }
    }
  Generated[Key] = F;
  return F;
}

void AsmLowering::lower(CallInst &Call, InlineAsm &IA) {
  Expected<AsmFunction> Fn = describe(Call, IA);
  if (!Fn)
    return fail(Call, IA, toString(Fn.takeError()));
  Expected<Function *> Callee = functionFor(*Fn);
  if (!Callee)
    return fail(Call, IA, toString(Callee.takeError()));

  Function &Caller = *Call.getFunction();
  IRBuilder<> Entry(&Caller.getEntryBlock(),
                    Caller.getEntryBlock().getFirstInsertionPt());
  IRBuilder<> B(&Call);
  LLVMContext &C = M.getContext();
  // The results' .param slots first, then the inputs' registers.
  std::vector<Value *> Args;
  std::vector<std::pair<AllocaInst *, Type *>> Results;
  for (const AsmOperand &Op : Fn->Operands)
    if (Op.K == AsmOperand::Kind::Output) {
      Type *Ty = irType(C, *Op.Class);
      AllocaInst *Slot = Entry.CreateAlloca(Ty, nullptr, "asm.out");
      Slots.push_back(Slot);
      Results.push_back({Slot, Ty});
      Args.push_back(Slot);
    }
  for (const AsmOperand &Op : Fn->Operands)
    if (Op.K == AsmOperand::Kind::Input)
      Args.push_back(coerce(B, Op.Arg, irType(C, *Op.Class)));

  // A "memory" clobber keeps the compiler from moving memory accesses across
  // the asm, whatever the asm itself does.
  if (Fn->ClobbersMemory)
    B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                  SyncScope::SingleThread);
  CallInst *Inline = B.CreateCall(*Callee, Args);
  if (Fn->ClobbersMemory)
    B.CreateFence(AtomicOrdering::SequentiallyConsistent,
                  SyncScope::SingleThread);

  Type *RetTy = Call.getType();
  Value *Result = nullptr;
  if (auto *ST = dyn_cast<StructType>(RetTy)) {
    Result = PoisonValue::get(ST);
    for (unsigned I = 0; I < Results.size(); ++I) {
      Value *V = B.CreateLoad(Results[I].second, Results[I].first);
      Result =
          B.CreateInsertValue(Result, coerce(B, V, ST->getElementType(I)), {I});
    }
  } else if (!RetTy->isVoidTy() && !Results.empty()) {
    Value *V = B.CreateLoad(Results[0].second, Results[0].first);
    Result = coerce(B, V, RetTy);
  }
  if (Result)
    Call.replaceAllUsesWith(Result);
  Call.eraseFromParent();

  InlineFunctionInfo IFI;
  InlineResult Inlined = InlineFunction(*Inline, IFI);
  if (!Inlined.isSuccess())
    reportLoweringError(
        M.getContext(), LoweringFailure::Internal,
        "The translation of inline PTX assembly (\"" +
            spelled(IA.getAsmString()) + "\") in function " + Caller.getName() +
            " cannot be inlined: " + Inlined.getFailureReason() + ".");
}

bool AsmLowering::run() {
  std::vector<CallInst *> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Call->isInlineAsm()) {
          if (auto *CI = dyn_cast<CallInst>(Call)) {
            Calls.push_back(CI);
          } else {
            reportLoweringError(
                M.getContext(), LoweringFailure::Unsupported,
                "Function " + F.getName() +
                    " contains inline PTX assembly reached by an "
                    "invoke or asm goto, which cucpu cannot "
                    "translate.");
          }
        }
  if (Calls.empty())
    return false;
  for (CallInst *Call : Calls)
    lower(*Call, *cast<InlineAsm>(Call->getCalledOperand()));
  // The results' slots are plain loads and stores once inlined.
  DenseMap<Function *, SmallVector<AllocaInst *, 8>> SlotsOf;
  for (AllocaInst *A : Slots)
    if (isAllocaPromotable(A))
      SlotsOf[A->getFunction()].push_back(A);
  for (auto &[F, Promotable] : SlotsOf) {
    DominatorTree DT(*F);
    PromoteMemToReg(Promotable, DT);
  }
  for (auto &Entry : Generated)
    if (Entry.second->use_empty())
      Entry.second->eraseFromParent();
  // An asm `exit` ends the thread: the kernel returns there.
  if (Error E = cucpu::ptx::lowerThreadExits(M))
    reportLoweringError(M.getContext(), LoweringFailure::Unsupported,
                        "Inline PTX assembly executes exit where cucpu cannot "
                        "end the thread: " +
                            toString(std::move(E)) + ".");
  return true;
}

} // namespace

PreservedAnalyses InlineAsmPass::run(Module &M, ModuleAnalysisManager &) {
  AsmLowering Lowering(M);
  return Lowering.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- Atomics.cpp - PTX instructions: atom, red --------------------------===//
//
// atom and red become the IR cucc's clang emits for CUDA's atomic functions:
// atomicrmw and cmpxchg (monotonic for PTX's default .relaxed), and
// llvm.nvvm.atomic.load.{inc,dec}.32.p0 for atomicInc/atomicDec, so the
// JIT's passes (NvvmMemoryPass, the block functions' shared atomics,
// memcheck) see the same forms. Every scope is the system's: device memory
// is host memory and a CPU atomic is atomic for all of it. Additions of
// f32 (which PTX flushes to zero) and of f16/bf16 and their pairs are
// compare-and-swap loops, as LLVM expands clang's atomicrmw fadd for x86.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// The operation of an atom/red instruction.
enum class AtomicOp { None, Add, Inc, Dec, Min, Max, And, Or, Xor, Exch, Cas };

AtomicOp atomicOp(llvm::StringRef M) {
  return llvm::StringSwitch<AtomicOp>(M)
      .Case("add", AtomicOp::Add)
      .Case("inc", AtomicOp::Inc)
      .Case("dec", AtomicOp::Dec)
      .Case("min", AtomicOp::Min)
      .Case("max", AtomicOp::Max)
      .Case("and", AtomicOp::And)
      .Case("or", AtomicOp::Or)
      .Case("xor", AtomicOp::Xor)
      .Case("exch", AtomicOp::Exch)
      .Case("cas", AtomicOp::Cas)
      .Default(AtomicOp::None);
}

/// What the modifiers of an atom/red instruction say.
struct AtomicForm {
  AtomicOp Op = AtomicOp::None;
  PtxType Type;
  Space StateSpace = Space::None;
  llvm::AtomicOrdering Order = llvm::AtomicOrdering::Monotonic;
  unsigned Width = 1; ///< .v2/.v4/.v8: elements, each its own atomic.
};

/// Reads and checks the modifiers of \p I: exactly one operation, a type,
/// at most one memory order, any scope, .global, .shared or generic.
llvm::Expected<AtomicForm> atomicForm(FunctionTranslator &F,
                                      const Instruction &I) {
  AtomicForm Form;
  bool HasType = false, HasOrder = false;
  for (const std::string &M : I.Modifiers) {
    if (AtomicOp Op = atomicOp(M); Op != AtomicOp::None) {
      if (Form.Op != AtomicOp::None)
        return F.error(I, "names two operations");
      Form.Op = Op;
      continue;
    }
    if (auto T = PtxType::parse(M)) {
      if (HasType)
        return F.error(I, "names two types");
      Form.Type = *T;
      HasType = true;
      continue;
    }
    auto Order = llvm::StringSwitch<std::optional<llvm::AtomicOrdering>>(M)
                     .Case("relaxed", llvm::AtomicOrdering::Monotonic)
                     .Case("acquire", llvm::AtomicOrdering::Acquire)
                     .Case("release", llvm::AtomicOrdering::Release)
                     .Case("acq_rel", llvm::AtomicOrdering::AcquireRelease)
                     .Default(std::nullopt);
    if (Order) {
      if (HasOrder)
        return F.error(I, "names two memory orders");
      Form.Order = *Order;
      HasOrder = true;
      continue;
    }
    // .shared::cluster of a one-block cluster is the block's own shared
    // memory.
    if (M == "global" || M == "shared" || M == "shared::cta" ||
        M == "shared::cluster") {
      Form.StateSpace = M == "global" ? Space::Global : Space::Shared;
      continue;
    }
    // Scopes: every scope is the whole system here. .noftz: f16 additions
    // never flush subnormals.
    if (M == "cta" || M == "gpu" || M == "sys" || M == "cluster" ||
        M == "noftz")
      continue;
    if (M == "v2" || M == "v4" || M == "v8") {
      Form.Width = M[1] - '0';
      continue;
    }
    return F.error(I, "the modifier ." + M +
                          " is not supported by this driver's PTX JIT");
  }
  if (Form.Op == AtomicOp::None)
    return F.error(I, "needs an operation (.add, .inc, .dec, .min, .max, "
                      ".and, .or, .xor, .exch or .cas)");
  if (!HasType)
    return F.error(I, "needs a type");
  return Form;
}

/// Checks that \p Form's type is one PTX defines for its operation (and this
/// driver implements).
llvm::Error checkType(FunctionTranslator &F, const Instruction &I,
                      const AtomicForm &Form) {
  const PtxType &T = Form.Type;
  bool Int3264 = T.isInteger() && (T.Bits == 32 || T.Bits == 64);
  bool Ok = false;
  switch (Form.Op) {
  case AtomicOp::Add:
    Ok =
        (T.isInteger() && T.K != PtxType::Kind::Bits && Int3264) || T.isFloat();
    break;
  case AtomicOp::Inc:
  case AtomicOp::Dec:
    Ok = T.K == PtxType::Kind::Unsigned && T.Bits == 32;
    break;
  case AtomicOp::Min:
  case AtomicOp::Max:
    Ok = Int3264 && T.K != PtxType::Kind::Bits;
    break;
  case AtomicOp::And:
  case AtomicOp::Or:
  case AtomicOp::Xor:
    Ok = Int3264;
    break;
  case AtomicOp::Exch:
  case AtomicOp::Cas:
    // .b16 (cas), .b32, .b64; .b128 would need a 16-byte compare-exchange.
    Ok = (T.isInteger() || T.isFloat()) &&
         (T.width() == 16 || T.width() == 32 || T.width() == 64);
    break;
  case AtomicOp::None:
    break;
  }
  if (!Ok)
    return F.error(I, "this operation and type are not a PTX atomic this "
                      "driver supports");
  return llvm::Error::success();
}

/// The failure order of a compare-and-swap of order \p Success.
llvm::AtomicOrdering failureOrder(llvm::AtomicOrdering Success) {
  if (Success == llvm::AtomicOrdering::AcquireRelease ||
      Success == llvm::AtomicOrdering::Acquire)
    return llvm::AtomicOrdering::Acquire;
  return llvm::AtomicOrdering::Monotonic;
}

/// The atomicrmw operation for \p Form; BAD_BINOP for f32 and 16-bit float
/// additions. (An enum, not an optional: GCC's -O1 with the sanitizers
/// warns that an inlined optional may be used uninitialized.)
llvm::AtomicRMWInst::BinOp rmwOp(const AtomicForm &Form) {
  using RMW = llvm::AtomicRMWInst;
  bool Signed = Form.Type.isSigned();
  switch (Form.Op) {
  case AtomicOp::Add:
    if (Form.Type.isFloat())
      return Form.Type.Bits == 64 ? RMW::FAdd : RMW::BAD_BINOP;
    return RMW::Add;
  case AtomicOp::Inc:
    return RMW::UIncWrap;
  case AtomicOp::Dec:
    return RMW::UDecWrap;
  case AtomicOp::Min:
    return Signed ? RMW::Min : RMW::UMin;
  case AtomicOp::Max:
    return Signed ? RMW::Max : RMW::UMax;
  case AtomicOp::And:
    return RMW::And;
  case AtomicOp::Or:
    return RMW::Or;
  case AtomicOp::Xor:
    return RMW::Xor;
  case AtomicOp::Exch:
    return RMW::Xchg;
  default:
    return RMW::BAD_BINOP;
  }
}

/// A 16-bit float (bits of \p T's format) as a float.
Value *widen16(FunctionTranslator &F, Value *Bits, const PtxType &T) {
  if (T.K == PtxType::Kind::BFloat)
    return F.B.CreateBitCast(
        F.B.CreateShl(F.B.CreateZExt(Bits, F.B.getInt32Ty()), 16),
        F.B.getFloatTy());
  return F.B.CreateFPExt(F.B.CreateBitCast(Bits, F.B.getHalfTy()),
                         F.B.getFloatTy());
}

/// A float rounded to nearest even in \p T's 16-bit format (bits); a NaN is
/// the canonical 0x7fff. The float sum of two 16-bit values rounded once
/// more is the correctly rounded sum (24 >= 2 * 11 + 2 bits).
Value *narrow16(FunctionTranslator &F, Value *V, const PtxType &T) {
  Value *R;
  if (T.K == PtxType::Kind::BFloat) {
    // By hand: the CPU may have no bfloat16 conversion and the JIT no
    // library function for it.
    Value *Bits = F.B.CreateBitCast(V, F.B.getInt32Ty());
    Value *Odd = F.B.CreateAnd(F.B.CreateLShr(Bits, 16), 1);
    Value *Rounded =
        F.B.CreateAdd(F.B.CreateAdd(Bits, F.B.getInt32(0x7fff)), Odd);
    R = F.B.CreateTrunc(F.B.CreateLShr(Rounded, 16), F.B.getInt16Ty());
  } else {
    R = F.B.CreateBitCast(F.B.CreateFPTrunc(V, F.B.getHalfTy()),
                          F.B.getInt16Ty());
  }
  return F.B.CreateSelect(F.B.CreateFCmpUNO(V, V), F.B.getInt16(0x7fff), R);
}

/// A compare-and-swap loop on the integer bits at \p Ptr: stores
/// \p Update(old bits) until no other thread came in between; returns the
/// old bits.
Value *casLoop(FunctionTranslator &F, const AtomicForm &Form, Value *Ptr,
               llvm::function_ref<Value *(Value *)> Update) {
  llvm::IRBuilder<> &B = F.B;
  unsigned Bits = Form.Type.width();
  llvm::Type *IntTy = B.getIntNTy(Bits);
  llvm::LoadInst *Initial = B.CreateLoad(IntTy, Ptr);
  Initial->setAlignment(llvm::Align(Bits / 8));
  Initial->setAtomic(llvm::AtomicOrdering::Monotonic);
  llvm::BasicBlock *Before = B.GetInsertBlock();
  llvm::BasicBlock *Loop = F.newBlock("atom.loop");
  llvm::BasicBlock *Done = F.newBlock("atom.done");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  llvm::PHINode *Old = B.CreatePHI(IntTy, 2, "atom.old");
  Old->addIncoming(Initial, Before);
  auto *Pair =
      B.CreateAtomicCmpXchg(Ptr, Old, Update(Old), llvm::MaybeAlign(Bits / 8),
                            Form.Order, failureOrder(Form.Order));
  Old->addIncoming(B.CreateExtractValue(Pair, 0), Loop);
  B.CreateCondBr(B.CreateExtractValue(Pair, 1), Done, Loop);
  B.SetInsertPoint(Done);
  return Old;
}

/// An f16, bf16, f16x2 or bf16x2 addition: each half is added in float and
/// rounded back (.noftz: subnormals stay, as the H200 keeps them).
Value *halfAdd(FunctionTranslator &F, const AtomicForm &Form, Value *Ptr,
               Value *Operand) {
  const PtxType &T = Form.Type;
  return casLoop(F, Form, Ptr, [&](Value *Old) {
    llvm::IRBuilder<> &B = F.B;
    llvm::Type *IntTy = Old->getType();
    Value *New = llvm::ConstantInt::get(IntTy, 0);
    for (unsigned K = 0; K < T.Lanes; ++K) {
      auto Lane = [&](Value *V) {
        return B.CreateTrunc(B.CreateLShr(V, 16 * K), B.getInt16Ty());
      };
      Value *Sum =
          B.CreateFAdd(widen16(F, Lane(Old), T), widen16(F, Lane(Operand), T));
      Value *Bits = B.CreateZExt(narrow16(F, Sum, T), IntTy);
      New = B.CreateOr(New, B.CreateShl(Bits, 16 * K));
    }
    return New;
  });
}

/// The bits of an f32 with a subnormal value flushed to zero of its sign.
Value *flushSubnormal32(FunctionTranslator &F, Value *Bits) {
  Value *Subnormal = F.B.CreateICmpEQ(
      F.B.CreateAnd(Bits, F.B.getInt32(0x7f800000)), F.B.getInt32(0));
  return F.B.CreateSelect(Subnormal,
                          F.B.CreateAnd(Bits, F.B.getInt32(0x80000000)), Bits);
}

/// atom.add.f32: PTX flushes its subnormal inputs and result to zero of the
/// same sign (the H200 adds 1e-40 to 0 as 0; f64 and .noftz f16 keep
/// subnormals), and a NaN result is the canonical 0x7fffffff, as add.f32's.
Value *floatAdd(FunctionTranslator &F, const AtomicForm &Form, Value *Ptr,
                Value *OperandBits) {
  return casLoop(F, Form, Ptr, [&](Value *Old) {
    llvm::IRBuilder<> &B = F.B;
    auto AsFloat = [&](Value *Bits) {
      return B.CreateBitCast(flushSubnormal32(F, Bits), B.getFloatTy());
    };
    Value *Sum = B.CreateFAdd(AsFloat(Old), AsFloat(OperandBits));
    Value *Bits = flushSubnormal32(F, B.CreateBitCast(Sum, B.getInt32Ty()));
    return B.CreateSelect(B.CreateFCmpUNO(Sum, Sum), B.getInt32(0x7fffffff),
                          Bits);
  });
}

/// atom (with a result) and red (without): the operation on memory, the
/// old value into the destination.
llvm::Error atomic(FunctionTranslator &F, const Instruction &I) {
  bool Reduce = I.Opcode == "red";
  auto Form = atomicForm(F, I);
  if (!Form)
    return Form.takeError();
  if (auto E = checkType(F, I, *Form))
    return E;
  bool Cas = Form->Op == AtomicOp::Cas;
  if (Reduce && (Cas || Form->Op == AtomicOp::Exch))
    return F.error(I, "red has no .exch or .cas; use atom");
  if (auto E = F.expectOperands(I, (Reduce ? 2 : 3) + (Cas ? 1 : 0)))
    return E;
  // Vector atomics (sm_90): additions of floating-point elements in global
  // memory, each element an atomic operation of its own, as PTX has them.
  const PtxType &T = Form->Type;
  unsigned Width = Form->Width;
  if (Width > 1 && (Form->Op != AtomicOp::Add || !T.isFloat() ||
                    Form->StateSpace == Space::Shared))
    return F.error(I, "vector atomics are floating-point .add in global "
                      "memory");
  size_t First = Reduce ? 0 : 1;
  auto Ptr = F.pointer(I, I.Operands[First], Form->StateSpace);
  if (!Ptr)
    return Ptr.takeError();
  // The registers of a data operand: one, or the elements of {a, b, ...}.
  auto Elements =
      [&](const Operand &Op) -> llvm::Expected<std::vector<const Operand *>> {
    if (Width == 1 && Op.K != Operand::Kind::Vector)
      return std::vector<const Operand *>{&Op};
    if (Op.K != Operand::Kind::Vector || Op.Elements.size() != Width)
      return F.error(I, Width == 1 ? "a vector operand needs .v2, .v4 or .v8"
                                   : "expects a vector operand of as many "
                                     "registers as the .v modifier says");
    std::vector<const Operand *> Out;
    for (const Operand &E : Op.Elements)
      Out.push_back(&E);
    return Out;
  };
  auto Srcs = Elements(I.Operands[First + 1]);
  if (!Srcs)
    return Srcs.takeError();
  std::vector<const Operand *> Dsts;
  if (!Reduce) {
    auto D = Elements(I.Operands[0]);
    if (!D)
      return D.takeError();
    Dsts = *D;
  }

  // The operands as the IR operation wants them: integers for integer,
  // exchange and compare-and-swap forms (clang's atomicExch of a float is an
  // i32 exchange), double for f64 additions.
  llvm::Type *IntTy = F.B.getIntNTy(T.width());
  bool FloatAdd = Form->Op == AtomicOp::Add && T.isFloat() && T.Bits == 64;
  llvm::Type *OpTy = FloatAdd ? T.floatType(F.Ctx) : IntTy;
  auto Read = [&](const Operand &Op) -> llvm::Expected<Value *> {
    auto V = F.readAs(I, Op, IntTy, T.isSigned());
    if (!V)
      return V.takeError();
    return OpTy == IntTy ? *V : F.B.CreateBitCast(*V, OpTy);
  };
  llvm::Align Alignment(T.width() / 8);

  for (unsigned K = 0; K < Width; ++K) {
    Value *P = K == 0 ? *Ptr
                      : F.B.CreateConstGEP1_64(F.B.getInt8Ty(), *Ptr,
                                               K * T.width() / 8);
    auto B = Read(*(*Srcs)[K]);
    if (!B)
      return B.takeError();
    Value *Old;
    if (Cas) {
      auto C = Read(I.Operands[First + 2]);
      if (!C)
        return C.takeError();
      auto *Pair = F.B.CreateAtomicCmpXchg(P, *B, *C, Alignment, Form->Order,
                                           failureOrder(Form->Order));
      Old = F.B.CreateExtractValue(Pair, 0);
    } else if ((Form->Op == AtomicOp::Inc || Form->Op == AtomicOp::Dec) &&
               Form->Order == llvm::AtomicOrdering::Monotonic) {
      // atomicInc/atomicDec: clang's NVVM intrinsics (NvvmMemoryPass makes
      // them the wrapping atomicrmw operations).
      std::string Name = std::string("llvm.nvvm.atomic.load.") +
                         (Form->Op == AtomicOp::Inc ? "inc" : "dec") + ".32.p0";
      auto Callee = F.declare(
          Name, llvm::FunctionType::get(IntTy, {F.B.getPtrTy(), IntTy}, false));
      Old = F.B.CreateCall(Callee, {P, *B});
    } else if (llvm::AtomicRMWInst::BinOp Op = rmwOp(*Form);
               Op != llvm::AtomicRMWInst::BAD_BINOP) {
      Old = F.B.CreateAtomicRMW(Op, P, *B, Alignment, Form->Order);
    } else if (T.Bits == 32) {
      Old = floatAdd(F, *Form, P, *B);
    } else {
      Old = halfAdd(F, *Form, P, *B);
    }
    if (!Reduce)
      if (auto E = F.write(I, *Dsts[K], Old, T))
        return E;
  }
  return llvm::Error::success();
}

} // namespace

void addAtomicOps(OpTable &T) {
  T["atom"] = atomic;
  T["red"] = atomic;
}

} // namespace cucpu::ptx

//===- Math.cpp - PTX instructions: sin, cos, ex2, lg2, rcp, sqrt, ... ----===//
//
// The floating-point math instructions: sin, cos, ex2, lg2, tanh (.approx),
// rcp, sqrt, rsqrt, div (floating-point forms) and copysign.
//
// The approximate forms call what cucc's __sinf, __expf, __fdividef reach
// (llvm.nvvm.*.approx.* intrinsics, which the JIT's NvvmMathPass turns into
// libdevice functions), so PTX and cucc images agree; their results are at
// least as accurate as the GPU's documented bounds. Correctly rounded forms
// are LLVM's operations (.rn) or libdevice's __nv_*_r{z,d,u} (directed).
// .ftz flushes .f32 subnormal inputs and results to zero, as the GPU does.
//
//===----------------------------------------------------------------------===//

#include "Convert.h"
#include "Ops.h"

#include "llvm/ADT/bit.h"
#include "llvm/IR/Intrinsics.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// The handler "div" had before this file's: integer division.
OpHandler IntegerDivide = nullptr;

/// Checks that every modifier of \p I is a type or one of \p Allowed.
llvm::Error onlyModifiers(FunctionTranslator &F, const Instruction &I,
                          std::initializer_list<llvm::StringRef> Allowed) {
  for (const std::string &M : I.Modifiers)
    if (!PtxType::parse(M) && !llvm::is_contained(Allowed, M))
      return F.error(I, "the modifier ." + M + " is not supported here");
  return llvm::Error::success();
}

/// A call of the NVVM intrinsic or runtime function \p Name on \p Args, all
/// of the result's type.
Value *callMath(FunctionTranslator &F, llvm::StringRef Name,
                llvm::ArrayRef<Value *> Args) {
  llvm::Type *Ty = Args[0]->getType();
  std::vector<llvm::Type *> Params(Args.size(), Ty);
  auto Callee = F.declare(Name, llvm::FunctionType::get(Ty, Params, false));
  if (auto *Fn = llvm::dyn_cast<llvm::Function>(Callee.getCallee());
      Fn && !Fn->isIntrinsic()) {
    Fn->setDoesNotAccessMemory();
    Fn->setDoesNotThrow();
    Fn->setWillReturn();
  }
  return F.B.CreateCall(Callee, Args);
}

/// "f" or "d": the NVVM intrinsics' suffix for \p X's type.
llvm::StringRef typeSuffix(Value *X) {
  return X->getType()->isDoubleTy() ? "d" : "f";
}

/// The mode of a correctly rounded rcp/sqrt/div, or nullopt for .approx
/// (and .full); an error if there is neither or both.
llvm::Expected<std::optional<Rounding>> roundingOrApprox(FunctionTranslator &F,
                                                         const Instruction &I) {
  auto R = floatRounding(I);
  bool Approx = I.has("approx") || I.has("full");
  if (R.has_value() == Approx)
    return F.error(I, "needs one of .rn, .rz, .rm, .rp or .approx");
  return R;
}

/// A unary operation on one float or double.
llvm::Expected<Value *> unaryScalar(FunctionTranslator &F, const Instruction &I,
                                    Value *X) {
  llvm::IRBuilder<> &B = F.B;
  llvm::StringRef Op = I.Opcode;
  bool Double = X->getType()->isDoubleTy();
  std::string Suffix = typeSuffix(X).str();
  auto One = llvm::ConstantFP::get(X->getType(), 1.0);
  if (Op == "sin" || Op == "cos" || Op == "ex2" || Op == "lg2" ||
      Op == "tanh") {
    if (!I.has("approx"))
      return F.error(I, "needs .approx");
    if (Double)
      return F.error(I, "has no .f64 form");
    if (Op == "tanh")
      return callMath(F, "__nv_tanhf", {X});
    return callMath(F, ("llvm.nvvm." + Op + ".approx.f").str(), {X});
  }
  if (Op == "rsqrt") {
    if (!I.has("approx"))
      return F.error(I, "needs .approx");
    return callMath(F, "llvm.nvvm.rsqrt.approx." + Suffix, {X});
  }
  auto R = roundingOrApprox(F, I);
  if (!R)
    return R.takeError();
  if (Double && !*R && (Op != "rcp" || !I.has("ftz")))
    return F.error(I, "has no .approx .f64 form but rcp.approx.ftz.f64");
  if (Op == "rcp") {
    if (!*R || **R == Rounding::Nearest)
      return B.CreateFDiv(One, X);
    return callMath(
        F, ("llvm.nvvm.rcp." + nvvmSuffix(**R) + "." + Suffix).str(), {X});
  }
  if (Op == "sqrt") {
    if (!*R || **R == Rounding::Nearest)
      return B.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, X);
    return callMath(
        F, ("llvm.nvvm.sqrt." + nvvmSuffix(**R) + "." + Suffix).str(), {X});
  }
  return F.error(I, "is not a math instruction");
}

/// sin, cos, ex2, lg2, tanh, rcp, sqrt, rsqrt on .f32/.f64, and ex2 and
/// tanh on .f16, .bf16 and their pairs (computed in float and rounded).
llvm::Error unaryMath(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 2))
    return E;
  if (auto E = onlyModifiers(F, I,
                             {"approx", "full", "ftz", "rn", "rz", "rm", "rp"}))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  bool Ftz = I.has("ftz");
  llvm::IRBuilder<> &B = F.B;
  if (T->isFloat() && T->Bits == 16) {
    if (I.Opcode != "ex2" && I.Opcode != "tanh")
      return F.error(
          I, "has no ." +
                 std::string(T->K == PtxType::Kind::BFloat ? "bf16" : "f16") +
                 " form");
    bool BFloat = T->K == PtxType::Kind::BFloat;
    Value *Result = B.getIntN(T->width(), 0);
    for (unsigned K = 0; K < T->Lanes; ++K) {
      Value *Bits = B.CreateTrunc(B.CreateLShr(*A, 16 * K), B.getInt16Ty());
      auto V = unaryScalar(F, I, halfToFloat(B, Bits, BFloat));
      if (!V)
        return V.takeError();
      Value *H = floatToHalf(F, *V, BFloat, Rounding::Nearest);
      Result = B.CreateOr(
          Result, B.CreateShl(B.CreateZExt(H, Result->getType()), 16 * K));
    }
    return F.write(I, I.Operands[0], Result, *T);
  }
  if (T->K != PtxType::Kind::Float || (T->Bits != 32 && T->Bits != 64))
    return F.error(I, "needs a floating-point type");
  // rcp.approx.ftz.f64 and rsqrt.approx.ftz.f64 flush .f64 subnormals too.
  bool Flush = Ftz;
  Value *X = Flush ? flushSubnormal(B, *A) : *A;
  auto V = unaryScalar(F, I, X);
  if (!V)
    return V.takeError();
  Value *Result = Flush ? flushSubnormal(B, *V) : *V;
  if (T->Bits == 32)
    Result = canonicalNaN(B, Result);
  else if (Ftz)
    // Their NaN is the .f32 one in the upper half (H200).
    Result = B.CreateSelect(
        B.CreateFCmpUNO(Result, Result),
        llvm::ConstantFP::get(B.getDoubleTy(),
                              llvm::bit_cast<double>(0x7fffffff00000000ull)),
        Result);
  return F.write(I, I.Operands[0], Result, *T);
}

/// div on .f32/.f64 (.rn .rz .rm .rp, .approx, .full, .ftz); integer
/// division goes to the handler registered before.
llvm::Error divide(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (T->isInteger()) {
    if (!IntegerDivide)
      return F.error(I, "integer division is not supported yet");
    return IntegerDivide(F, I);
  }
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = onlyModifiers(F, I,
                             {"approx", "full", "ftz", "rn", "rz", "rm", "rp"}))
    return E;
  if (T->K != PtxType::Kind::Float || (T->Bits != 32 && T->Bits != 64))
    return F.error(I, "needs .f32 or .f64");
  auto R = roundingOrApprox(F, I);
  if (!R)
    return R.takeError();
  if (T->Bits == 64 && !*R)
    return F.error(I, "has no .approx or .full .f64 form");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  auto D = F.read(I, I.Operands[2], *T);
  if (!D)
    return D.takeError();
  llvm::IRBuilder<> &B = F.B;
  bool Flush = I.has("ftz") && T->Bits == 32;
  Value *X = Flush ? flushSubnormal(B, *A) : *A;
  Value *Y = Flush ? flushSubnormal(B, *D) : *D;
  std::string Suffix = typeSuffix(X).str();
  Value *Q;
  if (I.has("approx"))
    Q = callMath(F, "llvm.nvvm.div.approx.f", {X, Y});
  else if (!*R || **R == Rounding::Nearest)
    Q = B.CreateFDiv(X, Y);
  else
    Q = callMath(F, ("llvm.nvvm.div." + nvvmSuffix(**R) + "." + Suffix).str(),
                 {X, Y});
  if (Flush)
    Q = flushSubnormal(B, Q);
  if (T->Bits == 32)
    Q = canonicalNaN(B, Q);
  return F.write(I, I.Operands[0], Q, *T);
}

/// copysign.type d, a, b: b with the sign of a.
llvm::Error copySign(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = onlyModifiers(F, I, {}))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (T->K != PtxType::Kind::Float || (T->Bits != 32 && T->Bits != 64))
    return F.error(I, "needs .f32 or .f64");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  auto Bv = F.read(I, I.Operands[2], *T);
  if (!Bv)
    return Bv.takeError();
  Value *R = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, *Bv, *A);
  return F.write(I, I.Operands[0], R, *T);
}

} // namespace

void addMathOps(OpTable &T) {
  for (const char *Op :
       {"sin", "cos", "ex2", "lg2", "tanh", "rcp", "sqrt", "rsqrt"})
    T[Op] = unaryMath;
  // Integer division stays with the handler registered before, if any.
  if (auto It = T.find("div"); It != T.end() && It->second != divide)
    IntegerDivide = It->second;
  T["div"] = divide;
  T["copysign"] = copySign;
}

} // namespace cucpu::ptx

//===- Arithmetic.cpp - PTX instructions: integer arithmetic --------------===//
//
// add, sub (.sat, .cc), addc, subc, mul, mad (.lo, .hi, .wide, .sat, .cc),
// madc, mul24, mad24, sad, div, rem, abs, neg, min, max (.relu, .u16x2,
// .s16x2), dp4a and dp2a. An opcode that also has floating-point forms
// hands those to ArithFloat.cpp (div: ops/Math.cpp, which registers after
// this file and keeps this handler for integer types).
//
// Results are what an H200 gives: division by zero is all ones (div and rem,
// signed and unsigned), the most negative value divided by -1 is itself
// with remainder 0, and LLVM's undefined cases are never reached.
//
//===----------------------------------------------------------------------===//

#include "ArithCommon.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/ValueSymbolTable.h"

namespace cucpu::ptx {

namespace arith {

llvm::Expected<std::vector<llvm::Value *>> sources(FunctionTranslator &F,
                                                   const Instruction &I,
                                                   PtxType T, size_t From,
                                                   size_t Count) {
  std::vector<llvm::Value *> Out;
  for (size_t K = From; K < From + Count; ++K) {
    auto V = F.read(I, I.Operands[K], T);
    if (!V)
      return V.takeError();
    Out.push_back(*V);
  }
  return Out;
}

PtxType makeType(PtxType::Kind K, unsigned Bits) {
  PtxType T;
  T.K = K;
  T.Bits = Bits;
  return T;
}

llvm::Value *carryFlag(FunctionTranslator &F) {
  // PTX identifiers have no dots, so this name is free in every function.
  static constexpr const char *Name = "ptx.carry";
  if (llvm::Value *V = F.IR.getValueSymbolTable()->lookup(Name))
    return V;
  auto *Flag =
      llvm::cast<llvm::Instruction>(F.entryAlloca(F.B.getInt1Ty(), 0, Name));
  llvm::IRBuilder<> Init(Flag->getParent(), std::next(Flag->getIterator()));
  Init.CreateStore(Init.getFalse(), Flag);
  return Flag;
}

} // namespace arith

namespace {

using llvm::Value;
using namespace arith;

/// The product of \p A and \p B for mul/mad's .lo, .hi and .wide.
Value *integerProduct(FunctionTranslator &F, const Instruction &I, PtxType T,
                      Value *A, Value *B) {
  if (!I.has("hi") && !I.has("wide"))
    return F.B.CreateMul(A, B);
  llvm::Type *Wide = F.B.getIntNTy(T.Bits * 2);
  Value *WA = T.isSigned() ? F.B.CreateSExt(A, Wide) : F.B.CreateZExt(A, Wide);
  Value *WB = T.isSigned() ? F.B.CreateSExt(B, Wide) : F.B.CreateZExt(B, Wide);
  Value *P = F.B.CreateMul(WA, WB);
  if (I.has("wide"))
    return P;
  return F.B.CreateTrunc(F.B.CreateLShr(P, T.Bits), A->getType());
}

/// The type of the result of mul/mad: twice as wide for .wide.
PtxType resultType(const Instruction &I, PtxType T) {
  if (I.has("wide"))
    T.Bits *= 2;
  return T;
}

/// Checks that \p T is an integer type of 16, 32 or 64 bits.
llvm::Error expectInteger(FunctionTranslator &F, const Instruction &I,
                          PtxType T, bool AllowBits = false) {
  if ((T.isSigned() || T.K == PtxType::Kind::Unsigned ||
       (AllowBits && T.K == PtxType::Kind::Bits)) &&
      T.Bits >= 16 && T.Bits <= 64)
    return llvm::Error::success();
  return F.error(I, "takes a 16-, 32- or 64-bit integer type");
}

/// \p Sum (2W bits wide) truncated to W bits; its bit W is the carry (or,
/// for a difference, the borrow) that .cc writes to CC.CF.
Value *withCarryOut(FunctionTranslator &F, const Instruction &I, Value *Sum,
                    unsigned W) {
  if (I.has("cc"))
    F.B.CreateStore(F.B.CreateTrunc(F.B.CreateLShr(Sum, W), F.B.getInt1Ty()),
                    carryFlag(F));
  return F.B.CreateTrunc(Sum, F.B.getIntNTy(W));
}

/// Checks the type of an instruction that reads or writes CC.CF.
llvm::Error expectCarryType(FunctionTranslator &F, const Instruction &I,
                            PtxType T) {
  if ((T.isSigned() || T.K == PtxType::Kind::Unsigned) &&
      (T.Bits == 32 || T.Bits == 64))
    return llvm::Error::success();
  return F.error(I, "with a carry takes .u32, .s32, .u64 or .s64");
}

/// The carry-in of addc/subc/madc as a \p Ty value (0 for the others).
Value *carryIn(FunctionTranslator &F, const Instruction &I, llvm::Type *Ty) {
  if (!llvm::StringRef(I.Opcode).ends_with("c"))
    return llvm::ConstantInt::get(Ty, 0);
  return F.B.CreateZExt(F.B.CreateLoad(F.B.getInt1Ty(), carryFlag(F)), Ty);
}

llvm::Error addSub(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (isFloat(*T))
    return floatBinary(F, I, *T);
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = expectInteger(F, I, *T))
    return E;
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  bool Sub = I.Opcode == "sub" || I.Opcode == "subc";
  bool Carry = I.has("cc") || I.Opcode == "addc" || I.Opcode == "subc";
  if (I.has("sat")) {
    if (T->K != PtxType::Kind::Signed || T->Bits != 32 || Carry)
      return F.error(I, ".sat is defined for .s32 alone");
    return F.write(I, I.Operands[0],
                   F.B.CreateBinaryIntrinsic(Sub ? llvm::Intrinsic::ssub_sat
                                                 : llvm::Intrinsic::sadd_sat,
                                             A, B),
                   *T);
  }
  if (!Carry)
    return F.write(I, I.Operands[0],
                   Sub ? F.B.CreateSub(A, B) : F.B.CreateAdd(A, B), *T);
  if (auto E = expectCarryType(F, I, *T))
    return E;
  // In twice the width, bit W of the sum is the carry-out; of the
  // difference, the borrow-out (subc subtracts CC.CF as a borrow).
  llvm::Type *Wide = F.B.getIntNTy(2 * T->Bits);
  Value *WA = F.B.CreateZExt(A, Wide), *WB = F.B.CreateZExt(B, Wide);
  Value *Cin = carryIn(F, I, Wide);
  Value *R = Sub ? F.B.CreateSub(F.B.CreateSub(WA, WB), Cin)
                 : F.B.CreateAdd(F.B.CreateAdd(WA, WB), Cin);
  return F.write(I, I.Operands[0], withCarryOut(F, I, R, T->Bits), *T);
}

llvm::Error multiply(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (isFloat(*T))
    return floatBinary(F, I, *T);
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = expectInteger(F, I, *T))
    return E;
  if (I.has("wide") && T->Bits == 64)
    return F.error(I, ".wide takes 16- or 32-bit operands");
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  return F.write(I, I.Operands[0], integerProduct(F, I, *T, (*S)[0], (*S)[1]),
                 resultType(I, *T));
}

llvm::Error multiplyAdd(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (isFloat(*T)) {
    if (I.Opcode == "madc")
      return F.error(I, "takes an integer type");
    return floatFma(F, I, *T);
  }
  if (I.Opcode == "fma")
    return F.error(I, "takes a floating-point type");
  if (auto E = F.expectOperands(I, 4))
    return E;
  if (auto E = expectInteger(F, I, *T))
    return E;
  if (I.has("wide") && T->Bits == 64)
    return F.error(I, ".wide takes 16- or 32-bit operands");
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  PtxType RT = resultType(I, *T);
  auto C = F.read(I, I.Operands[3], RT);
  if (!C)
    return C.takeError();
  Value *P = integerProduct(F, I, *T, (*S)[0], (*S)[1]);
  bool Carry = I.has("cc") || I.Opcode == "madc";
  if (I.has("sat")) {
    // mad.hi.sat.s32: the high half plus c, saturated.
    if (!I.has("hi") || T->K != PtxType::Kind::Signed || T->Bits != 32 || Carry)
      return F.error(I, ".sat is defined for mad.hi.s32 alone");
    return F.write(I, I.Operands[0],
                   F.B.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, P, *C),
                   RT);
  }
  if (!Carry)
    return F.write(I, I.Operands[0], F.B.CreateAdd(P, *C), RT);
  if (I.has("wide"))
    return F.error(I, "with a carry takes .lo or .hi");
  if (auto E = expectCarryType(F, I, *T))
    return E;
  llvm::Type *Wide = F.B.getIntNTy(2 * T->Bits);
  Value *R = F.B.CreateAdd(
      F.B.CreateAdd(F.B.CreateZExt(P, Wide), F.B.CreateZExt(*C, Wide)),
      carryIn(F, I, Wide));
  return F.write(I, I.Operands[0], withCarryOut(F, I, R, T->Bits), RT);
}

/// The low 24 bits of \p V, extended to 64 bits as \p Signed says.
Value *low24(FunctionTranslator &F, Value *V, bool Signed) {
  Value *Wide = Signed ? F.B.CreateSExt(V, F.B.getInt64Ty())
                       : F.B.CreateZExt(V, F.B.getInt64Ty());
  return Signed ? F.B.CreateAShr(F.B.CreateShl(Wide, 40), 40)
                : F.B.CreateAnd(Wide, 0xffffff);
}

/// mul24 and mad24: the 48-bit product of the operands' low 24 bits; .lo
/// its bits 0-31, .hi its bits 16-47.
llvm::Error multiply24(FunctionTranslator &F, const Instruction &I) {
  bool Mad = I.Opcode == "mad24";
  if (auto E = F.expectOperands(I, Mad ? 4 : 3))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if ((!T->isSigned() && T->K != PtxType::Kind::Unsigned) || T->Bits != 32)
    return F.error(I, "takes .u32 or .s32");
  auto S = sources(F, I, *T, 1, Mad ? 3 : 2);
  if (!S)
    return S.takeError();
  Value *P = F.B.CreateMul(low24(F, (*S)[0], T->isSigned()),
                           low24(F, (*S)[1], T->isSigned()));
  bool Hi = I.has("hi");
  Value *R = F.B.CreateTrunc(Hi ? F.B.CreateLShr(P, 16) : P, F.B.getInt32Ty());
  if (Mad) {
    if (I.has("sat")) {
      if (!Hi || !T->isSigned())
        return F.error(I, ".sat is defined for mad24.hi.s32 alone");
      R = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, R, (*S)[2]);
    } else {
      R = F.B.CreateAdd(R, (*S)[2]);
    }
  }
  return F.write(I, I.Operands[0], R, *T);
}

/// sad: c + |a - b|.
llvm::Error absoluteDifference(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (auto E = expectInteger(F, I, *T))
    return E;
  auto S = sources(F, I, *T, 1, 3);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  Value *Less =
      T->isSigned() ? F.B.CreateICmpSLT(A, B) : F.B.CreateICmpULT(A, B);
  Value *Diff =
      F.B.CreateSelect(Less, F.B.CreateSub(B, A), F.B.CreateSub(A, B));
  return F.write(I, I.Operands[0], F.B.CreateAdd((*S)[2], Diff), *T);
}

llvm::Error divide(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  // Floating-point div is ops/Math.cpp's.
  if (isFloat(*T))
    return F.error(I, "takes an integer type");
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = expectInteger(F, I, *T))
    return E;
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1];
  llvm::Type *Ty = A->getType();
  auto *One = llvm::ConstantInt::get(Ty, 1);
  auto *AllOnes = llvm::ConstantInt::getAllOnesValue(Ty);
  Value *Zero = F.B.CreateICmpEQ(B, llvm::ConstantInt::get(Ty, 0));
  // LLVM leaves x / 0 and (signed) MIN / -1 undefined. MIN / 1 is MIN with
  // remainder 0, as the GPU answers MIN / -1; x / 0 is all ones below.
  Value *Unsafe = Zero;
  if (T->isSigned())
    Unsafe = F.B.CreateOr(
        Zero,
        F.B.CreateAnd(F.B.CreateICmpEQ(
                          A, llvm::ConstantInt::get(
                                 Ty, llvm::APInt::getSignedMinValue(T->Bits))),
                      F.B.CreateICmpEQ(B, AllOnes)));
  Value *Divisor = F.B.CreateSelect(Unsafe, One, B);
  bool Div = I.Opcode == "div";
  Value *R =
      T->isSigned()
          ? (Div ? F.B.CreateSDiv(A, Divisor) : F.B.CreateSRem(A, Divisor))
          : (Div ? F.B.CreateUDiv(A, Divisor) : F.B.CreateURem(A, Divisor));
  return F.write(I, I.Operands[0], F.B.CreateSelect(Zero, AllOnes, R), *T);
}

llvm::Error negateOrAbsolute(FunctionTranslator &F, const Instruction &I) {
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (isFloat(*T))
    return floatUnary(F, I, *T);
  if (auto E = F.expectOperands(I, 2))
    return E;
  if (!T->isSigned() || T->Bits < 16)
    return F.error(I, "takes .s16, .s32 or .s64");
  auto A = F.read(I, I.Operands[1], *T);
  if (!A)
    return A.takeError();
  Value *R = I.Opcode == "neg" ? F.B.CreateNeg(*A)
                               : F.B.CreateBinaryIntrinsic(llvm::Intrinsic::abs,
                                                           *A, F.B.getFalse());
  return F.write(I, I.Operands[0], R, *T);
}

/// .u16x2 or .s16x2 among \p I's modifiers: its signedness.
std::optional<bool> packedSixteen(const Instruction &I) {
  for (const std::string &M : I.Modifiers) {
    if (M == "u16x2")
      return false;
    if (M == "s16x2")
      return true;
  }
  return std::nullopt;
}

/// The integer min or max of \p A and \p B (of any integer or vector type).
Value *integerMinMax(FunctionTranslator &F, bool Min, bool Signed, Value *A,
                     Value *B) {
  llvm::Intrinsic::ID Id =
      Min ? (Signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin)
          : (Signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax);
  return F.B.CreateBinaryIntrinsic(Id, A, B);
}

llvm::Error minMax(FunctionTranslator &F, const Instruction &I) {
  bool Min = I.Opcode == "min";
  if (auto Signed = packedSixteen(I)) {
    // Two 16-bit lanes in a 32-bit register.
    if (auto E = F.expectOperands(I, 3))
      return E;
    if (I.has("relu") && !*Signed)
      return F.error(I, ".relu is defined for signed types alone");
    auto *Vec = llvm::FixedVectorType::get(F.B.getInt16Ty(), 2);
    auto S = sources(F, I, makeType(PtxType::Kind::Bits, 32), 1, 2);
    if (!S)
      return S.takeError();
    Value *R = integerMinMax(F, Min, *Signed, F.B.CreateBitCast((*S)[0], Vec),
                             F.B.CreateBitCast((*S)[1], Vec));
    if (I.has("relu"))
      R = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, R,
                                    llvm::Constant::getNullValue(Vec));
    return F.write(I, I.Operands[0], F.B.CreateBitCast(R, F.B.getInt32Ty()),
                   makeType(PtxType::Kind::Bits, 32));
  }
  auto T = F.type(I);
  if (!T)
    return T.takeError();
  if (isFloat(*T))
    return floatBinary(F, I, *T);
  if (auto E = F.expectOperands(I, 3))
    return E;
  if (auto E = expectInteger(F, I, *T))
    return E;
  if (I.has("relu") && (!T->isSigned() || T->Bits != 32))
    return F.error(I, ".relu is defined for .s32 and .s16x2 alone");
  auto S = sources(F, I, *T, 1, 2);
  if (!S)
    return S.takeError();
  Value *R = integerMinMax(F, Min, T->isSigned(), (*S)[0], (*S)[1]);
  if (I.has("relu"))
    R = F.B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, R,
                                  llvm::ConstantInt::get(R->getType(), 0));
  return F.write(I, I.Operands[0], R, *T);
}

/// Byte or halfword \p K of \p V (32 bits), extended to 32 bits.
Value *part(FunctionTranslator &F, Value *V, unsigned Bits, unsigned K,
            bool Signed) {
  Value *P = F.B.CreateTrunc(F.B.CreateLShr(V, K * Bits), F.B.getIntNTy(Bits));
  return Signed ? F.B.CreateSExt(P, F.B.getInt32Ty())
                : F.B.CreateZExt(P, F.B.getInt32Ty());
}

/// dp4a.atype.btype d, a, b, c: c plus the dot product of a's and b's four
/// bytes; dp2a.lo/.hi: of a's two halfwords and b's bytes 0-1 or 2-3.
llvm::Error dotProduct(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 4))
    return E;
  std::vector<PtxType> Types;
  for (const std::string &M : I.Modifiers)
    if (auto T = PtxType::parse(M))
      Types.push_back(*T);
  if (Types.size() != 2)
    return F.error(I, "takes two types, of a and of b");
  for (PtxType T : Types)
    if ((!T.isSigned() && T.K != PtxType::Kind::Unsigned) || T.Bits != 32)
      return F.error(I, "takes .u32 or .s32 operand types");
  bool SignedA = Types[0].isSigned(), SignedB = Types[1].isSigned();
  PtxType Result = makeType(
      SignedA || SignedB ? PtxType::Kind::Signed : PtxType::Kind::Unsigned, 32);
  auto S = sources(F, I, u32Type(), 1, 3);
  if (!S)
    return S.takeError();
  Value *A = (*S)[0], *B = (*S)[1], *R = (*S)[2];
  if (I.Opcode == "dp4a") {
    for (unsigned K = 0; K < 4; ++K)
      R = F.B.CreateAdd(R, F.B.CreateMul(part(F, A, 8, K, SignedA),
                                         part(F, B, 8, K, SignedB)));
  } else {
    if (I.has("lo") == I.has("hi"))
      return F.error(I, "needs .lo or .hi");
    unsigned First = I.has("hi") ? 2 : 0;
    for (unsigned K = 0; K < 2; ++K)
      R = F.B.CreateAdd(R, F.B.CreateMul(part(F, A, 16, K, SignedA),
                                         part(F, B, 8, First + K, SignedB)));
  }
  return F.write(I, I.Operands[0], R, Result);
}

} // namespace

void addArithmeticOps(OpTable &T) {
  for (const char *Op : {"add", "sub", "addc", "subc"})
    T[Op] = addSub;
  T["mul"] = multiply;
  for (const char *Op : {"mad", "madc", "fma"})
    T[Op] = multiplyAdd;
  T["mul24"] = multiply24;
  T["mad24"] = multiply24;
  T["sad"] = absoluteDifference;
  T["div"] = divide;
  T["rem"] = divide;
  T["neg"] = negateOrAbsolute;
  T["abs"] = negateOrAbsolute;
  T["min"] = minMax;
  T["max"] = minMax;
  T["dp4a"] = dotProduct;
  T["dp2a"] = dotProduct;
  arith::addCompareOps(T);
  arith::addFloatOps(T);
}

} // namespace cucpu::ptx

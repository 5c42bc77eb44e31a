//===- Exp2Approx.cpp - 2^x for floats as straight-line IR ----------------===//
//
// The runtime's exp2f is a call into libm, which keeps a thread loop from
// vectorizing; nvcc's expf, exp2f and powf all end in ex2.approx, so every
// exponential of PTX from nvcc paid it. Here:
//   c = clamp(x, -151, 129)         (NaN becomes -151; restored at the end)
//   n = rint(c), r = c - n          (r in [-0.5, 0.5], exact)
//   p = 1 + r * q(r) ~ 2^r          (q of degree 6, relative error 2^-34)
//   y = (p * 2^(n/2)) * 2^(n - n/2)
// Both scale factors are normal floats for every n in [-151, 129], the first
// product is exact, and the second rounds once, also into the subnormals and
// to infinity. q's coefficients are a weighted least-squares fit of
// (2^r - 1) / r on 4,000 Chebyshev nodes, reweighted towards the largest
// relative error until it no longer moved (near minimax); checked against
// exp2 in double over every float in [-152, 130].
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/passes/Exp2Approx.h"

using namespace llvm;

namespace cucpu::modules {

namespace {

/// q(r) ~ (2^r - 1) / r on [-0.5, 0.5], lowest degree first.
constexpr float Coefficients[] = {
    0x1.62e430p-1f,  0x1.ebfbe0p-3f,  0x1.c6b08ap-5f,  0x1.3b29f4p-7f,
    0x1.5d8a86p-10f, 0x1.445c84p-13f, 0x1.fde5fep-17f,
};

/// 2^\p N as a float, for \p N (i32) in [-126, 127].
Value *powerOfTwo(IRBuilder<> &B, Value *N) {
  Value *Biased = B.CreateAdd(N, B.getInt32(127));
  return B.CreateBitCast(B.CreateShl(Biased, 23), B.getFloatTy());
}

} // namespace

Value *emitExp2ApproxF32(IRBuilder<> &B, Value *X) {
  Type *F32 = B.getFloatTy();
  auto Const = [&](float V) { return ConstantFP::get(F32, V); };
  // minnum/maxnum return the number when one operand is NaN, so n is
  // always an integer in range.
  Value *C = B.CreateBinaryIntrinsic(
      Intrinsic::minnum,
      B.CreateBinaryIntrinsic(Intrinsic::maxnum, X, Const(-151.0f)),
      Const(129.0f));
  Value *N = B.CreateUnaryIntrinsic(Intrinsic::rint, C);
  Value *R = B.CreateFSub(C, N);
  Value *Q = Const(Coefficients[std::size(Coefficients) - 1]);
  for (size_t K = std::size(Coefficients) - 1; K-- > 0;)
    Q = B.CreateIntrinsic(Intrinsic::fmuladd, {F32},
                          {Q, R, Const(Coefficients[K])});
  Value *P = B.CreateIntrinsic(Intrinsic::fmuladd, {F32}, {Q, R, Const(1.0f)});
  Value *Ni = B.CreateFPToSI(N, B.getInt32Ty());
  Value *Half = B.CreateAShr(Ni, 1);
  Value *Rest = B.CreateSub(Ni, Half);
  Value *Y =
      B.CreateFMul(B.CreateFMul(P, powerOfTwo(B, Half)), powerOfTwo(B, Rest));
  // x + x is a quiet NaN for any NaN x.
  return B.CreateSelect(B.CreateFCmpUNO(X, X), B.CreateFAdd(X, X), Y, "exp2");
}

} // namespace cucpu::modules

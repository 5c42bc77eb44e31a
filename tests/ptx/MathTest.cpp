//===- MathTest.cpp - PTX kernels: sin, cos, ex2, lg2, rcp, sqrt, div, ... ===//
//
// Correctly rounded forms (rcp, sqrt, div with .rn .rz .rm .rp) are checked
// bit for bit against the host's operations in each rounding mode
// (fesetround); .approx forms against the error bounds the PTX ISA and the
// CUDA programming guide give; special values (NaN, infinities, zeros,
// subnormals with .ftz) against what the PTX ISA specifies and an H200
// gives (NaN results of .f32 math are 0x7fffffff there).
//
//===----------------------------------------------------------------------===//

#include "OneInstruction.h"

#include <cfenv>
#include <cmath>

using namespace cucpu::test;
using namespace cucpu::test::single;

namespace {

using PtxMath = OneInstructionTest;

int hostMode(char M) {
  return M == 'n'   ? FE_TONEAREST
         : M == 'z' ? FE_TOWARDZERO
         : M == 'm' ? FE_DOWNWARD
                    : FE_UPWARD;
}

/// \p Op evaluated with the host in rounding mode \p M.
template <class T, class Fn> T inMode(char M, Fn Op) {
  int Old = std::fegetround();
  std::fesetround(hostMode(M));
  volatile T R = Op(); // computed before the mode is restored
  std::fesetround(Old);
  return R;
}

std::vector<float> mathFloats() {
  std::vector<float> V = {0.0f,      -0.0f,      0x1p-149f,  -0x1p-149f,
                          0x1p-127f, 0x1p-126f,  -0x1p-126f, 0x1.fffffep127f,
                          0x1p126f,  0x1.8p126f, 0x1p127f,   INFINITY,
                          -INFINITY, NAN,        1.0f,       -1.0f,
                          2.0f,      3.0f,       0.1f,       10.0f,
                          1.5f,      1e-20f,     1e20f,      3.14159265f};
  uint32_t X = 0x12345678;
  for (int K = 0; K < 600; ++K) {
    X ^= X << 13, X ^= X >> 17, X ^= X << 5;
    V.push_back(floatOf(X));
  }
  return V;
}

std::vector<double> mathDoubles() {
  std::vector<double> V = {0.0,      -0.0,     0x1p-1074, 0x1p-1022, -0x1p-1022,
                           0x1p1022, 0x1p1023, 1e308,     INFINITY,  -INFINITY,
                           NAN,      1.0,      -1.0,      3.0,       0.1,
                           10.0,     1e-300,   2.0};
  uint64_t X = 0x9e3779b97f4a7c15ull;
  for (int K = 0; K < 600; ++K) {
    X ^= X << 13, X ^= X >> 7, X ^= X << 17;
    V.push_back(doubleOf(X));
  }
  return V;
}

/// Whether \p Got is \p Want, any NaN matching the GPU's .f32 NaN.
::testing::AssertionResult sameFloat(float Want, uint32_t Got) {
  uint32_t W = std::isnan(Want) ? 0x7fffffffu : bitsOf(Want);
  if (W == Got)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << std::hexfloat << "expected " << Want << " (0x" << std::hex << W
         << "), got " << floatOf(Got) << " (0x" << Got << ")";
}
::testing::AssertionResult sameDouble(double Want, uint64_t Got) {
  if (bitsOf(Want) == Got || (std::isnan(Want) && std::isnan(doubleOf(Got))))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << std::hexfloat << "expected " << Want << ", got " << doubleOf(Got);
}

float flush(float X) {
  return X != 0 && std::fabs(X) < 0x1p-126f ? std::copysign(0.0f, X) : X;
}

TEST_F(PtxMath, CorrectlyRoundedFloatOpsInEachMode) {
  std::vector<float> A = mathFloats();
  std::vector<uint32_t> Bits, Bits2;
  for (float X : A)
    Bits.push_back(bitsOf(X));
  for (size_t K = 0; K < A.size(); ++K)
    Bits2.push_back(Bits[(K * 7 + 3) % A.size()]);
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string R = std::string(".r") + M;
    auto Rcp = apply<uint32_t>("rcp" + R + ".f32 %d, %a;", Bits);
    auto Sqrt = apply<uint32_t>("sqrt" + R + ".f32 %d, %a;", Bits);
    auto Div = apply<uint32_t>("div" + R + ".f32 %d, %a, %b;", Bits, &Bits2);
    auto DivFtz =
        apply<uint32_t>("div" + R + ".ftz.f32 %d, %a, %b;", Bits, &Bits2);
    ASSERT_EQ(A.size(), DivFtz.size());
    for (size_t K = 0; K < A.size(); ++K) {
      volatile float X = A[K], Y = floatOf(Bits2[K]);
      EXPECT_TRUE(sameFloat(inMode<float>(M, [&] { return 1.0f / X; }), Rcp[K]))
          << "rcp" << R << ".f32 of " << X;
      EXPECT_TRUE(
          sameFloat(inMode<float>(M, [&] { return std::sqrt(X); }), Sqrt[K]))
          << "sqrt" << R << ".f32 of " << X;
      EXPECT_TRUE(sameFloat(inMode<float>(M, [&] { return X / Y; }), Div[K]))
          << "div" << R << ".f32 of " << X << ", " << Y;
      volatile float FX = flush(X), FY = flush(Y);
      float Q = flush(inMode<float>(M, [&] { return FX / FY; }));
      EXPECT_TRUE(sameFloat(Q, DivFtz[K]))
          << "div" << R << ".ftz.f32 of " << X << ", " << Y;
    }
  }
}

TEST_F(PtxMath, CorrectlyRoundedDoubleOpsInEachMode) {
  std::vector<double> A = mathDoubles();
  std::vector<uint64_t> Bits, Bits2;
  for (double X : A)
    Bits.push_back(bitsOf(X));
  for (size_t K = 0; K < A.size(); ++K)
    Bits2.push_back(Bits[(K * 5 + 1) % A.size()]);
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string R = std::string(".r") + M;
    auto Rcp = apply<uint64_t>("rcp" + R + ".f64 %d, %a;", Bits);
    auto Sqrt = apply<uint64_t>("sqrt" + R + ".f64 %d, %a;", Bits);
    auto Div = apply<uint64_t>("div" + R + ".f64 %d, %a, %b;", Bits, &Bits2);
    ASSERT_EQ(A.size(), Div.size());
    for (size_t K = 0; K < A.size(); ++K) {
      volatile double X = A[K], Y = doubleOf(Bits2[K]);
      EXPECT_TRUE(
          sameDouble(inMode<double>(M, [&] { return 1.0 / X; }), Rcp[K]))
          << "rcp" << R << ".f64 of " << X;
      EXPECT_TRUE(
          sameDouble(inMode<double>(M, [&] { return std::sqrt(X); }), Sqrt[K]))
          << "sqrt" << R << ".f64 of " << X;
      EXPECT_TRUE(sameDouble(inMode<double>(M, [&] { return X / Y; }), Div[K]))
          << "div" << R << ".f64 of " << X << ", " << Y;
    }
  }
}

/// The distance between \p A and \p B in units of the last place of B.
double ulps(float A, float B) {
  if (A == B)
    return 0;
  int E;
  std::frexp(B, &E);
  return std::fabs(double(A) - double(B)) /
         std::ldexp(1.0, std::max(E, -125) - 24);
}

TEST_F(PtxMath, ApproximationsStayWithinTheirBounds) {
  std::vector<float> In;
  for (int K = -2000; K <= 2000; ++K)
    In.push_back(K * 0.0015707963f); // [-pi, pi]
  std::vector<uint32_t> Bits;
  for (float X : In)
    Bits.push_back(bitsOf(X));
  auto Sin = apply<uint32_t>("sin.approx.f32 %d, %a;", Bits);
  auto Cos = apply<uint32_t>("cos.approx.ftz.f32 %d, %a;", Bits);
  auto Tanh = apply<uint32_t>("tanh.approx.f32 %d, %a;", Bits);
  std::vector<uint32_t> Wide;
  for (int K = -1500; K <= 1500; ++K)
    Wide.push_back(bitsOf(K * 0.0837f)); // [-125.6, 125.6]
  auto Ex2 = apply<uint32_t>("ex2.approx.f32 %d, %a;", Wide);
  std::vector<uint32_t> Pos;
  for (int K = 1; K <= 3000; ++K)
    Pos.push_back(bitsOf(std::ldexp(1.0f + K / 3001.0f, K % 200 - 100)));
  auto Lg2 = apply<uint32_t>("lg2.approx.f32 %d, %a;", Pos);
  auto Rsqrt = apply<uint32_t>("rsqrt.approx.f32 %d, %a;", Pos);
  auto Rcp = apply<uint32_t>("rcp.approx.ftz.f32 %d, %a;", Pos);
  auto Sqrt = apply<uint32_t>("sqrt.approx.f32 %d, %a;", Pos);
  ASSERT_EQ(Pos.size(), Sqrt.size());
  for (size_t K = 0; K < In.size(); ++K) {
    double X = In[K];
    // PTX ISA: sin/cos.approx.f32, max absolute error 2^-20.9 in [-pi, pi].
    EXPECT_LE(std::fabs(floatOf(Sin[K]) - std::sin(X)), std::exp2(-20.9)) << X;
    EXPECT_LE(std::fabs(floatOf(Cos[K]) - std::cos(X)), std::exp2(-20.9)) << X;
    // tanh.approx.f32: max relative error 2^-10.987.
    EXPECT_LE(std::fabs(floatOf(Tanh[K]) - std::tanh(X)),
              std::fabs(std::tanh(X)) * std::exp2(-10.987))
        << X;
  }
  for (size_t K = 0; K < Wide.size(); ++K) {
    float X = floatOf(Wide[K]);
    // ex2.approx.f32: max 2 ulp.
    EXPECT_LE(ulps(floatOf(Ex2[K]), float(std::exp2(double(X)))), 2.0) << X;
  }
  for (size_t K = 0; K < Pos.size(); ++K) {
    float X = floatOf(Pos[K]);
    double L = std::log2(double(X));
    // lg2.approx.f32: max absolute error 2^-22 (relative 2^-22.6 away
    // from 1).
    EXPECT_LE(std::fabs(floatOf(Lg2[K]) - L),
              std::max(0x1p-22, std::fabs(L) * std::exp2(-22.6)))
        << X;
    EXPECT_LE(ulps(floatOf(Rsqrt[K]), float(1.0 / std::sqrt(double(X)))), 2.0)
        << X; // rsqrt.approx.f32: 2 ulp
    EXPECT_LE(ulps(floatOf(Rcp[K]), float(1.0 / double(X))), 1.0) << X;
    EXPECT_LE(ulps(floatOf(Sqrt[K]), float(std::sqrt(double(X)))), 1.0) << X;
  }
}

TEST_F(PtxMath, SpecialValuesAndFtz) {
  std::vector<uint32_t> In = {
      bitsOf(0.0f), bitsOf(-0.0f), bitsOf(INFINITY),  bitsOf(-INFINITY),
      bitsOf(NAN),  bitsOf(-1.0f), bitsOf(0x1p-140f), bitsOf(-0x1p-140f)};
  auto Sin = apply<uint32_t>("sin.approx.f32 %d, %a;", In);
  auto Ex2 = apply<uint32_t>("ex2.approx.ftz.f32 %d, %a;", In);
  auto Lg2 = apply<uint32_t>("lg2.approx.f32 %d, %a;", In);
  auto Rsqrt = apply<uint32_t>("rsqrt.approx.ftz.f32 %d, %a;", In);
  auto Rcp = apply<uint32_t>("rcp.approx.ftz.f32 %d, %a;", In);
  auto RcpKeep = apply<uint32_t>("rcp.rn.f32 %d, %a;", In);
  auto Sqrt = apply<uint32_t>("sqrt.rn.ftz.f32 %d, %a;", In);
  ASSERT_EQ(In.size(), Sqrt.size());
  const float Inf = INFINITY, N = NAN;
  float WantSin[] = {0.0f, -0.0f,           N,         N,
                     N,    std::sin(-1.0f), 0x1p-140f, -0x1p-140f};
  float WantEx2[] = {1, 1, Inf, 0, N, 0.5f, 1, 1};
  float WantLg2[] = {-Inf, -Inf, Inf, N, N, N, -140, N};
  float WantRsqrt[] = {Inf, -Inf, 0, N, N, N, Inf, -Inf};
  float WantRcp[] = {Inf, -Inf, 0, -0.0f, N, -1, Inf, -Inf};
  float WantRcpKeep[] = {Inf, -Inf, 0, -0.0f, N, -1, Inf, -Inf}; // 2^140
  float WantSqrt[] = {0, -0.0f, Inf, N, N, N, 0, -0.0f};
  for (size_t K = 0; K < In.size(); ++K) {
    float X = floatOf(In[K]);
    EXPECT_TRUE(sameFloat(WantEx2[K], Ex2[K])) << "ex2.approx.ftz of " << X;
    EXPECT_TRUE(sameFloat(WantLg2[K], Lg2[K])) << "lg2.approx of " << X;
    EXPECT_TRUE(sameFloat(WantRsqrt[K], Rsqrt[K]))
        << "rsqrt.approx.ftz of " << X;
    EXPECT_TRUE(sameFloat(WantRcp[K], Rcp[K])) << "rcp.approx.ftz of " << X;
    EXPECT_TRUE(sameFloat(WantRcpKeep[K], RcpKeep[K])) << "rcp.rn of " << X;
    EXPECT_TRUE(sameFloat(WantSqrt[K], Sqrt[K])) << "sqrt.rn.ftz of " << X;
    if (K < 5) {
      EXPECT_TRUE(sameFloat(WantSin[K], Sin[K])) << "sin.approx of " << X;
    }
  }
}

TEST_F(PtxMath, FastDivisionKeepsItsDocumentedSpecialCase) {
  // __fdividef (div.approx.f32): for 2^126 < |y| < 2^128 the result is 0;
  // div.full.f32 divides over the full range.
  std::vector<uint32_t> X = {bitsOf(1.0f), bitsOf(3.0f), bitsOf(INFINITY)};
  std::vector<uint32_t> Y = {bitsOf(0x1.8p126f), bitsOf(2.0f),
                             bitsOf(0x1p127f)};
  auto Approx = apply<uint32_t>("div.approx.f32 %d, %a, %b;", X, &Y);
  auto Full = apply<uint32_t>("div.full.f32 %d, %a, %b;", X, &Y);
  ASSERT_EQ(3u, Full.size());
  EXPECT_TRUE(sameFloat(0.0f, Approx[0]));
  EXPECT_TRUE(sameFloat(1.5f, Approx[1]));
  EXPECT_TRUE(sameFloat(NAN, Approx[2])) << "infinity times 0";
  EXPECT_TRUE(sameFloat(1.0f / 0x1.8p126f, Full[0]));
  EXPECT_TRUE(sameFloat(1.5f, Full[1]));
  EXPECT_TRUE(sameFloat(INFINITY, Full[2]));
}

TEST_F(PtxMath, ApproximateDoubleFtzFlushesSubnormals) {
  std::vector<uint64_t> In = {bitsOf(0x1p-1030), bitsOf(4.0), bitsOf(0x1p1023),
                              bitsOf(-0x1p-1074)};
  auto Rcp = apply<uint64_t>("rcp.approx.ftz.f64 %d, %a;", In);
  auto Rsqrt = apply<uint64_t>("rsqrt.approx.ftz.f64 %d, %a;", In);
  auto RsqrtKeep = apply<uint64_t>("rsqrt.approx.f64 %d, %a;", In);
  ASSERT_EQ(In.size(), RsqrtKeep.size());
  EXPECT_EQ(bitsOf(double(INFINITY)), Rcp[0]) << "a subnormal input is 0";
  EXPECT_LE(std::fabs(doubleOf(Rcp[1]) - 0.25), 0.25 * 0x1p-20);
  EXPECT_EQ(0u, Rcp[2]) << "a subnormal result is 0 (H200)";
  EXPECT_EQ(bitsOf(-double(INFINITY)), Rsqrt[3]);
  EXPECT_LE(std::fabs(doubleOf(Rsqrt[1]) - 0.5), 0.5 * 0x1p-20);
  EXPECT_LE(std::fabs(doubleOf(RsqrtKeep[0]) - 0x1p515), 0x1p515 * 0x1p-20)
      << "without .ftz the subnormal counts";
}

TEST_F(PtxMath, HalfPrecisionEx2AndTanh) {
  std::vector<uint16_t> All(65536);
  for (unsigned K = 0; K < 65536; ++K)
    All[K] = uint16_t(K);
  auto Ex2 = apply<uint16_t>("ex2.approx.f16 %d, %a;", All);
  auto Tanh = apply<uint16_t>("tanh.approx.bf16 %d, %a;", All);
  ASSERT_EQ(65536u, Tanh.size());
  auto HalfValue = [](uint16_t H) {
    unsigned E = (H >> 10) & 0x1f, M = H & 0x3ff;
    double V = E == 31  ? (M ? NAN : INFINITY)
               : E == 0 ? std::ldexp(double(M), -24)
                        : std::ldexp(1024.0 + M, int(E) - 25);
    return H & 0x8000 ? -V : V;
  };
  auto BfValue = [](uint16_t H) { return double(floatOf(uint32_t(H) << 16)); };
  for (unsigned K = 0; K < 65536; ++K) {
    double X = HalfValue(uint16_t(K)), E = HalfValue(Ex2[K]);
    double Want = std::exp2(X);
    if (std::isnan(X)) {
      EXPECT_EQ(0x7fff, Ex2[K]);
    } else if (Want > 65504 || Want < 0x1p-24) {
      // Overflows to infinity; tiny results may round to 0.
      EXPECT_TRUE(Want > 65504 ? std::isinf(E) : E <= 0x1p-24) << X;
    } else {
      // Max relative error 2^-9.9 (PTX ISA), and at most the unit of the
      // smallest subnormal.
      EXPECT_LE(std::fabs(E - Want), Want * std::exp2(-9.9) + 0x1p-25) << X;
    }
    double B = BfValue(uint16_t(K)), T = BfValue(Tanh[K]);
    if (!std::isnan(B)) {
      EXPECT_LE(std::fabs(T - std::tanh(B)),
                std::fabs(std::tanh(B)) * 0x1p-7 + 0x1p-133)
          << B;
    }
  }
  // Pairs: each half separately.
  std::vector<uint32_t> Pair = {0x3c004000u}; // 1.0 high, 2.0 low
  auto Ex2x2 = apply<uint32_t>("ex2.approx.f16x2 %d, %a;", Pair);
  ASSERT_EQ(1u, Ex2x2.size());
  EXPECT_EQ(0x40004400u, Ex2x2[0]) << "2.0 high, 4.0 low";
}

TEST_F(PtxMath, CopysignTakesTheSignOfTheFirstOperand) {
  std::vector<uint32_t> A = {bitsOf(-1.0f), bitsOf(1.0f), bitsOf(-0.0f)};
  std::vector<uint32_t> B = {bitsOf(5.0f), bitsOf(-7.0f), bitsOf(NAN)};
  auto R = apply<uint32_t>("copysign.f32 %d, %a, %b;", A, &B);
  ASSERT_EQ(3u, R.size());
  EXPECT_EQ(bitsOf(-5.0f), R[0]);
  EXPECT_EQ(bitsOf(7.0f), R[1]);
  EXPECT_EQ(bitsOf(NAN) | 0x80000000u, R[2]) << "NaN's bits, a's sign";
}

TEST_F(PtxMath, InvalidFormsAreRejectedWithTheirName) {
  const char *Regs = ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .b16 %h<4>;";
  EXPECT_TRUE(rejects("sin.f32 %r1, %r2;", Regs)) << "sin needs .approx";
  EXPECT_TRUE(rejects("sqrt.f32 %r1, %r2;", Regs)) << "sqrt needs a mode";
  EXPECT_TRUE(rejects("rcp.approx.f64 %rd1, %rd2;", Regs))
      << "rcp.approx.f64 exists only with .ftz";
  EXPECT_TRUE(rejects("ex2.approx.f64 %rd1, %rd2;", Regs)) << "no .f64 ex2";
  EXPECT_TRUE(rejects("div.approx.f64 %rd1, %rd2, %rd3;", Regs));
  EXPECT_TRUE(rejects("div.rn.approx.f32 %r1, %r2, %r3;", Regs))
      << "a mode and .approx together";
  EXPECT_TRUE(rejects("sin.approx.f16 %h1, %h2;", Regs)) << "no .f16 sin";
  EXPECT_TRUE(rejects("rsqrt.approx.sat.f32 %r1, %r2;", Regs))
      << "unknown modifier";
}

} // namespace

//===- Exp2ApproxTest.cpp - The inline ex2.approx.f32 ---------------------===//
//
// emitExp2ApproxF32's IR, compiled for the host, against exp2 in double:
// every integer power (exact), the edges of overflow, underflow and the
// subnormals, the special values, and random floats over the whole range
// where the result is neither 0 nor infinity.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/passes/Exp2Approx.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace cucpu::modules;

namespace {

using Exp2Fn = float(float);

class Exp2ApproxTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    auto M = std::make_unique<llvm::Module>("exp2-approx", *Ctx);
    llvm::Type *F32 = llvm::Type::getFloatTy(*Ctx);
    auto *Fn =
        llvm::Function::Create(llvm::FunctionType::get(F32, {F32}, false),
                               llvm::Function::ExternalLinkage, "exp2", *M);
    llvm::IRBuilder<> B(llvm::BasicBlock::Create(*Ctx, "entry", Fn));
    B.CreateRet(emitExp2ApproxF32(B, Fn->getArg(0)));
    auto J = llvm::orc::LLJITBuilder().create();
    ASSERT_TRUE(!!J) << llvm::toString(J.takeError());
    Jit = std::move(*J);
    ASSERT_FALSE(!!Jit->addIRModule(
        llvm::orc::ThreadSafeModule(std::move(M), std::move(Ctx))));
    auto Sym = Jit->lookup("exp2");
    ASSERT_TRUE(!!Sym) << llvm::toString(Sym.takeError());
    Exp2 = Sym->toPtr<Exp2Fn *>();
  }
  static void TearDownTestSuite() { Jit.reset(); }

  /// The error of Exp2(\p X) in units of the last place of the exact value
  /// (a subnormal's ulp below 2^-126).
  static double ulpError(float X) {
    double Exact = std::exp2(static_cast<double>(X));
    double Ulp = std::ldexp(1.0, std::max(std::ilogb(Exact), -126) - 23);
    return std::fabs(static_cast<double>(Exp2(X)) - Exact) / Ulp;
  }

  static inline std::unique_ptr<llvm::orc::LLJIT> Jit;
  static inline Exp2Fn *Exp2 = nullptr;
};

TEST_F(Exp2ApproxTest, IntegerPowersAreExact) {
  for (int N = -149; N <= 127; ++N)
    EXPECT_EQ(std::ldexp(1.0f, N), Exp2(static_cast<float>(N))) << N;
}

TEST_F(Exp2ApproxTest, SpecialValuesAndRangeEdges) {
  constexpr float Inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(Inf, Exp2(Inf));
  EXPECT_EQ(0.0f, Exp2(-Inf));
  EXPECT_FALSE(std::signbit(Exp2(-Inf)));
  EXPECT_TRUE(std::isnan(Exp2(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(Exp2(-std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(Exp2(std::numeric_limits<float>::signaling_NaN())));
  EXPECT_EQ(1.0f, Exp2(0.0f));
  EXPECT_EQ(1.0f, Exp2(-0.0f));
  EXPECT_EQ(1.0f, Exp2(std::numeric_limits<float>::denorm_min()));
  // Overflow: 2^128 is beyond the largest float; just below it is not.
  EXPECT_EQ(Inf, Exp2(128.0f));
  EXPECT_EQ(Inf, Exp2(1e30f));
  EXPECT_EQ(Inf, Exp2(std::numeric_limits<float>::max()));
  EXPECT_LE(ulpError(std::nextafter(128.0f, 0.0f)), 1.0);
  // Underflow: 2^-150 rounds to zero (ties to even), just above it to the
  // smallest subnormal.
  EXPECT_EQ(0.0f, Exp2(-150.0f));
  EXPECT_EQ(0.0f, Exp2(-1e30f));
  EXPECT_EQ(0.0f, Exp2(-std::numeric_limits<float>::max()));
  EXPECT_EQ(std::numeric_limits<float>::denorm_min(), Exp2(-149.5f));
  EXPECT_EQ(std::numeric_limits<float>::denorm_min(),
            Exp2(std::nextafter(-150.0f, 0.0f)));
  for (float X : {-126.5f, -127.25f, -130.75f, -140.1f, -148.9f, 127.5f,
                  127.99f, -0.5f, 0.5f, 0.49999997f, -0.49999997f})
    EXPECT_LE(ulpError(X), 1.0) << X;
}

/// Every 2048th float of [-0.5, 0.5] (the polynomial's whole interval) and
/// every 16th of [-150, -126] (results in the subnormals, where the scaling
/// takes two steps).
TEST_F(Exp2ApproxTest, DenseIntervalsStayWithinOneUlp) {
  double Worst = 0;
  float WorstAt = 0;
  // The floats of magnitude [Lo, Hi], with \p Sign, every Step-th bit
  // pattern.
  auto Sweep = [&](float Lo, float Hi, float Sign, uint32_t Step) {
    for (uint32_t Bits = std::bit_cast<uint32_t>(Lo);
         Bits <= std::bit_cast<uint32_t>(Hi); Bits += Step) {
      float X = std::copysign(std::bit_cast<float>(Bits), Sign);
      double E = ulpError(X);
      if (E > Worst) {
        Worst = E;
        WorstAt = X;
      }
    }
  };
  Sweep(0.0f, 0.5f, 1.0f, 2048);
  Sweep(0.0f, 0.5f, -1.0f, 2048);
  Sweep(126.0f, 150.0f, -1.0f, 16);
  EXPECT_LT(Worst, 0.9) << "at " << WorstAt;
}

TEST_F(Exp2ApproxTest, RandomFloatsStayWithinOneUlp) {
  std::mt19937 Rng(20261128);
  std::uniform_real_distribution<float> Range(-150.0f, 128.0f);
  double Worst = 0;
  float WorstAt = 0;
  for (int I = 0; I < 2'000'000; ++I) {
    float X = Range(Rng);
    double E = ulpError(X);
    if (E > Worst) {
      Worst = E;
      WorstAt = X;
    }
  }
  EXPECT_LT(Worst, 0.9) << "at " << WorstAt;
}

} // namespace

//===- DirectedFmaTest.cpp - The inline directed-rounding float FMA -------===//
//
// emitDirectedFmaF32's IR, compiled for the host, against the runtime's
// __nv_fmaf_rz/rd/ru (which switch the CPU's rounding mode around fmaf):
// every triple of special and boundary values, and random bit patterns,
// with sums that cancel exactly or nearly.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/passes/DirectedFma.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace cucpu::modules;

namespace {

using FmaFn = float(float, float, float);

struct Mode {
  FmaRounding Rounding;
  const char *Name;      ///< The JIT-compiled expansion.
  const char *Reference; ///< The runtime's function.
};

constexpr Mode Modes[] = {
    {FmaRounding::TowardZero, "fma_rz", "__nv_fmaf_rz"},
    {FmaRounding::Down, "fma_rd", "__nv_fmaf_rd"},
    {FmaRounding::Up, "fma_ru", "__nv_fmaf_ru"},
};

class DirectedFmaTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    auto M = std::make_unique<llvm::Module>("directed-fma", *Ctx);
    llvm::Type *F32 = llvm::Type::getFloatTy(*Ctx);
    auto *Ty = llvm::FunctionType::get(F32, {F32, F32, F32}, false);
    for (const Mode &Mo : Modes) {
      auto *Fn = llvm::Function::Create(Ty, llvm::Function::ExternalLinkage,
                                        Mo.Name, *M);
      llvm::IRBuilder<> B(llvm::BasicBlock::Create(*Ctx, "entry", Fn));
      B.CreateRet(emitDirectedFmaF32(B, Fn->getArg(0), Fn->getArg(1),
                                     Fn->getArg(2), Mo.Rounding));
    }
    auto J = llvm::orc::LLJITBuilder().create();
    ASSERT_TRUE(!!J) << llvm::toString(J.takeError());
    Jit = std::move(*J);
    ASSERT_FALSE(!!Jit->addIRModule(
        llvm::orc::ThreadSafeModule(std::move(M), std::move(Ctx))));
  }
  static void TearDownTestSuite() { Jit.reset(); }

  /// Compares the expansion with the reference for every mode on \p X, Y,
  /// Z; counts the triples checked.
  void check(float X, float Y, float Z) {
    for (const Mode &Mo : Modes) {
      auto Sym = Jit->lookup(Mo.Name);
      ASSERT_TRUE(!!Sym) << llvm::toString(Sym.takeError());
      auto *Got = Sym->toPtr<FmaFn *>();
      auto *Want =
          reinterpret_cast<FmaFn *>(runtimeLibrary().lookup(Mo.Reference));
      ASSERT_NE(nullptr, Want) << Mo.Reference;
      float G = Got(X, Y, Z), W = Want(X, Y, Z);
      bool Same = std::isnan(G) ? std::isnan(W)
                                : std::bit_cast<uint32_t>(G) ==
                                      std::bit_cast<uint32_t>(W);
      if (!Same && Failures++ < 20)
        ADD_FAILURE() << Mo.Name << "(" << std::hexfloat << X << ", " << Y
                      << ", " << Z << ") = " << G << ", expected " << W;
    }
    ++Checked;
  }

  static std::unique_ptr<llvm::orc::LLJIT> Jit;
  unsigned Failures = 0;
  uint64_t Checked = 0;
};

std::unique_ptr<llvm::orc::LLJIT> DirectedFmaTest::Jit;

TEST_F(DirectedFmaTest, SpecialAndBoundaryValues) {
  const float Inf = INFINITY, Max = 3.40282347e38f, Min = 1.17549435e-38f,
              Sub = 1.40129846e-45f;
  std::vector<float> V = {
      0.0f,        -0.0f, 1.0f,       -1.0f,       Inf,
      -Inf,        NAN,   Max,        -Max,        Min,
      -Min,        Sub,   -Sub,       0.1f,        -3.0f,
      1e-20f,      1e20f, 8388608.0f, 16777216.0f, std::nextafter(1.0f, 2.0f),
      12582913.0f, 252.0f};
  for (float X : V)
    for (float Y : V)
      for (float Z : V)
        check(X, Y, Z);
  EXPECT_EQ(V.size() * V.size() * V.size(), Checked);
}

TEST_F(DirectedFmaTest, RandomBitPatterns) {
  std::mt19937 Rng(20261127);
  auto Bits = [&] { return std::bit_cast<float>(uint32_t(Rng())); };
  for (int I = 0; I < 300000; ++I)
    check(Bits(), Bits(), Bits());
}

TEST_F(DirectedFmaTest, SumsThatCancel) {
  // c is the product rounded to float, negated, and nudged: the exact sum
  // is the product's rounding error (or zero), where the modes differ.
  std::mt19937 Rng(7);
  std::uniform_real_distribution<float> Mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> Exponent(-140, 120);
  std::uniform_int_distribution<int> Nudge(-2, 2);
  for (int I = 0; I < 200000; ++I) {
    float X = std::ldexp(Mantissa(Rng), Exponent(Rng) / 2) *
              (Rng() & 1 ? 1.0f : -1.0f);
    float Y = std::ldexp(Mantissa(Rng), Exponent(Rng) / 2);
    float P = X * Y;
    uint32_t PBits = std::bit_cast<uint32_t>(-P) + Nudge(Rng);
    check(X, Y, std::bit_cast<float>(PBits));
    check(X, Y, -P);
  }
  // Exact zeros of every sign combination.
  for (float X : {1.0f, -1.0f, 0.0f, -0.0f})
    for (float Z : {1.0f, -1.0f, 0.0f, -0.0f})
      check(X, 1.0f, Z);
}

} // namespace

//===- BlackScholes.cpp - European option prices -------------------------===//
#include "../Reference.h"
#include "Workloads.h"

#include <cmath>

namespace bench {
namespace {
constexpr float Rate = 0.02f, Volatility = 0.30f;

// The kernels' polynomial CND, in double: the reference differs from them
// only by float rounding, not by the approximation.
double cnd(double D) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937,
               A4 = -1.821255978, A5 = 1.330274429;
  double K = 1.0 / (1.0 + 0.2316419 * std::fabs(D));
  double Poly = K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))));
  double C = 0.39894228040143267794 * std::exp(-0.5 * D * D) * Poly;
  return D > 0 ? 1.0 - C : C;
}

std::string check(const Workload &W, const Contents &After) {
  size_t N = size_t(W.intArg(7));
  const float *S = as<float>(W.Buffers[2].Initial);
  const float *X = as<float>(W.Buffers[3].Initial);
  const float *T = as<float>(W.Buffers[4].Initial);
  std::vector<double> Call(N), Put(N), Scale(N);
  for (size_t I = 0; I < N; ++I) {
    double SqrtT = std::sqrt(double(T[I]));
    double D1 = (std::log(double(S[I]) / X[I]) +
                 (Rate + 0.5 * double(Volatility) * Volatility) * T[I]) /
                (Volatility * SqrtT);
    double D2 = D1 - Volatility * SqrtT;
    double Discount = X[I] * std::exp(-double(Rate) * T[I]);
    Call[I] = S[I] * cnd(D1) - Discount * cnd(D2);
    Put[I] = Discount * (1.0 - cnd(D2)) - S[I] * (1.0 - cnd(D1));
    // The prices are differences of terms as large as S and X.
    Scale[I] = double(S[I]) + X[I];
  }
  std::string Msg = compareFloats("call", as<float>(After[0]), Call.data(), N,
                                  5e-5, 1e-5, Scale.data());
  if (Msg.empty())
    Msg = compareFloats("put", as<float>(After[1]), Put.data(), N, 5e-5, 1e-5,
                        Scale.data());
  return Msg;
}
} // namespace

Workload makeBlackScholes(const Sizes &S) {
  int N = S.BlackScholesN;
  size_t Bytes = size_t(N) * sizeof(float);
  Workload W;
  W.Name = "blackscholes";
  W.Kernel = "blackScholes";
  W.Buffers = {{"call", std::vector<unsigned char>(Bytes), false},
               {"put", std::vector<unsigned char>(Bytes), false},
               {"price", toBytes(randomFloats(N, 5, 30, 61)), false},
               {"strike", toBytes(randomFloats(N, 1, 100, 62)), false},
               {"years", toBytes(randomFloats(N, 0.25f, 10, 63)), false}};
  W.Args = {KernelArg::buffer(0),       KernelArg::buffer(1),
            KernelArg::buffer(2),       KernelArg::buffer(3),
            KernelArg::buffer(4),       KernelArg::f32(Rate),
            KernelArg::f32(Volatility), KernelArg::i32(N)};
  W.Block = {256};
  W.Grid = {unsigned((N + 255) / 256)};
  W.Check = check;
  return W;
}

} // namespace bench

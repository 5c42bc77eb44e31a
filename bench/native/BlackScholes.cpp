//===- BlackScholes.cpp - European option prices, native ------------------===//
#include "NativeHarness.h"

#include <cmath>

namespace bench::native {
namespace {
inline float cnd(float D) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
              A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSqrt2Pi = 0.39894228040143267794f;
  float K = 1.0f / (1.0f + 0.2316419f * std::fabs(D));
  float Poly = K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))));
  float C = RSqrt2Pi * std::exp(-0.5f * D * D) * Poly;
  return D > 0.0f ? 1.0f - C : C;
}
} // namespace

void blackScholes(const Workload &W, const std::vector<void *> &Buffers) {
  float Rate = W.floatArg(5), Vol = W.floatArg(6);
  int N = W.intArg(7);
  float *Call = static_cast<float *>(Buffers[0]);
  float *Put = static_cast<float *>(Buffers[1]);
  const float *Price = static_cast<const float *>(Buffers[2]);
  const float *Strike = static_cast<const float *>(Buffers[3]);
  const float *Years = static_cast<const float *>(Buffers[4]);
#pragma omp parallel for schedule(static)
  for (int I = 0; I < N; ++I) {
    float S = Price[I], X = Strike[I], T = Years[I];
    float SqrtT = std::sqrt(T);
    float D1 =
        (std::log(S / X) + (Rate + 0.5f * Vol * Vol) * T) / (Vol * SqrtT);
    float D2 = D1 - Vol * SqrtT;
    float Discount = X * std::exp(-Rate * T);
    float Cnd1 = cnd(D1), Cnd2 = cnd(D2);
    Call[I] = S * Cnd1 - Discount * Cnd2;
    Put[I] = Discount * (1.0f - Cnd2) - S * (1.0f - Cnd1);
  }
}

} // namespace bench::native

//===- Reference.cpp - Inputs and comparisons for the host references -----===//
#include "Reference.h"

#include <cmath>
#include <cstdio>

namespace bench {
namespace {
// xorshift32: fast, deterministic and good enough for benchmark inputs.
uint32_t next(uint32_t &S) {
  S ^= S << 13;
  S ^= S >> 17;
  S ^= S << 5;
  return S;
}
} // namespace

std::vector<float> randomFloats(size_t N, float Lo, float Hi, uint32_t Seed) {
  std::vector<float> V(N);
  uint32_t S = Seed ? Seed : 1;
  for (float &X : V)
    X = Lo + (Hi - Lo) * static_cast<float>(next(S) >> 8) * 0x1p-24f;
  return V;
}

std::vector<unsigned char> randomBytes(size_t N, uint32_t Seed) {
  std::vector<unsigned char> V(N);
  uint32_t S = Seed ? Seed : 1;
  for (unsigned char &X : V)
    X = static_cast<unsigned char>(next(S) >> 24);
  return V;
}

std::string compareFloats(const char *What, const float *Got,
                          const double *Want, size_t N, double RelTol,
                          double AbsTol, const double *Scale, size_t First,
                          size_t Stride) {
  size_t Bad = 0, FirstBad = 0;
  for (size_t K = 0; K < N; ++K) {
    size_t I = First + K * Stride;
    double Ref = Want[K];
    double Tol = AbsTol + RelTol * (Scale ? Scale[K] : std::fabs(Ref));
    // NaN compares false, so a NaN result is always bad.
    if (!(std::fabs(double(Got[I]) - Ref) <= Tol)) {
      if (Bad++ == 0)
        FirstBad = K;
    }
  }
  if (Bad == 0)
    return "";
  size_t I = First + FirstBad * Stride;
  char Msg[256];
  std::snprintf(
      Msg, sizeof(Msg),
      "%s[%zu] is %.9g, expected %.9g (tolerance %.3g); %zu of %zu "
      "checked values are wrong.",
      What, I, double(Got[I]), Want[FirstBad],
      AbsTol + RelTol * (Scale ? Scale[FirstBad] : std::fabs(Want[FirstBad])),
      Bad, N);
  return Msg;
}

std::string compareInts(const char *What, const uint32_t *Got,
                        const uint32_t *Want, size_t N) {
  for (size_t I = 0; I < N; ++I)
    if (Got[I] != Want[I]) {
      char Msg[160];
      std::snprintf(Msg, sizeof(Msg), "%s[%zu] is %u, expected %u.", What, I,
                    Got[I], Want[I]);
      return Msg;
    }
  return "";
}

} // namespace bench

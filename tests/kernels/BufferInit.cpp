//===- BufferInit.cpp - The INIT of buf: and global: arguments ------------===//
//
// The sweeps put the special values first and then interleave three families
// of points (even in value, even in representation, halves and their
// neighbours), so that any prefix of a sweep samples all of them.
//
//===----------------------------------------------------------------------===//

#include "BufferInit.h"

#include "Element.h"
#include "Parse.h"
#include "Ulp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace kernelrunner {
namespace {

// SplitMix64: a cheap, well-mixed sequence for bits(SEED).
uint64_t splitmix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// The special values of a sweep of [Lo, Hi]: 0 -0 inf -inf nan always;
/// the others (see KernelRunner.cpp) when they lie inside [Lo, Hi].
/// range() leaves out the five that are not inside.
template <typename F> std::vector<F> sweepSpecials(F Lo, F Hi, bool Always) {
  using L = std::numeric_limits<F>;
  std::vector<F> Out;
  if (Always)
    Out = {F(0), -F(0), L::infinity(), -L::infinity(), L::quiet_NaN()};
  const F Inside[] = {F(0),
                      -F(0),
                      L::infinity(),
                      -L::infinity(),
                      L::denorm_min(),
                      -L::denorm_min(),
                      std::nextafter(L::min(), F(0)),
                      -std::nextafter(L::min(), F(0)),
                      L::min(),
                      -L::min(),
                      L::max(),
                      -L::max(),
                      F(1),
                      F(-1),
                      F(0.5),
                      F(-0.5),
                      F(2),
                      F(-2),
                      Lo,
                      Hi,
                      std::nextafter(Lo, Hi),
                      std::nextafter(Hi, Lo)};
  for (size_t K = Always ? 4 : 0; K < sizeof(Inside) / sizeof(F); ++K)
    if (Inside[K] >= Lo && Inside[K] <= Hi)
      Out.push_back(Inside[K]);
  return Out;
}

/// Point P of an N-point sweep of [Lo, Hi] (see KernelRunner.cpp).
template <typename F, typename U>
F sweepPoint(F Lo, F Hi, const std::vector<F> &Special, uint64_t P,
             uint64_t N) {
  using L = std::numeric_limits<F>;
  const uint64_t S = Special.size();
  if (P < S)
    return Special[P];
  // The other families use the finite part of [Lo, Hi].
  Lo = std::max(Lo, L::lowest());
  Hi = std::min(Hi, L::max());
  uint64_t Q = P - S, M = N > S ? N - S : 1;
  uint64_t K = Q / 3, Count = (M + 2) / 3; // Points of each family.
  long double T = Count > 1 ? static_cast<long double>(K) / (Count - 1) : 0;
  long double Linear = Lo + (static_cast<long double>(Hi) - Lo) * T;
  switch (Q % 3) {
  case 0:
    return std::clamp(static_cast<F>(Linear), Lo, Hi);
  case 1: {
    int64_t OLo = toOrdered<F, U>(Lo), OHi = toOrdered<F, U>(Hi);
    long double O = OLo + (static_cast<long double>(OHi) - OLo) * T;
    return fromOrdered<F, U>(static_cast<int64_t>(std::llround(O)));
  }
  default: {
    F Half = static_cast<F>(std::round(Linear * 2) / 2);
    if (K % 3 == 1)
      Half = std::nextafter(Half, L::infinity());
    else if (K % 3 == 2)
      Half = std::nextafter(Half, -L::infinity());
    return std::clamp(Half, Lo, Hi);
  }
  }
}

} // namespace

bool initBuffer(const std::string &Type, const std::string &Init, size_t Count,
                unsigned char *Host) {
  size_t Elem = typeSize(Type);
  std::vector<std::string> A;
  if (parseList(Init, A)) {
    if (A.size() != Count)
      return false;
    for (size_t E = 0; E < Count; ++E)
      if (!evalInto(Type, A[E], 0, Host + E * Elem))
        return false;
    return true;
  }
  bool Sweep = parseCall(Init, "sweep", A);
  if (Sweep || parseCall(Init, "range", A)) {
    if (A.size() < 2 || A.size() > 4 || (Type != "f32" && Type != "f64"))
      return false;
    double Lo = std::strtod(A[0].c_str(), nullptr);
    double Hi = std::strtod(A[1].c_str(), nullptr);
    uint64_t N = A.size() > 2 ? std::strtoull(A[2].c_str(), nullptr, 0) : Count;
    uint64_t Div = A.size() > 3 ? std::strtoull(A[3].c_str(), nullptr, 0) : 1;
    if (!(Lo <= Hi) || !N || !Div)
      return false;
    std::vector<float> SpecialF =
        sweepSpecials<float>(float(Lo), float(Hi), Sweep);
    std::vector<double> SpecialD = sweepSpecials<double>(Lo, Hi, Sweep);
    for (size_t E = 0; E < Count; ++E) {
      uint64_t P = (E / Div) % N;
      if (Type == "f32") {
        float V =
            sweepPoint<float, uint32_t>(float(Lo), float(Hi), SpecialF, P, N);
        std::memcpy(Host + E * 4, &V, 4);
      } else {
        double V = sweepPoint<double, uint64_t>(Lo, Hi, SpecialD, P, N);
        std::memcpy(Host + E * 8, &V, 8);
      }
    }
    return true;
  }
  if (parseCall(Init, "bits", A)) {
    if (A.size() != 1)
      return false;
    uint64_t Seed = std::strtoull(A[0].c_str(), nullptr, 0);
    unsigned Bits = 8 * static_cast<unsigned>(Elem);
    uint64_t Ones = Bits == 64 ? ~0ull : (1ull << Bits) - 1;
    uint64_t SignBit = 1ull << (Bits - 1);
    const uint64_t Special[] = {0, 1,    Ones, SignBit, Ones ^ SignBit,
                                2, 0x80, 0xff};
    for (size_t E = 0; E < Count; ++E) {
      uint64_t V = E < 8 ? Special[E] : splitmix((Seed << 32) + E);
      std::memcpy(Host + E * Elem, &V, Elem); // Little-endian: the low bytes.
    }
    return true;
  }
  for (size_t E = 0; E < Count; ++E)
    if (!evalInto(Type, Init, static_cast<int64_t>(E), Host + E * Elem))
      return false;
  return true;
}

} // namespace kernelrunner

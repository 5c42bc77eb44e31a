//===- Ulp.h - Floating-point values as steps and ulps ----------*- C++ -*-===//
//
// Floats and doubles seen as ordered integers (for sweeps that step through
// the representation) and the ulp measures of the reference checks.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_ULP_H
#define CUCPU_TESTS_KERNELS_ULP_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace kernelrunner {

/// Maps a float or double F (U: the unsigned type of its size) to an integer
/// that orders like the value: adjacent values differ by one, 0 and -0 are 0.
template <typename F, typename U> int64_t toOrdered(F V) {
  U Bits;
  std::memcpy(&Bits, &V, sizeof(V));
  const U Sign = U(1) << (8 * sizeof(U) - 1);
  return (Bits & Sign) ? -static_cast<int64_t>(Bits & ~Sign)
                       : static_cast<int64_t>(Bits);
}
/// The inverse of toOrdered.
template <typename F, typename U> F fromOrdered(int64_t O) {
  const U Sign = U(1) << (8 * sizeof(U) - 1);
  U Bits = O < 0 ? (static_cast<U>(-O) | Sign) : static_cast<U>(O);
  F V;
  std::memcpy(&V, &Bits, sizeof(V));
  return V;
}

/// The error of Got against Ref in units in the last place of F at Ref
/// (for messages).
template <typename F> long double ulpError(F Got, long double Ref) {
  using L = std::numeric_limits<F>;
  if (std::isnan(Ref) || std::isnan(Got))
    return std::isnan(Ref) && std::isnan(Got) ? 0 : INFINITY;
  if (std::isinf(Ref))
    return Got == Ref ? 0 : INFINITY;
  // Overflow: infinity counts as the next power of two after the largest
  // finite value.
  const long double Big = std::ldexp(1.0L, L::max_exponent);
  long double G =
      std::isinf(Got) ? std::copysign(Big, static_cast<long double>(Got)) : Got;
  Ref = std::clamp(Ref, -Big, Big);
  int Exp = Ref == 0 ? L::min_exponent
                     : std::max(std::ilogb(Ref) + 1, L::min_exponent);
  long double Ulp = std::ldexp(1.0L, Exp - L::digits);
  return std::fabs(G - Ref) / Ulp;
}

/// How many steps between values of F separate Got from Ref rounded to F
/// (the correctly rounded result): CUDA's (and glibc's) measure of a
/// function's ulp error. Infinity is one step past the largest finite
/// value; 0 and -0 are one value.
template <typename F, typename U>
long double ulpsFromRounded(F Got, long double Ref) {
  if (std::isnan(Ref) || std::isnan(Got))
    return std::isnan(Ref) && std::isnan(Got) ? 0 : INFINITY;
  if (std::isinf(Ref))
    return Got == Ref ? 0 : INFINITY;
  F Rounded = static_cast<F>(Ref);
  int64_t D = toOrdered<F, U>(Got) - toOrdered<F, U>(Rounded);
  return static_cast<long double>(D < 0 ? -D : D);
}

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_ULP_H

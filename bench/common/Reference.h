//===- Reference.h - Inputs and host-reference checks -----------*- C++ -*-===//
//
// Deterministic input data and the comparisons that the Workloads' checks
// use. Float results are compared with a tolerance (the forms sum in other
// orders and use other exp/log/rsqrt implementations); integers exactly.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_REFERENCE_H
#define CUCPU_BENCH_COMMON_REFERENCE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

/// \p N floats uniformly in [Lo, Hi), the same for the same \p Seed.
std::vector<float> randomFloats(size_t N, float Lo, float Hi, uint32_t Seed);

/// \p N bytes, the same for the same \p Seed.
std::vector<unsigned char> randomBytes(size_t N, uint32_t Seed);

/// Compares Got[I] with Want[I] for the \p N indices I = First, First +
/// Stride, ...: each must be within AbsTol + RelTol * Scale[I] (Scale
/// defaults to |Want[I]|). Returns "" or a message naming the first bad
/// index of \p What and how many were bad.
std::string compareFloats(const char *What, const float *Got,
                          const double *Want, size_t N, double RelTol,
                          double AbsTol, const double *Scale = nullptr,
                          size_t First = 0, size_t Stride = 1);

/// Compares \p N 32-bit integers exactly; "" or a message.
std::string compareInts(const char *What, const uint32_t *Got,
                        const uint32_t *Want, size_t N);

} // namespace bench

#endif

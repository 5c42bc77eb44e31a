//===- MatrixMulCheck.h - The module-load children's check ----*- C++ -*-===//
//
// A module-load child checks the matrixMul kernel it loaded (or built) by
// multiplying small matrices: C (HA x WB) = A (HA x WA) * B (WA x WB), the
// inputs small integers and halves, so that the product is exact in float.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_MATRIXMULCHECK_H
#define CUCPU_BENCH_COMMON_MATRIXMULCHECK_H

#include <vector>

namespace bench {

/// The inputs of the check and the host's product.
struct MatrixMulCheck {
  /// Rows of A and C; columns of A (rows of B); columns of B and C. Multiples
  /// of the kernel's 16 x 16 block.
  static constexpr int HA = 32, WA = 48, WB = 64;
  /// Row-major inputs, filled by the constructor.
  std::vector<float> A, B;

  MatrixMulCheck();

  /// Whether \p C (row-major, HA x WB) is A * B; prints the first wrong
  /// element on stderr.
  bool matches(const std::vector<float> &C) const;
};

} // namespace bench

#endif

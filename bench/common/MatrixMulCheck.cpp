//===- MatrixMulCheck.cpp - The module-load children's kernel check -------===//
#include "MatrixMulCheck.h"

#include <cstdio>

namespace bench {

MatrixMulCheck::MatrixMulCheck() : A(HA * WA), B(WA * WB) {
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = float(I % 7) - 3;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(I % 5) * 0.5f;
}

bool MatrixMulCheck::matches(const std::vector<float> &C) const {
  for (int R = 0; R < HA; ++R)
    for (int Col = 0; Col < WB; ++Col) {
      float Want = 0; // small integers and halves: exact in float
      for (int K = 0; K < WA; ++K)
        Want += A[R * WA + K] * B[K * WB + Col];
      if (C[R * WB + Col] != Want) {
        std::fprintf(stderr, "matrixMul: C[%d][%d] is %g, expected %g\n", R,
                     Col, double(C[R * WB + Col]), double(Want));
        return false;
      }
    }
  return true;
}

} // namespace bench

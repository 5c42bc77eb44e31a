//===- Matmul.cpp - C = A * B with 16 x 16 shared tiles
//--------------------===//
#include "../Reference.h"
#include "Workloads.h"

#include <cmath>

namespace bench {
namespace {
std::string check(const Workload &W, const Contents &After) {
  int N = W.intArg(3);
  const float *A = as<float>(W.Buffers[1].Initial);
  const float *B = as<float>(W.Buffers[2].Initial);
  // Every 7th row (all of its columns): an O(n^3) reference of the whole
  // product would cost more than the benchmark.
  std::string Msg;
  for (int R = 0; R < N && Msg.empty(); R += 7) {
    std::vector<double> Want(N, 0.0), Scale(N, 0.0);
    for (int K = 0; K < N; ++K)
      for (int Col = 0; Col < N; ++Col) {
        double P = double(A[size_t(R) * N + K]) * B[size_t(K) * N + Col];
        Want[Col] += P;
        Scale[Col] += std::fabs(P);
      }
    // Any order of n float additions errs by at most n * eps * sum |terms|.
    Msg = compareFloats("C", as<float>(After[0]), Want.data(), N, N * 0x1p-23,
                        1e-6, Scale.data(), size_t(R) * N);
  }
  return Msg;
}
} // namespace

Workload makeMatmul(const Sizes &S) {
  int N = S.MatmulN;
  size_t Elems = size_t(N) * N;
  Workload W;
  W.Name = "matmul";
  W.Kernel = "matmul";
  W.Buffers = {{"C", std::vector<unsigned char>(Elems * sizeof(float)), false},
               {"A", toBytes(randomFloats(Elems, -1, 1, 21)), false},
               {"B", toBytes(randomFloats(Elems, -1, 1, 22)), false}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1), KernelArg::buffer(2),
            KernelArg::i32(N)};
  W.Block = {16, 16};
  W.Grid = {unsigned(N / 16), unsigned(N / 16)};
  W.Check = check;
  return W;
}

} // namespace bench

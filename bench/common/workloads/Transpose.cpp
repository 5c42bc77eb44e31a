//===- Transpose.cpp - Square transpose through a padded 32 x 32 tile -----===//
#include "../Reference.h"
#include "Workloads.h"

namespace bench {
namespace {
std::string check(const Workload &W, const Contents &After) {
  int N = W.intArg(2);
  const float *In = as<float>(W.Buffers[1].Initial);
  std::vector<double> Want(size_t(N) * N);
  for (int R = 0; R < N; ++R)
    for (int C = 0; C < N; ++C)
      Want[size_t(C) * N + R] = In[size_t(R) * N + C];
  // A transpose moves values: exact.
  return compareFloats("out", as<float>(After[0]), Want.data(), Want.size(), 0,
                       0);
}
} // namespace

Workload makeTranspose(const Sizes &S) {
  int N = S.TransposeN;
  size_t Elems = size_t(N) * N;
  Workload W;
  W.Name = "transpose";
  W.Kernel = "transpose";
  W.Buffers = {
      {"out", std::vector<unsigned char>(Elems * sizeof(float)), false},
      {"in", toBytes(randomFloats(Elems, -1, 1, 41)), false}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1), KernelArg::i32(N),
            KernelArg::i32(N)};
  W.Block = {32, 8};
  W.Grid = {unsigned(N / 32), unsigned(N / 32)};
  W.Check = check;
  return W;
}

} // namespace bench

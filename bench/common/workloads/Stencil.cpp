//===- Stencil.cpp - One 2D 5-point stencil sweep -------------------------===//
#include "../Reference.h"
#include "Workloads.h"

#include <cmath>

namespace bench {
namespace {
constexpr float C0 = 0.5f, C1 = 0.125f;

std::string check(const Workload &W, const Contents &After) {
  int N = W.intArg(2);
  const float *In = as<float>(W.Buffers[1].Initial);
  // Row by row: a reference of the whole grid in double would be large.
  std::vector<double> Want(N), Scale(N);
  for (int Y = 0; Y < N; ++Y) {
    for (int X = 0; X < N; ++X) {
      size_t I = size_t(Y) * N + X;
      if (X == 0 || Y == 0 || X == N - 1 || Y == N - 1) {
        Want[X] = In[I];
        Scale[X] = std::fabs(In[I]);
        continue;
      }
      double Sum = double(In[I - 1]) + In[I + 1] + In[I - N] + In[I + N];
      double Abs = std::fabs(In[I - 1]) + std::fabs(In[I + 1]) +
                   std::fabs(In[I - N]) + std::fabs(In[I + N]);
      Want[X] = C0 * double(In[I]) + C1 * Sum;
      Scale[X] = C0 * std::fabs(In[I]) + C1 * Abs;
    }
    std::string Msg = compareFloats("out", as<float>(After[0]), Want.data(), N,
                                    1e-6, 1e-7, Scale.data(), size_t(Y) * N);
    if (!Msg.empty())
      return Msg;
  }
  return "";
}
} // namespace

Workload makeStencil(const Sizes &S) {
  int N = S.StencilN;
  size_t Elems = size_t(N) * N;
  Workload W;
  W.Name = "stencil";
  W.Kernel = "stencil";
  W.Buffers = {
      {"out", std::vector<unsigned char>(Elems * sizeof(float)), false},
      {"in", toBytes(randomFloats(Elems, 0, 1, 81)), false}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1), KernelArg::i32(N),
            KernelArg::i32(N),    KernelArg::f32(C0),   KernelArg::f32(C1)};
  W.Block = {16, 16};
  W.Grid = {unsigned(N / 16), unsigned(N / 16)};
  W.Check = check;
  return W;
}

} // namespace bench

//===- Saxpy.cpp - y = a * x + y ------------------------------------------===//
#include "../Reference.h"
#include "Workloads.h"

#include <algorithm>

namespace bench {
namespace {
constexpr float A = 0.75f;

std::string check(const Workload &W, const Contents &After) {
  size_t N = W.Buffers[0].Initial.size() / sizeof(float);
  const float *X = as<float>(W.Buffers[0].Initial);
  const float *Y0 = as<float>(W.Buffers[1].Initial);
  // In chunks: a reference of the whole array in double would be large.
  const size_t Chunk = size_t(1) << 20;
  std::vector<double> Want(Chunk);
  for (size_t First = 0; First < N; First += Chunk) {
    size_t Len = std::min(Chunk, N - First);
    for (size_t I = 0; I < Len; ++I)
      Want[I] = double(A) * X[First + I] + Y0[First + I];
    // One multiply and one add: a few ulps whether fused or not.
    std::string Msg = compareFloats("y", as<float>(After[1]), Want.data(), Len,
                                    1e-6, 1e-7, nullptr, First);
    if (!Msg.empty())
      return Msg;
  }
  return "";
}
} // namespace

Workload makeSaxpy(const Sizes &S) {
  Workload W;
  W.Name = "saxpy";
  W.Kernel = "saxpy";
  W.Buffers = {{"x", toBytes(randomFloats(S.SaxpyN, -1, 1, 11)), false},
               {"y", toBytes(randomFloats(S.SaxpyN, -1, 1, 12)), false}};
  W.Args = {KernelArg::i32(S.SaxpyN), KernelArg::f32(A), KernelArg::buffer(0),
            KernelArg::buffer(1)};
  W.Block = {256};
  W.Grid = {unsigned((S.SaxpyN + 255) / 256)};
  W.Check = check;
  return W;
}

} // namespace bench

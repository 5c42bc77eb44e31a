//===- Reduce.cpp - Per-block sums, 1024 floats per block of 256 ----------===//
#include "../Reference.h"
#include "Workloads.h"

#include <cmath>

namespace bench {
namespace {
constexpr int PerBlock = 1024;

std::string check(const Workload &W, const Contents &After) {
  int N = W.intArg(2);
  int Blocks = (N + PerBlock - 1) / PerBlock;
  const float *In = as<float>(W.Buffers[0].Initial);
  std::vector<double> Want(Blocks, 0.0), Scale(Blocks, 0.0);
  for (int I = 0; I < N; ++I) {
    Want[I / PerBlock] += In[I];
    Scale[I / PerBlock] += std::fabs(In[I]);
  }
  return compareFloats("partial", as<float>(After[1]), Want.data(), Blocks,
                       PerBlock * 0x1p-23, 1e-6, Scale.data());
}

/// The reduce workload for the kernel \p Name (of \p Name.cu / .cl).
Workload reduceWorkload(const Sizes &S, const char *Name) {
  int N = S.ReduceN;
  int Blocks = (N + PerBlock - 1) / PerBlock;
  Workload W;
  W.Name = Name;
  W.Kernel = Name;
  W.Buffers = {{"in", toBytes(randomFloats(N, -1, 1, 31)), false},
               {"partial",
                std::vector<unsigned char>(size_t(Blocks) * sizeof(float)),
                false}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1), KernelArg::i32(N)};
  W.Block = {256};
  W.Grid = {unsigned(Blocks)};
  W.Check = check;
  return W;
}
} // namespace

Workload makeReduce(const Sizes &S) { return reduceWorkload(S, "reduce"); }

Workload makeReduceWarpSync(const Sizes &S) {
  return reduceWorkload(S, "reduce_warpsync");
}

} // namespace bench

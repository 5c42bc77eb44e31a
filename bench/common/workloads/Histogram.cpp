//===- Histogram.cpp - 256-bin byte histogram with shared atomics ---------===//
#include "../Reference.h"
#include "Workloads.h"

namespace bench {
namespace {
std::string check(const Workload &W, const Contents &After) {
  const std::vector<unsigned char> &Data = W.Buffers[0].Initial;
  std::vector<uint32_t> Want(256, 0);
  for (unsigned char B : Data)
    ++Want[B];
  return compareInts("bins", as<uint32_t>(After[1]), Want.data(), 256);
}
} // namespace

Workload makeHistogram(const Sizes &S) {
  Workload W;
  W.Name = "histogram";
  W.Kernel = "histogram";
  W.Buffers = {{"data", randomBytes(S.HistogramN, 51), false},
               {"bins", std::vector<unsigned char>(256 * sizeof(uint32_t)),
                /*ZeroEachRun=*/true}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1),
            KernelArg::i32(S.HistogramN)};
  W.Block = {256};
  W.Grid = {unsigned(S.HistogramBlocks)};
  W.Check = check;
  return W;
}

} // namespace bench

//===- LaunchBenchmarks.cpp - Launch latency of an empty kernel -----------===//
//
// launch.sync: the legacy path, cuLaunchGrid of a 1-thread block shaped by
// cuFuncSetBlockShape and cuParamSetSize, then cuCtxSynchronize.
// launch.queued: LaunchBatch cuLaunchKernel calls back to back, then one
// cuCtxSynchronize. Both are checked by their CUresults: an empty kernel has
// no result to compare.
//
//===----------------------------------------------------------------------===//
#include "../common/LaunchBenchmarks.h"
#include "CucpuHarness.h"

namespace bench::cucpu {
namespace {

/// bench/kernels/empty.cu, one thread (registerLaunchBenchmarks<>).
class EmptyKernel {
  CUfunction F;

public:
  EmptyKernel() : F(function("empty", "empty", /*FromPtx=*/false)) {
    // The block shape and parameter size of the legacy cuLaunchGrid.
    CU_CHECK(cuFuncSetBlockShape(F, 1, 1, 1));
    CU_CHECK(cuParamSetSize(F, 0));
  }
  /// cuLaunchGrid, then cuCtxSynchronize.
  void sync() {
    CU_CHECK(cuLaunchGrid(F, 1, 1));
    CU_CHECK(cuCtxSynchronize());
  }
  /// cuLaunchKernel.
  void launch() {
    CU_CHECK(cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  }
  /// cuCtxSynchronize.
  void wait() { CU_CHECK(cuCtxSynchronize()); }
};

} // namespace
} // namespace bench::cucpu

void bench::form::registerLaunchBenchmarks(const Options &O) {
  bench::registerLaunchBenchmarks<cucpu::EmptyKernel>(O);
}

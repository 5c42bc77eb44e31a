//===- LaunchBenchmarks.cpp - Launch latency of an empty kernel -----------===//
//
// launch.sync: the legacy path, cuLaunchGrid of a 1-thread block shaped by
// cuFuncSetBlockShape and cuParamSetSize, then cuCtxSynchronize.
// launch.queued: LaunchBatch cuLaunchKernel calls back to back, then one
// cuCtxSynchronize; the time reported is per launch. Both are checked by
// their CUresults: an empty kernel has no result to compare.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "CucpuHarness.h"

#include <chrono>

namespace bench::cucpu {

void registerLaunchBenchmarks(const Options &O) {
  auto *Sync =
      benchmark::RegisterBenchmark("launch.sync", [](benchmark::State &S) {
        CUfunction F = function("empty", "empty");
        CU_CHECK(cuFuncSetBlockShape(F, 1, 1, 1));
        CU_CHECK(cuParamSetSize(F, 0));
        CU_CHECK(cuLaunchGrid(F, 1, 1)); // warm-up
        CU_CHECK(cuCtxSynchronize());
        for (auto _ : S) {
          CU_CHECK(cuLaunchGrid(F, 1, 1));
          CU_CHECK(cuCtxSynchronize());
        }
      });
  timed(Sync, O)->Unit(benchmark::kMicrosecond);

  int Batch = O.Size.LaunchBatch;
  auto *Queued = benchmark::RegisterBenchmark(
      "launch.queued", [Batch](benchmark::State &S) {
        CUfunction F = function("empty", "empty");
        auto Launches = [&] {
          for (int I = 0; I < Batch; ++I)
            CU_CHECK(cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr,
                                    nullptr));
          CU_CHECK(cuCtxSynchronize());
        };
        Launches(); // warm-up
        for (auto _ : S) {
          auto T0 = std::chrono::steady_clock::now();
          Launches();
          std::chrono::duration<double> T =
              std::chrono::steady_clock::now() - T0;
          S.SetIterationTime(T.count() / Batch);
        }
      });
  timed(Queued, O, Clock::Manual, O.Size.LaunchBatches)
      ->Unit(benchmark::kMicrosecond);
}

} // namespace bench::cucpu

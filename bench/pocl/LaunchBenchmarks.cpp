//===- LaunchBenchmarks.cpp - Launch latency of an empty kernel -----------===//
//
// launch.sync: clEnqueueNDRangeKernel of one work-item, then clFinish.
// launch.queued: LaunchBatch enqueues back to back, then one clFinish; the
// time reported is per launch. Checked by their return codes.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "PoclHarness.h"

#include <chrono>

namespace bench::pocl {
namespace {
void enqueueEmpty(cl_kernel K) {
  size_t One = 1;
  CL_CHECK(clEnqueueNDRangeKernel(device().Queue, K, 1, nullptr, &One, &One, 0,
                                  nullptr, nullptr));
}
} // namespace

void registerLaunchBenchmarks(const Options &O) {
  auto *Sync =
      benchmark::RegisterBenchmark("launch.sync", [](benchmark::State &S) {
        static cl_kernel K = kernel("empty", "empty");
        cl_command_queue Q = device().Queue;
        enqueueEmpty(K); // warm-up: PoCL compiles the work-group function
        CL_CHECK(clFinish(Q));
        for (auto _ : S) {
          enqueueEmpty(K);
          CL_CHECK(clFinish(Q));
        }
      });
  timed(Sync, O)->Unit(benchmark::kMicrosecond);

  int Batch = O.Size.LaunchBatch;
  auto *Queued = benchmark::RegisterBenchmark(
      "launch.queued", [Batch](benchmark::State &S) {
        static cl_kernel K = kernel("empty", "empty");
        cl_command_queue Q = device().Queue;
        auto Launches = [&] {
          for (int I = 0; I < Batch; ++I)
            enqueueEmpty(K);
          CL_CHECK(clFinish(Q));
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

} // namespace bench::pocl

//===- LaunchBenchmarks.h - Launch latency of an empty kernel ---*- C++ -*-===//
//
// launch.sync: one launch of an empty kernel, waited for.
// launch.queued: LaunchBatch launches back to back, then one wait; the time
// reported is per launch. Each starts with one untimed round (the warm-up).
// A template rather than callbacks: nothing but the form's own calls runs
// inside the timed loops.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_LAUNCHBENCHMARKS_H
#define CUCPU_BENCH_COMMON_LAUNCHBENCHMARKS_H

#include "Options.h"
#include "Run.h"
#include "Stopwatch.h"

namespace bench {

/// Registers launch.sync and launch.queued. \p EmptyKernel is the form's
/// empty kernel, made (untimed) at the start of every repetition, with
/// `void sync()` (one launch, waited for), `void launch()` (one launch, not
/// waited for) and `void wait()` (waits for the launches queued).
template <class EmptyKernel> void registerLaunchBenchmarks(const Options &O) {
  auto *Sync =
      benchmark::RegisterBenchmark("launch.sync", [](benchmark::State &S) {
        EmptyKernel K;
        K.sync(); // warm-up
        for (auto _ : S)
          K.sync();
      });
  timed(Sync, O)->Unit(benchmark::kMicrosecond);

  int Batch = O.Size.LaunchBatch;
  auto *Queued = benchmark::RegisterBenchmark(
      "launch.queued", [Batch](benchmark::State &S) {
        EmptyKernel K;
        auto Launches = [&] {
          for (int I = 0; I < Batch; ++I)
            K.launch();
          K.wait();
        };
        Launches(); // warm-up
        for (auto _ : S)
          S.SetIterationTime(secondsOf(Launches) / Batch);
      });
  timed(Queued, O, Clock::Manual, O.Size.LaunchBatches)
      ->Unit(benchmark::kMicrosecond);
}

} // namespace bench

#endif

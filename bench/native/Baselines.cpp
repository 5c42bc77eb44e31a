//===- Baselines.cpp - Native counterparts of launches and copies ---------===//
//
// A native program has no kernel launch: its closest cost is an OpenMP
// parallel region's fork and join, timed alone (launch.sync) and back to
// back (launch.queued, per region). A host-device copy's counterpart is a
// plain memcpy of the same size between touched buffers.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "NativeHarness.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <omp.h>

namespace bench::native {
namespace {

/// Keeps the empty region from being optimized away.
volatile int Sink;

void emptyRegion() {
#pragma omp parallel
  {
    if (omp_get_thread_num() == -1)
      Sink = 1;
  }
}

} // namespace

void registerLaunchBenchmarks(const Options &O) {
  auto *Sync =
      benchmark::RegisterBenchmark("launch.sync", [](benchmark::State &S) {
        emptyRegion(); // warm-up
        for (auto _ : S)
          emptyRegion();
      });
  timed(Sync, O)->Unit(benchmark::kMicrosecond);

  int Batch = O.Size.LaunchBatch;
  auto *Queued = benchmark::RegisterBenchmark(
      "launch.queued", [Batch](benchmark::State &S) {
        emptyRegion(); // warm-up
        for (auto _ : S) {
          auto T0 = std::chrono::steady_clock::now();
          for (int I = 0; I < Batch; ++I)
            emptyRegion();
          std::chrono::duration<double> T =
              std::chrono::steady_clock::now() - T0;
          S.SetIterationTime(T.count() / Batch);
        }
      });
  timed(Queued, O, Clock::Manual, O.Size.LaunchBatches)
      ->Unit(benchmark::kMicrosecond);
}

void registerCopyBenchmarks(const Options &O) {
  // The same memcpy stands for both directions and both kinds of host
  // memory: the host has only one kind.
  static const char *Names[] = {"copy.htod_pinned", "copy.htod_pageable",
                                "copy.dtoh_pinned", "copy.dtoh_pageable"};
  size_t Bytes = O.Size.CopyBytes;
  for (const char *Name : Names)
    timed(benchmark::RegisterBenchmark(
              Name,
              [Name, Bytes](benchmark::State &S) {
                std::unique_ptr<unsigned char[]> Src(new unsigned char[Bytes]),
                    Dst(new unsigned char[Bytes]);
                for (size_t I = 0; I < Bytes; ++I)
                  Src[I] = static_cast<unsigned char>(I * 131 >> 3);
                std::memset(Dst.get(), 0, Bytes);
                std::memcpy(Dst.get(), Src.get(), Bytes);
                if (std::memcmp(Dst.get(), Src.get(), Bytes) != 0) {
                  reportFailure(std::string("native ") + Name +
                                ": memcpy copied wrong bytes.");
                  S.SkipWithError("wrong result");
                  return;
                }
                for (auto _ : S) {
                  std::memcpy(Dst.get(), Src.get(), Bytes);
                  benchmark::DoNotOptimize(Dst.get());
                  benchmark::ClobberMemory();
                }
                S.SetBytesProcessed(int64_t(S.iterations()) * int64_t(Bytes));
              }),
          O);
}

} // namespace bench::native

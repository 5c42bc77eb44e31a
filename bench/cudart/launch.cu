//===- launch.cu - A <<<>>> launch against the same cuLaunchKernel --------===//
//
// One empty kernel, launched through the runtime (`<<<1, 1>>>`, the path a
// CUDA program takes: __cudaPushCallConfiguration, the host stub,
// cudaLaunchKernel, the registry lookup) and through the driver
// (cuLaunchKernel on the CUfunction the runtime itself resolved), in one
// process, one after the other:
//   *.sync    one launch, then a wait for the device;
//   *.queued  Batch launches back to back, then one wait; time per launch.
//   launch.paired  the two queued forms alternating within each iteration,
//             so that both see the same machine (a shared VM's speed drifts
//             by more than the difference measured): counters runtime_us and
//             driver_us per launch, and ratio = runtime / driver.
// Built by cucc as a whole program (bench/CMakeLists.txt, bench-cudart).
//
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>
#include <cuda.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void empty() {}

namespace {

constexpr int Batch = 1000;

void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", What, cudaGetErrorString(E));
    std::exit(1);
  }
}

void check(CUresult R, const char *What) {
  if (R != CUDA_SUCCESS) {
    std::fprintf(stderr, "%s: CUresult %d\n", What, static_cast<int>(R));
    std::exit(1);
  }
}

CUfunction driverFunction() {
  cudaFunction_t F;
  check(cudaGetFuncBySymbol(&F, reinterpret_cast<const void *>(&empty)),
        "cudaGetFuncBySymbol");
  return F;
}

void runtimeSync(benchmark::State &S) {
  empty<<<1, 1>>>();
  check(cudaDeviceSynchronize(), "warm-up");
  for (auto _ : S) {
    empty<<<1, 1>>>();
    cudaDeviceSynchronize();
  }
  check(cudaGetLastError(), "runtime.launch.sync");
}

void driverSync(benchmark::State &S) {
  CUfunction F = driverFunction();
  check(cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
        "warm-up");
  check(cuCtxSynchronize(), "warm-up");
  for (auto _ : S) {
    cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
    cuCtxSynchronize();
  }
}

template <class Launch> void queued(benchmark::State &S, Launch L) {
  auto Round = [&] {
    for (int I = 0; I < Batch; ++I)
      L();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  };
  Round(); // warm-up
  for (auto _ : S) {
    auto Start = std::chrono::steady_clock::now();
    Round();
    std::chrono::duration<double> Took =
        std::chrono::steady_clock::now() - Start;
    S.SetIterationTime(Took.count() / Batch);
  }
}

void runtimeQueued(benchmark::State &S) {
  queued(S, [] { empty<<<1, 1>>>(); });
  check(cudaGetLastError(), "runtime.launch.queued");
}

void driverQueued(benchmark::State &S) {
  CUfunction F = driverFunction();
  queued(S, [F] {
    cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  });
}

/// One batch of \p L, waited for: seconds per launch.
template <class Launch> double batchSeconds(Launch L) {
  auto Start = std::chrono::steady_clock::now();
  for (int I = 0; I < Batch; ++I)
    L();
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::chrono::duration<double> Took = std::chrono::steady_clock::now() - Start;
  return Took.count() / Batch;
}

void paired(benchmark::State &S) {
  CUfunction F = driverFunction();
  auto Runtime = [] { empty<<<1, 1>>>(); };
  auto Driver = [F] {
    cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);
  };
  batchSeconds(Runtime); // warm-up
  batchSeconds(Driver);
  double RuntimeTotal = 0, DriverTotal = 0;
  bool RuntimeFirst = true;
  for (auto _ : S) {
    double R, D;
    if (RuntimeFirst) {
      R = batchSeconds(Runtime);
      D = batchSeconds(Driver);
    } else {
      D = batchSeconds(Driver);
      R = batchSeconds(Runtime);
    }
    RuntimeFirst = !RuntimeFirst;
    RuntimeTotal += R;
    DriverTotal += D;
    S.SetIterationTime(R + D);
  }
  check(cudaGetLastError(), "launch.paired");
  S.counters["runtime_us"] = 1e6 * RuntimeTotal / S.iterations();
  S.counters["driver_us"] = 1e6 * DriverTotal / S.iterations();
  S.counters["ratio"] = RuntimeTotal / DriverTotal;
}

} // namespace

BENCHMARK(paired)
    ->Name("launch.paired")
    ->UseManualTime()
    ->Iterations(100)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(runtimeSync)
    ->Name("runtime.launch.sync")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(driverSync)
    ->Name("driver.launch.sync")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(runtimeQueued)
    ->Name("runtime.launch.queued")
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(driverQueued)
    ->Name("driver.launch.queued")
    ->UseManualTime()
    ->Iterations(50)
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();

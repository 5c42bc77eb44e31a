//===- main.cpp - bench-cucpu: the benchmarks through cucpu's libcuda -----===//
//
// Writes Google Benchmark JSON (--benchmark_out=...); run.sh merges it with
// bench-native's and bench-pocl's. Never loads PoCL: our libcuda links LLVM
// 19 and PoCL its own LLVM, which must not meet in one process.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "CucpuHarness.h"

#include <cstdio>

int main(int Argc, char **Argv) {
  bench::Options O = bench::parseOptions(Argc, Argv);
  if (O.Child == "load")
    return bench::cucpu::runLoadChild(O);
  if (!O.Child.empty()) {
    std::fprintf(stderr, "Unknown child job '%s'.\n", O.Child.c_str());
    return 2;
  }
  bench::cucpu::registerKernelBenchmarks(O);
  if (!O.ScalingOnly) {
    bench::cucpu::registerLaunchBenchmarks(O);
    bench::cucpu::registerModuleLoadBenchmarks(O);
    bench::cucpu::registerCopyBenchmarks(O);
  }
  int RC =
      bench::runBenchmarks(Argc, Argv, "cucpu", bench::cucpu::workers(), O);
  bench::cucpu::releaseKernelBenchmarks();
  bench::cucpu::releaseCopyBenchmarks();
  return RC;
}

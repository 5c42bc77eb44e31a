//===- main.cpp - bench-pocl: the benchmarks through PoCL -----------------===//
//
// Writes Google Benchmark JSON (--benchmark_out=...); run.sh merges it with
// bench-cucpu's and bench-native's. Never loads cucpu's libcuda: PoCL links
// its own LLVM, which must not meet our LLVM 19 in one process.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "PoclHarness.h"

#include <cstdio>

int main(int Argc, char **Argv) {
  bench::Options O = bench::parseOptions(Argc, Argv);
  if (O.Child == "build")
    return bench::pocl::runBuildChild(O);
  if (!O.Child.empty()) {
    std::fprintf(stderr, "Unknown child job '%s'.\n", O.Child.c_str());
    return 2;
  }
  bench::pocl::registerKernelBenchmarks(O);
  if (!O.ScalingOnly) {
    bench::pocl::registerLaunchBenchmarks(O);
    bench::pocl::registerModuleLoadBenchmarks(O);
    bench::pocl::registerCopyBenchmarks(O);
  }
  int RC = bench::runBenchmarks(Argc, Argv, "pocl", bench::pocl::threads(), O);
  bench::pocl::releaseKernelBenchmarks();
  bench::pocl::releaseCopyBenchmarks();
  return RC;
}

//===- main.cpp - bench-native: the benchmarks as C++ with OpenMP ---------===//
#include "../common/Run.h"
#include "NativeHarness.h"

int main(int Argc, char **Argv) {
  bench::Options O = bench::parseOptions(Argc, Argv);
  bench::native::registerKernelBenchmarks(O);
  if (!O.ScalingOnly) {
    bench::native::registerLaunchBenchmarks(O);
    bench::native::registerCopyBenchmarks(O);
  }
  return bench::runBenchmarks(Argc, Argv, "native", bench::native::threads(),
                              O);
}

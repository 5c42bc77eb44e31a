//===- main.cpp - bench-pocl: the benchmarks through PoCL -----------------===//
//
// Writes Google Benchmark JSON (--benchmark_out=...); run.sh merges it with
// bench-cucpu's and bench-native's. Never loads cucpu's libcuda: PoCL links
// its own LLVM, which must not meet our LLVM 19 in one process.
//
//===----------------------------------------------------------------------===//
#include "../common/Main.h"

int main(int Argc, char **Argv) { return bench::benchMain(Argc, Argv); }

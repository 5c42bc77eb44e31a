//===- main.cpp - bench-cucpu: the benchmarks through cucpu's libcuda -----===//
//
// Writes Google Benchmark JSON (--benchmark_out=...); run.sh merges it with
// bench-native's and bench-pocl's. Never loads PoCL: our libcuda links LLVM
// 19 and PoCL its own LLVM, which must not meet in one process.
//
//===----------------------------------------------------------------------===//
#include "../common/Main.h"

int main(int Argc, char **Argv) { return bench::benchMain(Argc, Argv); }

//===- Main.h - The main function of every benchmark executable -*- C++ -*-===//
//
// Each executable's main() is benchMain: the same flags, the same
// benchmarks in the same order, run through the executable's Form.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_MAIN_H
#define CUCPU_BENCH_COMMON_MAIN_H

namespace bench {

/// Parses the flags, then runs a child job (--child=) or registers every
/// benchmark (the kernels, then unless --scaling the launches, module loads
/// and copies) and runs them; returns main's exit code.
int benchMain(int Argc, char **Argv);

} // namespace bench

#endif

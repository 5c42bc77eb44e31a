//===- Run.h - Google Benchmark glue of the three executables ---*- C++ -*-===//
//
// Every executable registers its benchmarks under the same names (so that
// merge.py can put the three forms side by side), with the same timing
// settings, and fails loudly when a result is wrong.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_RUN_H
#define CUCPU_BENCH_COMMON_RUN_H

#include "Options.h"

#include <benchmark/benchmark.h>

#include <string>

namespace bench {

/// Prints "FAILED: <What>" on stderr and marks the run failed, so that main
/// exits with 1 whatever Google Benchmark does next.
void reportFailure(const std::string &What);

/// Whether reportFailure was called.
bool anyFailure();

/// Prints "FATAL: <What>" on stderr and exits with 1: for a failed API call,
/// after which nothing can be measured.
[[noreturn]] void fatal(const std::string &What);

/// How a benchmark measures: Google Benchmark's wall clock, or the time the
/// benchmark reports itself (State::SetIterationTime).
enum class Clock { Wall, Manual };

/// The settings of every benchmark: \p C, milliseconds, O.Repetitions
/// repetitions (each one and the median in the JSON), and per repetition
/// \p Iterations iterations or, when 0, at least O.MinTime seconds.
benchmark::internal::Benchmark *timed(benchmark::internal::Benchmark *B,
                                      const Options &O, Clock C = Clock::Wall,
                                      int64_t Iterations = 0);

/// Runs the registered benchmarks (Google Benchmark takes Argv's remaining
/// flags) with the form, thread count and mode in the JSON context; returns
/// main's exit code: 1 if any check failed.
int runBenchmarks(int Argc, char **Argv, const char *Form, int Threads,
                  const Options &O);

} // namespace bench

#endif

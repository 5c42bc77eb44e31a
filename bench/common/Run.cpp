//===- Run.cpp - Google Benchmark glue shared by the three executables ----===//
#include "Run.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace bench {
namespace {
std::atomic<bool> Failed{false};
} // namespace

void reportFailure(const std::string &What) {
  Failed = true;
  std::fprintf(stderr, "\nFAILED: %s\n\n", What.c_str());
  std::fflush(stderr);
}

bool anyFailure() { return Failed; }

void fatal(const std::string &What) {
  std::fprintf(stderr, "\nFATAL: %s\n\n", What.c_str());
  std::fflush(stderr);
  std::exit(1);
}

benchmark::internal::Benchmark *timed(benchmark::internal::Benchmark *B,
                                      const Options &O, Clock C,
                                      int64_t Iterations) {
  // Kernels run on other threads: only wall-clock time means anything, never
  // the main thread's CPU time.
  if (C == Clock::Manual)
    B->UseManualTime();
  else
    B->UseRealTime();
  if (Iterations > 0)
    B->Iterations(Iterations);
  else
    B->MinTime(O.MinTime);
  return B->Unit(benchmark::kMillisecond)->Repetitions(O.Repetitions);
}

int runBenchmarks(int Argc, char **Argv, const char *Form, int Threads,
                  const Options &O) {
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 2;
  benchmark::AddCustomContext("form", Form);
  benchmark::AddCustomContext("threads", std::to_string(Threads));
  benchmark::AddCustomContext("mode", modeName(O.RunMode));
  benchmark::AddCustomContext("sizes", describe(O.Size));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (anyFailure()) {
    std::fprintf(stderr,
                 "FAILED: %s: at least one result was wrong (see "
                 "above).\n",
                 Form);
    return 1;
  }
  return 0;
}

} // namespace bench

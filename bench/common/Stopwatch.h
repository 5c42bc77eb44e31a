//===- Stopwatch.h - Wall-clock time of one call ----------------*- C++ -*-===//
//
// The benchmarks that report their own time (launch.queued, the module-load
// children) measure with the steady clock around exactly the calls timed.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_STOPWATCH_H
#define CUCPU_BENCH_COMMON_STOPWATCH_H

#include <chrono>

namespace bench {

/// The wall-clock seconds that calling \p F once takes.
template <class Fn> double secondsOf(Fn &&F) {
  auto T0 = std::chrono::steady_clock::now();
  F();
  std::chrono::duration<double> T = std::chrono::steady_clock::now() - T0;
  return T.count();
}

} // namespace bench

#endif

//===- KernelBenchmarks.h - One benchmark per Workload ---------*- C++ -*-===//
//
// The kernel benchmarks are registered and checked the same way in every
// executable: before timing, one run from the initial contents is checked
// against the host reference (it doubles as the warm-up run); a wrong result
// fails the run. Each form supplies only how a Workload runs on its device.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_KERNELBENCHMARKS_H
#define CUCPU_BENCH_COMMON_KERNELBENCHMARKS_H

#include "Options.h"
#include "Workload.h"

#include <string>
#include <utility>

namespace bench {

/// A Workload set up on one form's device: buffers filled with the initial
/// contents, kernel and arguments ready.
class DeviceWorkload {
public:
  /// Keeps \p W; the form's constructor sets it up on the device.
  explicit DeviceWorkload(Workload W) : W(std::move(W)) {}
  virtual ~DeviceWorkload() = default;
  /// One timed run: zero the ZeroEachRun buffers, run the kernel, wait.
  virtual void run() = 0;
  /// Checks the buffers after the first run(): "" or what is wrong.
  virtual std::string check() = 0;

protected:
  /// The Workload: initial contents, arguments, launch shape and check.
  Workload W;
};

/// Compares \p W's buffers after a run with the host reference, each buffer
/// I copied from the device by \p CopyBack(I, Into) into a vector of its
/// size: "" or what is wrong.
template <class Fn>
std::string checkCopiedBack(const Workload &W, Fn CopyBack) {
  Contents After;
  for (size_t I = 0; I < W.Buffers.size(); ++I) {
    After.emplace_back(W.Buffers[I].Initial.size());
    CopyBack(I, After.back());
  }
  return W.Check(W, After);
}

/// Registers one benchmark per Workload (only the compute-bound ones with
/// --scaling), set up by form::prepareWorkload; with --ptx, each followed by
/// <name>.ptx, the same Workload with its kernel from nvcc's PTX.
void registerKernelBenchmarks(const Options &O);

/// Frees the last kernel benchmark's DeviceWorkload (call before exit).
void releaseKernelBenchmarks();

} // namespace bench

#endif

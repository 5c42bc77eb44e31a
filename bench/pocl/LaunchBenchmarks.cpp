//===- LaunchBenchmarks.cpp - Launch latency of an empty kernel -----------===//
//
// launch.sync: clEnqueueNDRangeKernel of one work-item, then clFinish.
// launch.queued: LaunchBatch enqueues back to back, then one clFinish.
// Checked by their return codes. The warm-up makes PoCL compile the
// work-group function.
//
//===----------------------------------------------------------------------===//
#include "../common/LaunchBenchmarks.h"
#include "PoclHarness.h"

namespace bench::pocl {
namespace {

/// bench/kernels/empty.cl, made once for the whole run.
cl_kernel emptyKernel() {
  static cl_kernel K = kernel("empty", "empty");
  return K;
}

/// The empty kernel on one work-item (registerLaunchBenchmarks<>).
class EmptyKernel {
  cl_kernel K = emptyKernel();
  cl_command_queue Q = device().Queue;

public:
  /// Enqueues, then clFinish.
  void sync() {
    launch();
    wait();
  }
  /// clEnqueueNDRangeKernel.
  void launch() {
    size_t One = 1;
    CL_CHECK(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &One, &One, 0, nullptr,
                                    nullptr));
  }
  /// clFinish.
  void wait() { CL_CHECK(clFinish(Q)); }
};

} // namespace
} // namespace bench::pocl

void bench::form::registerLaunchBenchmarks(const Options &O) {
  bench::registerLaunchBenchmarks<pocl::EmptyKernel>(O);
}

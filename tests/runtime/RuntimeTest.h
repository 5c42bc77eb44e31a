//===- RuntimeTest.h - Fixture and macros of the runtime suite --*- C++ -*-===//
//
// The runtime conformance suite talks to the runtime only through
// <cuda_runtime.h> (and <cuda.h> for the interop cases), so the same sources
// build with cucc against cucpu's libcudart and with nvcc against NVIDIA's.
// Where the two may differ, a test asks isNvidia() (CUCPU_CONFORMANCE_NVIDIA).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_RUNTIME_RUNTIMETEST_H
#define CUCPU_TESTS_RUNTIME_RUNTIMETEST_H

#include <cuda_runtime.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

/// EXPECT_CUDA(cudaErrorInvalidValue, cudaMalloc(nullptr, 4)) << "why";
#define EXPECT_CUDA(Expected, Call)                                            \
  EXPECT_PRED_FORMAT2(::curt::checkError, Expected, Call)
/// As EXPECT_CUDA, but ends the test on a mismatch.
#define ASSERT_CUDA(Expected, Call)                                            \
  ASSERT_PRED_FORMAT2(::curt::checkError, Expected, Call)

/// 1 when building against cucpu; cases NVIDIA's runtime cannot run are
/// compiled for cucpu only:
///   #if CUCPU_ONLY ... #else GTEST_SKIP() << "cucpu-only: <why>"; #endif
#ifdef CUCPU_CONFORMANCE_NVIDIA
#define CUCPU_ONLY 0
#else
#define CUCPU_ONLY 1
#endif

namespace curt {

/// True when the suite is built against NVIDIA's runtime rather than cucpu's.
constexpr bool isNvidia() {
#ifdef CUCPU_CONFORMANCE_NVIDIA
  return true;
#else
  return false;
#endif
}

/// NVIDIA's runtime loads each kernel at its first launch by default (lazy
/// loading, CUDA 12.2 on), and such a load waits for the device: a first
/// launch queued behind a kernel that spins until the host releases it
/// would block the host until the spin gives up (observed on an H200 with
/// CUDA 13.0 even after launching the kernels once). The stream cases hold
/// streams busy that way, so the suite asks for eager loading before the
/// first CUDA call; CUDA_MODULE_LOADING set by the user wins.
inline const bool EagerModuleLoading = [] {
  setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
  return true;
}();

/// What NVIDIA's runtime answers for a launch whose grid or block exceeds
/// the device's limits (or is empty), or exceeds a kernel's
/// __launch_bounds__: cudaErrorInvalidValue, observed with CUDA 13.0 and
/// driver 580 on an H200, not the cudaErrorInvalidConfiguration that the
/// documentation and older runtimes name.
constexpr cudaError_t BadLaunchConfiguration = cudaErrorInvalidValue;

/// "cudaErrorInvalidValue (1)", or a placeholder for a code without a name.
inline std::string errorName(cudaError_t E) {
  const char *Name = cudaGetErrorName(E);
  return std::string(Name ? Name : "(null)") + " (" +
         std::to_string(static_cast<int>(E)) + ")";
}

/// gtest predicate formatter behind EXPECT_CUDA/ASSERT_CUDA: compares two
/// cudaError_t values and names both when they differ.
inline ::testing::AssertionResult checkError(const char * /*ExpectedExpr*/,
                                             const char *CallExpr,
                                             cudaError_t Expected,
                                             cudaError_t Actual) {
  if (Expected == Actual)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << CallExpr << " returned " << errorName(Actual) << ", expected "
         << errorName(Expected);
}

/// Prints one "REPORT key = value" line, as tests/api does: values NVIDIA's
/// runtime reports are collected from them (run-conformance.sh).
template <typename T> void report(const std::string &Key, const T &Value) {
  if constexpr (std::is_convertible_v<const T &, const char *>) {
    const char *Text = Value;
    std::printf("REPORT %s = %s\n", Key.c_str(), Text ? Text : "(null)");
  } else {
    std::printf("REPORT %s = %s\n", Key.c_str(), std::to_string(Value).c_str());
  }
  std::fflush(stdout);
}

/// Device 0 current, the last error cleared, and the device synchronized
/// and its last error clear again at the end: no test inherits another's
/// pending work or error.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_CUDA(cudaSuccess, cudaSetDevice(0)) << "device 0 must exist";
    (void)cudaGetLastError();
  }
  void TearDown() override {
    EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize())
        << "the test left no failed work behind";
    EXPECT_CUDA(cudaSuccess, cudaGetLastError())
        << "the test left no error for the next one";
  }
};

/// A check inside a child process (death-test statement): on failure it
/// names the check on stderr and ends the child with \p Code, which the
/// parent's EXPECT_EXIT(..., ExitedWithCode(0), ...) then reports.
inline void childCheck(bool Ok, int Code, const char *What) {
  if (Ok)
    return;
  std::fprintf(stderr, "child check %d failed: %s\n", Code, What);
  std::fflush(stderr);
  std::_Exit(Code);
}

/// Sticky faults poison the whole process on NVIDIA's runtime, so those
/// cases run in a child process: gtest's "threadsafe" death tests re-execute
/// the test binary (fork + exec), which starts CUDA afresh in the child.
inline void useFreshChildProcesses() {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
}

} // namespace curt

#endif // CUCPU_TESTS_RUNTIME_RUNTIMETEST_H

//===- DriverTest.h - Fixture and macros of the API suite -------*- C++ -*-===//
//
// The conformance suite talks to the driver only through <cuda.h>, so the same
// sources build against cucpu's libcuda and against NVIDIA's. Where the two are
// allowed to differ, a test asks isNvidia() (set by CUCPU_CONFORMANCE_NVIDIA).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_API_DRIVERTEST_H
#define CUCPU_TESTS_API_DRIVERTEST_H

// Deprecated entry points (cuCtxAttach, cuDeviceGetProperties, ...) are part of
// the surface under test; ask the header not to warn about them.
#ifndef CUDA_ENABLE_DEPRECATED
#define CUDA_ENABLE_DEPRECATED 1
#endif
#include <cuda.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

/// EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&P, 0)) << "why";
#define EXPECT_CU(Expected, Call)                                              \
  EXPECT_PRED_FORMAT2(::cuapi::checkResult, Expected, Call)
/// As EXPECT_CU, but ends the test on a mismatch.
#define ASSERT_CU(Expected, Call)                                              \
  ASSERT_PRED_FORMAT2(::cuapi::checkResult, Expected, Call)

/// 1 when building against cucpu. Cases that NVIDIA's driver cannot run
/// (it crashes, hangs, or accepts a stale handle and breaks later) are kept in
/// the suite but compiled for cucpu only:
///   #if CUCPU_ONLY ... #else GTEST_SKIP() << "cucpu-only: <why>"; #endif
#ifdef CUCPU_CONFORMANCE_NVIDIA
#define CUCPU_ONLY 0
#else
#define CUCPU_ONLY 1
#endif

namespace cuapi {

/// True when the suite is built against NVIDIA's driver rather than cucpu's.
constexpr bool isNvidia() {
#ifdef CUCPU_CONFORMANCE_NVIDIA
  return true;
#else
  return false;
#endif
}

/// The CUresult's enumerator name, or a placeholder the driver cannot name.
inline std::string resultName(CUresult R) {
  const char *Name = nullptr;
  if (cuGetErrorName(R, &Name) != CUDA_SUCCESS || !Name)
    return "<unnamed CUresult " + std::to_string(static_cast<int>(R)) + ">";
  return std::string(Name) + " (" + std::to_string(static_cast<int>(R)) + ")";
}

/// gtest predicate formatter behind EXPECT_CU/ASSERT_CU: compares two
/// CUresults and names both when they differ.
inline ::testing::AssertionResult checkResult(const char * /*ExpectedExpr*/,
                                              const char *CallExpr,
                                              CUresult Expected,
                                              CUresult Actual) {
  if (Expected == Actual)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << CallExpr << " returned " << resultName(Actual) << ", expected "
         << resultName(Expected);
}

/// Prints one "REPORT key = value" line: the values NVIDIA's driver reports
/// are collected from these lines to make cucpu's answers realistic.
template <typename T> void report(const std::string &Key, const T &Value) {
  std::printf("REPORT %s = %s\n", Key.c_str(), std::to_string(Value).c_str());
  std::fflush(stdout);
}
inline void report(const std::string &Key, const char *Value) {
  std::printf("REPORT %s = %s\n", Key.c_str(), Value ? Value : "(null)");
  std::fflush(stdout);
}

/// cuInit, device 0 and no context: for "no current context" cases and for
/// tests that manage contexts themselves. TearDown checks nothing leaked.
class NoContextTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_CU(CUDA_SUCCESS, cuInit(0)) << "cuInit(0) must succeed";
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGet(&Dev, 0)) << "device 0 must exist";
    CUcontext Cur = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&Cur));
    ASSERT_EQ(nullptr, Cur) << "a previous test left a context current";
  }
  void TearDown() override {
    CUcontext Cur = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&Cur));
    EXPECT_EQ(nullptr, Cur) << "the test left a context on the thread's stack";
    // Unwind whatever leaked so the next test in this process starts clean.
    while (Cur) {
      if (cuCtxPopCurrent(&Cur) != CUDA_SUCCESS)
        break;
      cuCtxGetCurrent(&Cur);
    }
  }

  /// Creates a context with the CUDA 13 four-argument form; it becomes current.
  CUresult createContext(CUcontext *Out, unsigned Flags = 0) {
    return cuCtxCreate(Out, nullptr, Flags, Dev);
  }

  CUdevice Dev = 0;
};

/// cuInit, device 0 and a fresh context current for the whole test. A test
/// that destroys Ctx itself sets it to nullptr.
class DriverTest : public NoContextTest {
protected:
  void SetUp() override {
    NoContextTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, createContext(&Ctx))
        << "cuCtxCreate must give the fixture a context";
    ASSERT_NE(nullptr, Ctx);
  }
  void TearDown() override {
    if (Ctx) {
      EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Ctx))
          << "the fixture's context must still be destroyable";
    }
    Ctx = nullptr;
    NoContextTest::TearDown();
  }

  CUcontext Ctx = nullptr;
};

} // namespace cuapi

#endif // CUCPU_TESTS_API_DRIVERTEST_H

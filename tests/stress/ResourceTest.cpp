//===- ResourceTest.cpp - Repeated loads and contexts keep memory flat ----===//
//
// Loading and unloading a module 10,000 times, and creating and destroying
// a context 10,000 times, must not make the process grow: after a warm-up,
// the resident set may grow by no more than a fixed allowance (a leak of a
// few kilobytes per iteration would exceed it). The figures are printed.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace {

/// The resident set of this process, in KiB.
long residentKiB() {
  std::ifstream Statm("/proc/self/statm");
  long Size = 0, Resident = 0;
  Statm >> Size >> Resident;
  return Resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/// Growth allowed over 10,000 iterations after the warm-up.
constexpr long AllowedGrowthKiB = 24 * 1024;

/// Under a sanitizer the resident set says nothing about leaks (freed
/// memory waits in quarantine; shadow memory grows); there the sanitizer's
/// own leak check at exit holds the guarantee instead.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool ResidentSetIsMeaningful = false;
#else
constexpr bool ResidentSetIsMeaningful = true;
#endif

TEST(ResourceTest, TenThousandModuleLoadsKeepMemoryFlat) {
  ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
  auto Cycle = [&](int Count) {
    for (int I = 0; I < Count; ++I) {
      CUmodule M = nullptr;
      ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&M, STRESS_CUBIN));
      CUfunction F = nullptr;
      ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&F, M, "fill"));
      ASSERT_EQ(CUDA_SUCCESS, cuModuleUnload(M));
    }
  };
  Cycle(1000);
  long Before = residentKiB();
  Cycle(10000);
  long After = residentKiB();
  std::printf("module load/unload x10000: resident %ld KiB -> %ld KiB\n",
              Before, After);
  if (ResidentSetIsMeaningful) {
    EXPECT_LT(After - Before, AllowedGrowthKiB);
  }
  EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(Ctx));
}

TEST(ResourceTest, TenThousandContextsKeepMemoryFlat) {
  ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
  CUdevice Dev = 0;
  ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  auto Cycle = [&](int Count) {
    for (int I = 0; I < Count; ++I) {
      CUcontext Ctx = nullptr;
      ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
      CUdeviceptr P = 0;
      ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&P, 4096));
      ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(Ctx)) << "frees the allocation too";
    }
  };
  Cycle(1000);
  long Before = residentKiB();
  Cycle(10000);
  long After = residentKiB();
  std::printf("context create/destroy x10000: resident %ld KiB -> %ld KiB\n",
              Before, After);
  if (ResidentSetIsMeaningful) {
    EXPECT_LT(After - Before, AllowedGrowthKiB);
  }
}

} // namespace

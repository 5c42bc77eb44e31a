//===- WorkerThreadsTest.cpp - Stream workers' threads end and are joined -===//
#include "core/WorkerThreads.h"

#include <cuda.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <dirent.h>
#include <thread>

using namespace cucpu;
using namespace std::chrono_literals;

namespace {

/// The threads of this process now.
size_t threadCount() {
  size_t N = 0;
  if (DIR *D = opendir("/proc/self/task")) {
    while (dirent *E = readdir(D))
      N += E->d_name[0] != '.';
    closedir(D);
  }
  return N;
}

TEST(WorkerThreadsTest, EndedThreadsAreJoined) {
  ASSERT_TRUE(joinWorkerThreads(5s));
  size_t Before = threadCount();
  std::atomic<int> Ran{0};
  for (int I = 0; I < 4; ++I)
    startWorkerThread([&] { ++Ran; });
  EXPECT_TRUE(joinWorkerThreads(5s));
  EXPECT_EQ(Ran.load(), 4);
  EXPECT_EQ(threadCount(), Before) << "a joined thread is gone";
}

TEST(WorkerThreadsTest, JoiningWaitsNoLongerThanItsTimeout) {
  ASSERT_TRUE(joinWorkerThreads(5s));
  std::atomic<bool> Release{false};
  startWorkerThread([&] {
    while (!Release.load())
      std::this_thread::sleep_for(1ms);
  });
  auto Start = std::chrono::steady_clock::now();
  EXPECT_FALSE(joinWorkerThreads(20ms)) << "the thread still runs";
  EXPECT_LT(std::chrono::steady_clock::now() - Start, 2s);
  Release = true;
  EXPECT_TRUE(joinWorkerThreads(5s));
}

TEST(WorkerThreadsTest, AStreamsWorkerEndsWithItsContext) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice Dev;
  ASSERT_EQ(cuDeviceGet(&Dev, 0), CUDA_SUCCESS);
  CUcontext Ctx;
  ASSERT_EQ(cuCtxCreate(&Ctx, 0, Dev), CUDA_SUCCESS);
  CUdeviceptr Buf;
  ASSERT_EQ(cuMemAlloc(&Buf, 1 << 20), CUDA_SUCCESS);
  // Whatever threads a memset starts for good (the device's pool) exist
  // before the count.
  ASSERT_EQ(cuMemsetD8(Buf, 0, 1 << 20), CUDA_SUCCESS);
  ASSERT_TRUE(joinWorkerThreads(5s));
  size_t Before = threadCount();
  CUstream S;
  ASSERT_EQ(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  for (int I = 0; I < 64; ++I)
    ASSERT_EQ(cuMemsetD8Async(Buf, uint8_t(I), 1 << 20, S), CUDA_SUCCESS);
  ASSERT_EQ(cuMemFree(Buf), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(Ctx), CUDA_SUCCESS);
  // The stream's queue is closed with its context: its worker, if it
  // started one, ends without lingering.
  EXPECT_TRUE(joinWorkerThreads(5s));
  EXPECT_EQ(threadCount(), Before);
}

} // namespace

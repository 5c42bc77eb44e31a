//===- ErrorTest.cu - cudaGetLastError, cudaGetErrorString, launch errors -===//
//
// The runtime keeps one last error per thread. A call that fails records its
// error; cudaPeekAtLastError reads it, cudaGetLastError reads and clears it,
// and a later successful call leaves it alone. A sticky error (a device-side
// assert, a fault) is different: it poisons the context, so every later call
// fails with it again (cudaGetLastError clears only the thread's record). Those
// cases run in a child process (RuntimeTest.h).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <cassert>
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace curt;

__global__ void errorEmptyKernel() {}

__global__ void errorDynamicShared(int *Out) {
  extern __shared__ int Buffer[];
  Buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[threadIdx.x] = Buffer[blockDim.x - 1 - threadIdx.x];
}

__global__ void errorAssertKernel(int Value) { assert(Value == 0); }

using Error = RuntimeTest;

TEST_F(Error, LastErrorStartsClear) {
  EXPECT_CUDA(cudaSuccess, cudaPeekAtLastError())
      << "nothing failed since the fixture cleared it";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "still nothing";
}

TEST_F(Error, BadLaunchSetsLastErrorAndGetClearsIt) {
  errorEmptyKernel<<<1, 2048>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaPeekAtLastError())
      << "2048 threads per block exceed the 1024 limit";
  EXPECT_CUDA(BadLaunchConfiguration, cudaPeekAtLastError())
      << "peeking does not clear the error";
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "cudaGetLastError returns it";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError())
      << "and clears it: a bad configuration is not sticky";
}

TEST_F(Error, LaterSuccessKeepsTheLastError) {
  errorEmptyKernel<<<1, 2048>>>();
  void *P = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 16))
      << "the runtime still works after a non-sticky error";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
  errorEmptyKernel<<<1, 1>>>();
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "a good launch runs after a bad one";
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "successful calls do not reset the last error";
}

TEST_F(Error, FailedCallSetsLastError) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMalloc(nullptr, 4))
      << "a null output pointer is invalid";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaPeekAtLastError())
      << "every failing runtime call records its error";
  (void)cudaGetLastError();
}

TEST_F(Error, NewestErrorWins) {
  errorEmptyKernel<<<1, 2048>>>();
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaSetDevice(-1)) << "a second error";
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaGetLastError())
      << "the last error is the most recent one";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "cleared";
}

TEST_F(Error, LastErrorIsPerThread) {
  errorEmptyKernel<<<1, 2048>>>();
  cudaError_t Other = cudaErrorUnknown;
  std::thread T([&] { Other = cudaGetLastError(); });
  T.join();
  EXPECT_CUDA(cudaSuccess, Other) << "another thread has its own last error";
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "this thread's error is still there";
}

TEST_F(Error, TooManyThreadsPerBlock) {
  errorEmptyKernel<<<1, 1025>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "1025 threads exceed maxThreadsPerBlock";
  errorEmptyKernel<<<1, dim3(1, 1, 65)>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "block z is at most 64";
  errorEmptyKernel<<<1, dim3(2048, 1, 1)>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "block x is at most 1024";
}

TEST_F(Error, BadGridRejected) {
  errorEmptyKernel<<<dim3(1, 65536, 1), 1>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "grid y is at most 65535";
  errorEmptyKernel<<<0, 1>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "an empty grid is invalid";
  errorEmptyKernel<<<1, 0>>>();
  EXPECT_CUDA(BadLaunchConfiguration, cudaGetLastError())
      << "an empty block is invalid";
}

TEST_F(Error, TooMuchDynamicSharedMemory) {
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, 32 * sizeof(int))) << "output";
  int Optin = 0;
  ASSERT_CUDA(cudaSuccess,
              cudaDeviceGetAttribute(
                  &Optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0))
      << "the opt-in limit";
  errorDynamicShared<<<1, 32, size_t(Optin) + 1024>>>(Out);
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetLastError())
      << "more dynamic shared memory than a block can ever have";
  errorDynamicShared<<<1, 32, 64 * 1024>>>(Out);
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetLastError())
      << "above 48 KiB without cudaFuncAttributeMaxDynamicSharedMemorySize";
  errorDynamicShared<<<1, 32, 32 * sizeof(int)>>>(Out);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "a small amount is fine";
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "and it runs";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Error, OptInToLargeDynamicSharedMemory) {
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, 32 * sizeof(int))) << "output";
  EXPECT_CUDA(cudaSuccess,
              cudaFuncSetAttribute(errorDynamicShared,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   64 * 1024))
      << "opt in to 64 KiB";
  errorDynamicShared<<<1, 32, 64 * 1024>>>(Out);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError())
      << "64 KiB are allowed after opting in";
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "and it runs";
  int Host[32];
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(Host, Out, sizeof(Host), cudaMemcpyDeviceToHost))
      << "read the result";
  EXPECT_EQ(31, Host[0]) << "the block reversed its thread indices";
  EXPECT_CUDA(cudaSuccess, cudaFuncSetAttribute(
                               errorDynamicShared,
                               cudaFuncAttributeMaxDynamicSharedMemorySize, 0))
      << "restore";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Error, ErrorStrings) {
  EXPECT_STREQ("no error", cudaGetErrorString(cudaSuccess))
      << "NVIDIA's text for cudaSuccess";
  EXPECT_STREQ("invalid argument", cudaGetErrorString(cudaErrorInvalidValue))
      << "NVIDIA's text for cudaErrorInvalidValue";
  EXPECT_STREQ("out of memory", cudaGetErrorString(cudaErrorMemoryAllocation))
      << "NVIDIA's text for cudaErrorMemoryAllocation";
  EXPECT_STREQ("invalid configuration argument",
               cudaGetErrorString(cudaErrorInvalidConfiguration))
      << "NVIDIA's text for cudaErrorInvalidConfiguration";
  EXPECT_STREQ("invalid device ordinal",
               cudaGetErrorString(cudaErrorInvalidDevice))
      << "NVIDIA's text for cudaErrorInvalidDevice";
  EXPECT_STREQ("device-side assert triggered",
               cudaGetErrorString(cudaErrorAssert))
      << "NVIDIA's text for cudaErrorAssert";
  EXPECT_STREQ("invalid resource handle",
               cudaGetErrorString(cudaErrorInvalidResourceHandle))
      << "NVIDIA's text for cudaErrorInvalidResourceHandle";
  EXPECT_STREQ("device not ready", cudaGetErrorString(cudaErrorNotReady))
      << "NVIDIA's text for cudaErrorNotReady";
}

TEST_F(Error, ErrorNames) {
  EXPECT_STREQ("cudaSuccess", cudaGetErrorName(cudaSuccess))
      << "the enumerator's name";
  EXPECT_STREQ("cudaErrorInvalidValue", cudaGetErrorName(cudaErrorInvalidValue))
      << "the enumerator's name";
  EXPECT_STREQ("cudaErrorInvalidConfiguration",
               cudaGetErrorName(cudaErrorInvalidConfiguration))
      << "the enumerator's name";
  EXPECT_STREQ("cudaErrorInvalidSymbol",
               cudaGetErrorName(cudaErrorInvalidSymbol))
      << "the enumerator's name";
  EXPECT_STREQ("cudaErrorAssert", cudaGetErrorName(cudaErrorAssert))
      << "the enumerator's name";
}

TEST_F(Error, UnknownCodesHaveAText) {
  const auto Bogus = static_cast<cudaError_t>(9999);
  EXPECT_STREQ("unrecognized error code", cudaGetErrorString(Bogus))
      << "the documented text for a code that is not an error";
  EXPECT_STREQ("unrecognized error code", cudaGetErrorName(Bogus))
      << "cudaGetErrorName says the same (documented)";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError())
      << "asking for a string is not a failing call";
}

/// Ends the child with the outcome of a failing device-side assert: the sync
/// that sees it, a later call, and cudaGetLastError twice must all answer
/// cudaErrorAssert.
static void assertIsStickyInChild() {
  dup2(2, 1); // The device's assert message goes to stdout.
  errorAssertKernel<<<1, 1>>>(1);
  childCheck(cudaGetLastError() == cudaSuccess, 2, "the launch is accepted");
  cudaError_t Sync = cudaDeviceSynchronize();
  std::fprintf(stderr, "sync: %s\n", cudaGetErrorName(Sync));
  childCheck(Sync == cudaErrorAssert, 3, "the sync reports the assert");
  void *P = nullptr;
  cudaError_t Later = cudaMalloc(&P, 16);
  std::fprintf(stderr, "malloc: %s\n", cudaGetErrorName(Later));
  childCheck(Later == cudaErrorAssert, 4, "later calls fail too: sticky");
  childCheck(cudaGetLastError() == cudaErrorAssert, 5,
             "cudaGetLastError reports it");
  cudaError_t Second = cudaGetLastError();
  std::fprintf(stderr, "second cudaGetLastError: %s\n",
               cudaGetErrorName(Second));
  childCheck(Second == cudaSuccess, 6,
             "observed: the thread's last error is cleared all the same");
  childCheck(cudaMalloc(&P, 16) == cudaErrorAssert, 7,
             "but the context is not: the next call fails again");
  childCheck(cudaGetLastError() == cudaErrorAssert, 8,
             "and records the error again");
  errorEmptyKernel<<<1, 1>>>();
  childCheck(cudaDeviceSynchronize() == cudaErrorAssert, 9,
             "no further kernel runs");
  std::fflush(stdout);
  std::_Exit(0);
}

TEST(ErrorChild, AssertIsStickyError) {
  useFreshChildProcesses();
  EXPECT_EXIT(assertIsStickyInChild(), ::testing::ExitedWithCode(0),
              "Assertion .*failed")
      << "a failing assert prints its message and poisons the context";
}

static void passingAssertInChild() {
  errorAssertKernel<<<4, 32>>>(0);
  childCheck(cudaDeviceSynchronize() == cudaSuccess, 2,
             "an assert that holds is silent");
  std::_Exit(0);
}

TEST(ErrorChild, PassingAssertIsSilent) {
  useFreshChildProcesses();
  EXPECT_EXIT(passingAssertInChild(), ::testing::ExitedWithCode(0), "")
      << "a true assert does nothing";
}

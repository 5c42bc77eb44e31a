//===- DestroyedHandleTest.cpp - use of destroyed stream/event handles ----===//
//
// Using a stream or event handle after destroying it makes NVIDIA's driver
// (580) segfault, so those cases are cucpu-only: cucpu validates every handle
// against its registry of live objects and answers CUDA_ERROR_INVALID_HANDLE
// (conformance policy 3: better than NVIDIA where no correct program can
// tell). Streams and events whose context was destroyed fare no better on
// NVIDIA: CUDA_ERROR_CONTEXT_IS_DESTROYED in some runs, a segfault in others.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

using DestroyedHandle = DriverTest;

[[maybe_unused]] CUstream destroyedStream() {
  CUstream S = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
  return S;
}

[[maybe_unused]] CUevent destroyedEvent() {
  CUevent E = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "cleanup: destroy the event";
  return E;
}

TEST_F(DestroyedHandle, StreamQuery) {
#if CUCPU_ONLY
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(S))
      << "the stream no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "stream handle";
#endif
}

TEST_F(DestroyedHandle, StreamSynchronize) {
#if CUCPU_ONLY
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(S))
      << "the stream no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "stream handle";
#endif
}

TEST_F(DestroyedHandle, StreamDestroyTwice) {
#if CUCPU_ONLY
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(S))
      << "the stream no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "stream handle";
#endif
}

TEST_F(DestroyedHandle, StreamAsAsyncCopyTarget) {
#if CUCPU_ONLY
  CUstream S = destroyedStream();
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 256)) << "setup: device memory";
  char Buf[256] = {};
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoDAsync(P, Buf, 256, S))
      << "work cannot be queued on a destroyed stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "stream handle";
#endif
}

TEST_F(DestroyedHandle, EventQuery) {
#if CUCPU_ONLY
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(E))
      << "the event no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "event handle";
#endif
}

TEST_F(DestroyedHandle, EventRecord) {
#if CUCPU_ONLY
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(E, nullptr))
      << "the event no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "event handle";
#endif
}

TEST_F(DestroyedHandle, EventSynchronize) {
#if CUCPU_ONLY
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(E))
      << "the event no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "event handle";
#endif
}

TEST_F(DestroyedHandle, EventDestroyTwice) {
#if CUCPU_ONLY
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(E))
      << "the event no longer exists";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "event handle";
#endif
}

TEST_F(DestroyedHandle, EventElapsedTime) {
#if CUCPU_ONLY
  CUevent Live = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Live, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Live, nullptr)) << "record the event";
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Live)) << "wait for the event";
  CUevent E = destroyedEvent();
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Live, E))
      << "the end event no longer exists";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Live)) << "cleanup: destroy the event";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a destroyed "
                  "event handle";
#endif
}

TEST_F(DestroyedHandle, StreamOfDestroyedContext) {
#if CUCPU_ONLY
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(S))
      << "R-CTX-1: the context took its streams with it";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver answers CONTEXT_IS_DESTROYED "
                  "in some runs and segfaults in others";
#endif
}

TEST_F(DestroyedHandle, EventOfDestroyedContext) {
#if CUCPU_ONLY
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0)) << "setup: an event";
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(E))
      << "R-CTX-1: the context took its events with it";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver answers CONTEXT_IS_DESTROYED "
                  "in some runs and segfaults in others";
#endif
}

} // namespace

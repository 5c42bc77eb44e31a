//===- DestroyedHandleTest.cpp - use of destroyed stream/event handles ----===//
//
// Using a handle after destroying it is undefined behaviour on NVIDIA's
// driver. cucpu validates every handle against its registry of live objects
// and answers CUDA_ERROR_INVALID_HANDLE (conformance policy 3: better than
// NVIDIA where no correct program can tell).
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

using DestroyedHandle = DriverTest;

CUstream destroyedStream() {
  CUstream S = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  return S;
}

CUevent destroyedEvent() {
  CUevent E = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
  return E;
}

TEST_F(DestroyedHandle, StreamQuery) {
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(S))
      << "the stream no longer exists";
}

TEST_F(DestroyedHandle, StreamSynchronize) {
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamSynchronize(S))
      << "the stream no longer exists";
}

TEST_F(DestroyedHandle, StreamDestroyTwice) {
  CUstream S = destroyedStream();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(S))
      << "the stream no longer exists";
}

TEST_F(DestroyedHandle, StreamAsAsyncCopyTarget) {
  CUstream S = destroyedStream();
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 256));
  char Buf[256] = {};
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoDAsync(P, Buf, 256, S))
      << "work cannot be queued on a destroyed stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

TEST_F(DestroyedHandle, EventQuery) {
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(E))
      << "the event no longer exists";
}

TEST_F(DestroyedHandle, EventRecord) {
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(E, nullptr))
      << "the event no longer exists";
}

TEST_F(DestroyedHandle, EventSynchronize) {
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(E))
      << "the event no longer exists";
}

TEST_F(DestroyedHandle, EventDestroyTwice) {
  CUevent E = destroyedEvent();
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(E))
      << "the event no longer exists";
}

TEST_F(DestroyedHandle, EventElapsedTime) {
  CUevent Live = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Live, 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Live, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Live));
  CUevent E = destroyedEvent();
  float Ms = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&Ms, Live, E))
      << "the end event no longer exists";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Live));
}

TEST_F(DestroyedHandle, StreamOfDestroyedContext) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second));
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(Second));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(S))
      << "R-CTX-1: the context took its streams with it";
}

TEST_F(DestroyedHandle, EventOfDestroyedContext) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second));
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(Second));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(E))
      << "R-CTX-1: the context took its events with it";
}

} // namespace

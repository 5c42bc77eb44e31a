//===- InteropTest.cu - The runtime and the driver API together ----------===//
//
// The runtime is a layer over the driver: it uses the device's primary
// context unless the thread has a driver context current, in which case it
// uses that one.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <cuda.h>

using namespace curt;

using Interop = RuntimeTest;

/// As EXPECT_CUDA for CUresult.
#define EXPECT_CU_OK(Call) EXPECT_EQ(CUDA_SUCCESS, (Call)) << #Call

TEST_F(Interop, RuntimeUsesThePrimaryContext) {
  ASSERT_CUDA(cudaSuccess, cudaFree(nullptr))
      << "the customary way to initialize the runtime";
  CUcontext Current = nullptr;
  EXPECT_CU_OK(cuCtxGetCurrent(&Current));
  EXPECT_NE(nullptr, Current) << "the runtime made a context current";
  CUdevice Dev = -1;
  EXPECT_CU_OK(cuDeviceGet(&Dev, 0));
  CUcontext Primary = nullptr;
  EXPECT_CU_OK(cuDevicePrimaryCtxRetain(&Primary, Dev));
  EXPECT_EQ(Primary, Current) << "it is device 0's primary context";
  unsigned Flags = 0;
  int Active = 0;
  EXPECT_CU_OK(cuDevicePrimaryCtxGetState(Dev, &Flags, &Active));
  EXPECT_EQ(1, Active) << "the runtime activated it";
  EXPECT_CU_OK(cuDevicePrimaryCtxRelease(Dev));
}

TEST_F(Interop, RuntimeUsesACurrentDriverContext) {
  CUdevice Dev = -1;
  ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  CUcontext Ctx = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, nullptr, 0, Dev))
      << "a context of our own, current";
  void *P = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 256))
      << "the runtime allocates in the current context";
  CUcontext Owner = nullptr;
  EXPECT_CU_OK(cuPointerGetAttribute(&Owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                                     reinterpret_cast<CUdeviceptr>(P)));
  EXPECT_EQ(Ctx, Owner) << "the allocation belongs to the driver context";
  int D = -1;
  EXPECT_CUDA(cudaSuccess, cudaGetDevice(&D)) << "the current device";
  EXPECT_EQ(0, D) << "the device of the current context";
  EXPECT_CUDA(cudaSuccess, cudaMemset(P, 0, 256)) << "it is usable";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "and freed by the runtime";
  CUcontext Popped = nullptr;
  EXPECT_CU_OK(cuCtxPopCurrent(&Popped));
  EXPECT_EQ(Ctx, Popped) << "our context was still current";
  EXPECT_CU_OK(cuCtxDestroy(Ctx));
}

TEST_F(Interop, RuntimeReturnsToThePrimaryContext) {
  CUdevice Dev = -1;
  ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  CUcontext Ctx = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, nullptr, 0, Dev));
  ASSERT_EQ(CUDA_SUCCESS, cuCtxDestroy(Ctx)) << "gone again";
  void *P = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 64))
      << "with no context current the runtime takes the primary one";
  CUcontext Owner = nullptr, Primary = nullptr;
  EXPECT_CU_OK(cuPointerGetAttribute(&Owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                                     reinterpret_cast<CUdeviceptr>(P)));
  EXPECT_CU_OK(cuDevicePrimaryCtxRetain(&Primary, Dev));
  EXPECT_EQ(Primary, Owner) << "the allocation is the primary context's";
  EXPECT_CU_OK(cuDevicePrimaryCtxRelease(Dev));
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(Interop, StreamsAndEventsAreDriverHandles) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreate(&S)) << "a runtime stream";
  cudaEvent_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaEventCreate(&E)) << "a runtime event";
  void *P = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&P, 4096)) << "buffer";
  EXPECT_CU_OK(cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(P), 7, 4096,
                               reinterpret_cast<CUstream>(S)));
  EXPECT_CU_OK(cuEventRecord(reinterpret_cast<CUevent>(E),
                             reinterpret_cast<CUstream>(S)));
  EXPECT_CUDA(cudaSuccess, cudaEventSynchronize(E))
      << "the runtime waits for the event the driver recorded";
  unsigned char Host = 0;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(&Host, static_cast<char *>(P) + 4095, 1,
                                      cudaMemcpyDeviceToHost))
      << "read";
  EXPECT_EQ(7, Host) << "the driver's memset on the runtime stream ran";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Interop, DriverAllocationsAreRuntimePointers) {
  CUdeviceptr D = 0;
  ASSERT_CUDA(cudaSuccess, cudaFree(nullptr)) << "primary context current";
  ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&D, 128)) << "a driver allocation";
  cudaPointerAttributes A{};
  EXPECT_CUDA(cudaSuccess,
              cudaPointerGetAttributes(&A, reinterpret_cast<void *>(D)))
      << "the runtime knows it";
  EXPECT_EQ(cudaMemoryTypeDevice, A.type) << "device memory";
  EXPECT_CUDA(cudaSuccess, cudaMemset(reinterpret_cast<void *>(D), 1, 128))
      << "and can use it";
  EXPECT_EQ(CUDA_SUCCESS, cuMemFree(D)) << "cleanup";
}

TEST_F(Interop, ResetDeactivatesThePrimaryContext) {
  ASSERT_CUDA(cudaSuccess, cudaFree(nullptr)) << "primary context active";
  EXPECT_CUDA(cudaSuccess, cudaDeviceReset()) << "reset";
  CUdevice Dev = -1;
  ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  unsigned Flags = 0;
  int Active = 1;
  EXPECT_CU_OK(cuDevicePrimaryCtxGetState(Dev, &Flags, &Active));
  EXPECT_EQ(0, Active) << "cudaDeviceReset releases the primary context";
}

//===- UninitializedTest.cpp - every call before cuInit -------------------===//
//
// Built into its own executable (api_uninitialized) that never calls
// cuInit(0): R-API-6 says every function but cuInit then returns
// CUDA_ERROR_NOT_INITIALIZED. A few functions need no initialisation.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <cstring>

using namespace cuapi;

namespace {

#define EXPECT_NOT_INITIALIZED(Call)                                           \
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, Call)                                  \
      << "R-API-6: cuInit has not been called"

TEST(Uninitialized, DeviceGetCount) {
  int Count = -1;
  EXPECT_NOT_INITIALIZED(cuDeviceGetCount(&Count));
}

TEST(Uninitialized, DeviceGet) {
  CUdevice D;
  EXPECT_NOT_INITIALIZED(cuDeviceGet(&D, 0));
}

TEST(Uninitialized, DeviceGetName) {
  char Name[64];
  EXPECT_NOT_INITIALIZED(cuDeviceGetName(Name, sizeof(Name), 0));
}

TEST(Uninitialized, DeviceTotalMem) {
  size_t Bytes;
  EXPECT_NOT_INITIALIZED(cuDeviceTotalMem(&Bytes, 0));
}

TEST(Uninitialized, DeviceComputeCapability) {
  int Major, Minor;
  EXPECT_NOT_INITIALIZED(cuDeviceComputeCapability(&Major, &Minor, 0));
}

TEST(Uninitialized, DeviceGetAttribute) {
  int V;
  EXPECT_NOT_INITIALIZED(
      cuDeviceGetAttribute(&V, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
}

TEST(Uninitialized, DeviceGetProperties) {
  CUdevprop P;
  EXPECT_NOT_INITIALIZED(cuDeviceGetProperties(&P, 0));
}

TEST(Uninitialized, DeviceGetUuid) {
  CUuuid U;
  EXPECT_NOT_INITIALIZED(cuDeviceGetUuid(&U, 0));
}

TEST(Uninitialized, DeviceGetPCIBusId) {
  char Id[32];
  EXPECT_NOT_INITIALIZED(cuDeviceGetPCIBusId(Id, sizeof(Id), 0));
}

TEST(Uninitialized, CtxCreate) {
  CUcontext C;
  EXPECT_NOT_INITIALIZED(cuCtxCreate(&C, nullptr, 0, 0));
}

TEST(Uninitialized, CtxGetCurrent) {
  CUcontext C;
  EXPECT_NOT_INITIALIZED(cuCtxGetCurrent(&C));
}

TEST(Uninitialized, CtxSetCurrent) {
  EXPECT_NOT_INITIALIZED(cuCtxSetCurrent(nullptr));
}

TEST(Uninitialized, CtxPopCurrent) {
  CUcontext C;
  EXPECT_NOT_INITIALIZED(cuCtxPopCurrent(&C));
}

TEST(Uninitialized, CtxGetDevice) {
  CUdevice D;
  EXPECT_NOT_INITIALIZED(cuCtxGetDevice(&D));
}

TEST(Uninitialized, CtxSynchronize) {
  EXPECT_NOT_INITIALIZED(cuCtxSynchronize());
}

TEST(Uninitialized, CtxAttach) {
  CUcontext C;
  EXPECT_NOT_INITIALIZED(cuCtxAttach(&C, 0));
}

TEST(Uninitialized, DevicePrimaryCtxRetain) {
  CUcontext C;
  EXPECT_NOT_INITIALIZED(cuDevicePrimaryCtxRetain(&C, 0));
}

TEST(Uninitialized, DevicePrimaryCtxGetState) {
  unsigned Flags;
  int Active;
  EXPECT_NOT_INITIALIZED(cuDevicePrimaryCtxGetState(0, &Flags, &Active));
}

TEST(Uninitialized, MemAlloc) {
  CUdeviceptr P;
  EXPECT_NOT_INITIALIZED(cuMemAlloc(&P, 256));
}

TEST(Uninitialized, MemAllocHost) {
  void *H;
  EXPECT_NOT_INITIALIZED(cuMemAllocHost(&H, 256));
}

TEST(Uninitialized, MemGetInfo) {
  size_t Free, Total;
  EXPECT_NOT_INITIALIZED(cuMemGetInfo(&Free, &Total));
}

TEST(Uninitialized, MemFreeZero) { EXPECT_NOT_INITIALIZED(cuMemFree(0)); }

TEST(Uninitialized, StreamCreate) {
  CUstream S;
  EXPECT_NOT_INITIALIZED(cuStreamCreate(&S, 0));
}

TEST(Uninitialized, EventCreate) {
  CUevent E;
  EXPECT_NOT_INITIALIZED(cuEventCreate(&E, 0));
}

TEST(Uninitialized, ModuleLoad) {
  CUmodule M;
  EXPECT_NOT_INITIALIZED(cuModuleLoad(&M, "/nonexistent.cubin"));
}

TEST(Uninitialized, DriverGetVersionWorks) {
  int V = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDriverGetVersion(&V))
      << "the version is known without initialising";
  EXPECT_GE(V, CUDA_VERSION) << "at least the header's version";
}

TEST(Uninitialized, ErrorNameAndStringWork) {
  const char *S = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &S))
      << "error names need no initialisation";
  EXPECT_STREQ("CUDA_ERROR_NOT_INITIALIZED", S) << "the enumerator spelling";
  EXPECT_CU(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_NOT_INITIALIZED, &S))
      << "error strings need no initialisation";
  ASSERT_NE(nullptr, S) << "a description, not NULL";
  EXPECT_STREQ("initialization error", S) << "NVIDIA's wording";
}

TEST(Uninitialized, GetProcAddressWorks) {
  void *Fn = nullptr;
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuInit", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, nullptr))
      << "runtimes fetch cuInit itself through cuGetProcAddress";
  EXPECT_NE(nullptr, Fn) << "cuInit was found";
}

// Last in the file: a rejected cuInit must not initialise anything.
TEST(Uninitialized, ZzRejectedInitLeavesDriverUninitialized) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuInit(1)) << "E.1.1: flags must be 0";
  int Count = -1;
  EXPECT_NOT_INITIALIZED(cuDeviceGetCount(&Count))
      << "the failed cuInit did not initialise the driver";
}

} // namespace

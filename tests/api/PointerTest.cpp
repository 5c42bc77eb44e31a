//===- PointerTest.cpp - cuPointerGetAttribute(s)
//--------------------------===//

#include "DriverTest.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

using Pointer = DriverTest;

template <typename T>
CUresult get(T &Out, CUpointer_attribute A, CUdeviceptr P) {
  return cuPointerGetAttribute(&Out, A, P);
}

template <typename T> T must(CUpointer_attribute A, CUdeviceptr P) {
  T V{};
  EXPECT_CU(CUDA_SUCCESS, get(V, A, P)) << "attribute " << int(A);
  return V;
}

TEST_F(Pointer, DeviceMemoryAttributes) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  CUdeviceptr In = P + 100;
  EXPECT_EQ(Ctx, must<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, In))
      << "allocated in the fixture's context";
  EXPECT_EQ(unsigned(CU_MEMORYTYPE_DEVICE),
            must<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, In))
      << "device memory";
  EXPECT_EQ(In, must<CUdeviceptr>(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, In))
      << "the device address of an interior pointer is itself";
  EXPECT_EQ(P, must<CUdeviceptr>(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, In))
      << "the range starts at the allocation";
  EXPECT_EQ(1000u, must<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, In))
      << "the size asked for";
  EXPECT_EQ(0, must<int>(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, In))
      << "device 0";
  EXPECT_EQ(0u, must<unsigned>(CU_POINTER_ATTRIBUTE_IS_MANAGED, In))
      << "cuMemAlloc memory is not managed";
  EXPECT_EQ(1u, must<unsigned>(CU_POINTER_ATTRIBUTE_MAPPED, In))
      << "backed by an allocation";
  EXPECT_NE(0u, must<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, In))
      << "every allocation has a buffer id";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, DeviceMemoryHasNoHostPointer) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  void *H = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            get(H, CU_POINTER_ATTRIBUTE_HOST_POINTER, P))
      << "device memory is not mapped into the host";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, BufferIdsDiffer) {
  CUdeviceptr A = 0, B = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&A, 256)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&B, 256)) << "setup: device memory";
  EXPECT_NE(must<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, A),
            must<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, B))
      << "buffer ids are unique per allocation";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(A)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(B)) << "cleanup: free the allocation";
}

TEST_F(Pointer, PinnedHostAttributes) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 8192))
      << "setup: page-locked memory";
  CUdeviceptr P = reinterpret_cast<CUdeviceptr>(H) + 16;
  EXPECT_EQ(unsigned(CU_MEMORYTYPE_HOST),
            must<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P))
      << "page-locked host memory";
  EXPECT_EQ(static_cast<char *>(H) + 16,
            must<void *>(CU_POINTER_ATTRIBUTE_HOST_POINTER, P))
      << "the host address";
  EXPECT_EQ(P, must<CUdeviceptr>(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, P))
      << "unified addressing: same address on the device";
  EXPECT_EQ(Ctx, must<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, P))
      << "allocated in the fixture's context";
  EXPECT_EQ(reinterpret_cast<CUdeviceptr>(H),
            must<CUdeviceptr>(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, P))
      << "the range starts at the allocation";
  EXPECT_EQ(8192u, must<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, P))
      << "the size asked for";
  EXPECT_EQ(0u, must<unsigned>(CU_POINTER_ATTRIBUTE_IS_MANAGED, P))
      << "page-locked memory is not managed";
  EXPECT_EQ(0, must<int>(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, P))
      << "observed on NVIDIA: the context's device";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

TEST_F(Pointer, RegisteredHostAttributes) {
  const size_t Size = 1 << 16;
  void *Buf = std::aligned_alloc(4096, Size);
  ASSERT_NE(nullptr, Buf) << "setup: page-aligned host memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(Buf, Size, 0))
      << "register page-aligned memory";
  CUdeviceptr P = reinterpret_cast<CUdeviceptr>(Buf);
  EXPECT_EQ(unsigned(CU_MEMORYTYPE_HOST),
            must<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P + 8))
      << "registered memory is host memory";
  EXPECT_EQ(static_cast<char *>(Buf) + 8,
            must<void *>(CU_POINTER_ATTRIBUTE_HOST_POINTER, P + 8))
      << "the host address";
  EXPECT_EQ(Ctx, must<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, P))
      << "registered in the fixture's context";
  EXPECT_EQ(P, must<CUdeviceptr>(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, P + 8))
      << "the registered range starts here";
  EXPECT_EQ(Size, must<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, P + 8))
      << "the registered size";
  EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(Buf)) << "cleanup: unregister";
  std::free(Buf);
}

TEST_F(Pointer, PageableMemoryRejected) {
  std::vector<char> Pageable(4096);
  CUdeviceptr P = reinterpret_cast<CUdeviceptr>(Pageable.data());
  unsigned Type = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            get(Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P))
      << "pageable memory is unknown to the driver";
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, get(C, CU_POINTER_ATTRIBUTE_CONTEXT, P))
      << "pageable memory has no context";
}

TEST_F(Pointer, NullPointerRejected) {
  unsigned Type = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            get(Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0))
      << "NULL is no allocation";
}

TEST_F(Pointer, FreedMemoryRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  unsigned Type = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            get(Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P))
      << "freed memory is unknown";
}

TEST_F(Pointer, NullDataRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerGetAttribute(nullptr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P))
      << "the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, UnknownAttributeRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  unsigned long long V = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            get(V, static_cast<CUpointer_attribute>(9999), P))
      << "9999 is no CUpointer_attribute";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, AttributeOfOtherContextsMemory) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  EXPECT_EQ(Ctx, must<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, P))
      << "the owning context, whichever is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, GetAttributesOfDeviceMemory) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  CUpointer_attribute Attrs[] = {
      CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
      CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
      CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  CUcontext C = nullptr;
  unsigned Type = 0;
  CUdeviceptr DP = 0;
  size_t Size = 0;
  int Ordinal = -1;
  void *Data[] = {&C, &Type, &DP, &Size, &Ordinal};
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttributes(5, Attrs, Data, P + 10))
      << "query several attributes at once";
  EXPECT_EQ(Ctx, C) << "the fixture's context";
  EXPECT_EQ(unsigned(CU_MEMORYTYPE_DEVICE), Type) << "device memory";
  EXPECT_EQ(P + 10, DP) << "the address itself";
  EXPECT_EQ(1000u, Size) << "the size asked for";
  EXPECT_EQ(0, Ordinal) << "device 0";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Pointer, GetAttributesOfPageableMemorySucceedsWithDefaults) {
  std::vector<char> Pageable(4096);
  CUpointer_attribute Attrs[] = {CU_POINTER_ATTRIBUTE_CONTEXT,
                                 CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 CU_POINTER_ATTRIBUTE_IS_MANAGED};
  CUcontext C = reinterpret_cast<CUcontext>(0x1);
  unsigned Type = 77;
  unsigned Managed = 77;
  void *Data[] = {&C, &Type, &Managed};
  EXPECT_CU(CUDA_SUCCESS,
            cuPointerGetAttributes(
                3, Attrs, Data, reinterpret_cast<CUdeviceptr>(Pageable.data())))
      << "unlike cuPointerGetAttribute, an unknown pointer is not an error";
  EXPECT_EQ(nullptr, C) << "no context";
  EXPECT_EQ(0u, Type) << "no memory type";
  EXPECT_EQ(0u, Managed) << "not managed";
}

TEST_F(Pointer, GetAttributesNullArraysRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  CUpointer_attribute Attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE};
  unsigned Type = 0;
  void *Data[] = {&Type};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerGetAttributes(1, nullptr, Data, P))
      << "the attribute array is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerGetAttributes(1, Attrs, nullptr, P))
      << "the data array is required";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

} // namespace

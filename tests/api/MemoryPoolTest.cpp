//===- MemoryPoolTest.cpp - cuMemAllocAsync, cuMemFreeAsync, pools --------===//
#include "DriverTest.h"

#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

using MemoryPool = DriverTest;

cuuint64_t poolValue(CUmemoryPool Pool, CUmemPool_attribute Attribute) {
  cuuint64_t Value = ~cuuint64_t(0);
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolGetAttribute(Pool, Attribute, &Value));
  return Value;
}

CUmemPoolProps poolOn(CUdevice Dev) {
  CUmemPoolProps Props;
  std::memset(&Props, 0, sizeof(Props));
  Props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  Props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Props.location.id = Dev;
  return Props;
}

TEST_F(MemoryPool, DeviceSupportsPools) {
  int Value = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Value, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, Dev));
  EXPECT_EQ(1, Value) << "stream-ordered allocation works";
}

TEST_F(MemoryPool, TheDefaultPoolIsCurrent) {
  CUmemoryPool Default = nullptr, Current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&Default, Dev));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&Current, Dev));
  EXPECT_NE(nullptr, Default);
  EXPECT_EQ(Default, Current) << "until cuDeviceSetMemPool";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetDefaultMemPool(nullptr, Dev))
      << "no place for the pool";
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&Default, 999))
      << "a device that does not exist";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(Default))
      << "the default pool cannot be destroyed";
}

TEST_F(MemoryPool, AllocateUseAndFreeInStreamOrder) {
  CUstream Stream;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&Stream, CU_STREAM_NON_BLOCKING));
  CUmemoryPool Pool;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&Pool, Dev));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(Stream));
  cuuint64_t UsedBefore = poolValue(Pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT);

  size_t Count = 1 << 20;
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&P, Count * 4, Stream));
  EXPECT_NE(0u, P);
  EXPECT_EQ(UsedBefore + Count * 4,
            poolValue(Pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT))
      << "the allocation's bytes are the pool's";
  EXPECT_GE(poolValue(Pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT),
            UsedBefore + Count * 4)
      << "used memory is reserved memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(P, 0x600d, Count, Stream));
  std::vector<unsigned> Back(Count);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Back.data(), P, Count * 4, Stream));
  CUmemoryPool Owner = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuPointerGetAttribute(
                              &Owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, P));
  EXPECT_EQ(Pool, Owner) << "the pointer names its pool";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(P, Stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(Stream));
  EXPECT_EQ(0x600du, Back[0]);
  EXPECT_EQ(0x600du, Back[Count - 1]) << "work before the free saw the memory";
  EXPECT_EQ(UsedBefore, poolValue(Pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT))
      << "the free happened when the stream reached it";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(Stream));
}

TEST_F(MemoryPool, AllocAsyncChecksItsArguments) {
  CUdeviceptr P = 1234;
  EXPECT_CU(CUDA_SUCCESS, cuMemAllocAsync(&P, 0, nullptr))
      << "a zero-byte allocation (observed on NVIDIA's driver)";
  EXPECT_EQ(0u, P) << "is NULL";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(0, nullptr)) << "freeing NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(nullptr, 256, nullptr))
      << "no place for the pointer";
  int Host = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(&Host), nullptr))
      << "memory the driver did not allocate";
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&P, 256, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P))
      << "cuMemFree frees a stream-ordered allocation too";
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 256));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(P, nullptr))
      << "cuMemFreeAsync frees cuMemAlloc's memory too";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

TEST_F(MemoryPool, CreatedPoolServesAllocations) {
  CUmemPoolProps Props = poolOn(Dev);
  CUmemoryPool Pool;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&Pool, &Props));
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&P, 4096, Pool, nullptr));
  EXPECT_GE(poolValue(Pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 4096u);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(P, nullptr));

  // The device's current pool.
  ASSERT_CU(CUDA_SUCCESS, cuDeviceSetMemPool(Dev, Pool));
  CUmemoryPool Current;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&Current, Dev));
  EXPECT_EQ(Pool, Current) << "cuDeviceSetMemPool took";
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&P, 4096, nullptr));
  CUmemoryPool Owner = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuPointerGetAttribute(
                              &Owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, P));
  EXPECT_EQ(Pool, Owner) << "cuMemAllocAsync takes from the current pool";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(P, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());

  CUmemoryPool Default;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&Default, Dev));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceSetMemPool(Dev, Default));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(Pool));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(Pool))
      << "a pool destroyed already";
}

TEST_F(MemoryPool, CreateChecksItsProperties) {
  CUmemoryPool Pool;
  CUmemPoolProps Props = poolOn(Dev);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&Pool, nullptr))
      << "no properties";
  Props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&Pool, &Props))
      << "an invalid allocation type";
  Props = poolOn(Dev);
  Props.location.type = CU_MEM_LOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&Pool, &Props))
      << "an invalid location type";
  Props = poolOn(Dev);
  Props.location.id = 999;
  EXPECT_NE(CUDA_SUCCESS, cuMemPoolCreate(&Pool, &Props))
      << "a device that does not exist";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetDefaultMemPool(&Pool, &Props.location,
                                   CU_MEM_ALLOCATION_TYPE_PINNED))
      << "a location on a device that does not exist is a bad value (as "
         "cudaMemGetDefaultMemPool answers on NVIDIA)";
}

TEST_F(MemoryPool, Attributes) {
  CUmemPoolProps Props = poolOn(Dev);
  CUmemoryPool Pool;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&Pool, &Props));
  int Reuse = -1;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemPoolGetAttribute(
                Pool, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &Reuse));
  EXPECT_EQ(1, Reuse) << "reuse follows event dependencies by default";
  EXPECT_EQ(0u, poolValue(Pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD))
      << "the default release threshold";
  cuuint64_t Threshold = 1 << 30;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemPoolSetAttribute(Pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                  &Threshold));
  EXPECT_EQ(Threshold, poolValue(Pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD));
  cuuint64_t NonZero = 5;
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPoolSetAttribute(Pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &NonZero))
      << "a high-water mark is only reset to 0";
  cuuint64_t Zero = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemPoolSetAttribute(Pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &Zero));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPoolSetAttribute(Pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &Zero))
      << "the current use is read-only";
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPoolGetAttribute(Pool, static_cast<CUmemPool_attribute>(999), &Zero))
      << "999 is not an attribute";

  CUmemLocation Here;
  Here.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Here.id = Dev;
  CUmemAccess_flags Flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolGetAccess(&Flags, Pool, &Here));
  EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, Flags)
      << "the pool's own device may read and write";
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolTrimTo(Pool, 0));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(Pool));
}

} // namespace

//===- MemoryTest.cpp - cuMemAlloc/AllocPitch/Free/GetInfo/GetAddressRange ===//

#include "DriverTest.h"

#include <vector>

using namespace cuapi;

namespace {

using Memory = DriverTest;
using MemoryNoContext = NoContextTest;

//===-- cuMemAlloc --------------------------------------------------------===//

TEST_F(Memory, AllocIsAligned) {
  for (size_t Size : {size_t(1), size_t(3), size_t(255), size_t(4097)}) {
    CUdeviceptr P = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Size)) << "size " << Size;
    EXPECT_NE(0u, P) << "a real address";
    EXPECT_EQ(0u, P % 256) << "R-MEM-3: at least 256-byte aligned";
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  }
}

TEST_F(Memory, AllocationsDoNotOverlap) {
  CUdeviceptr A = 0, B = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&A, 1000)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&B, 1000)) << "setup: device memory";
  EXPECT_TRUE(A + 1000 <= B || B + 1000 <= A) << "distinct ranges";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(A)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(B)) << "cleanup: free the allocation";
}

TEST_F(Memory, AllocZeroBytesRejected) {
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&P, 0))
      << "E.8.2: count 0 is INVALID_VALUE";
}

TEST_F(Memory, AllocNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(nullptr, 256))
      << "the output pointer is required";
}

TEST_F(Memory, AllocHugeFailsWithOutOfMemory) {
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&P, size_t(1) << 50))
      << "1 PiB is more than any device has";
}

TEST_F(MemoryNoContext, AllocWithoutContextRejected) {
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&P, 256))
      << "observed on NVIDIA: INVALID_CONTEXT";
}

//===-- cuMemAllocPitch ---------------------------------------------------===//

TEST_F(Memory, AllocPitchObservedPitch) {
  CUdeviceptr P = 0;
  size_t Pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&P, &Pitch, 100, 10, 4))
      << "a valid pitched allocation";
  EXPECT_EQ(512u, Pitch) << "observed on NVIDIA: width 100 gives pitch 512";
  size_t Size = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(nullptr, &Size, P))
      << "query the allocation's range";
  EXPECT_GE(Size, Pitch * 10) << "the allocation covers pitch*height";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "E.8.4: pitched memory is freed "
                                           "with cuMemFree";
}

TEST_F(Memory, AllocPitchCoversWidthForEveryElementSize) {
  for (unsigned Elem : {4u, 8u, 16u}) {
    for (size_t Width : {size_t(1), size_t(512), size_t(513), size_t(5000)}) {
      CUdeviceptr P = 0;
      size_t Pitch = 0;
      ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&P, &Pitch, Width, 3, Elem))
          << "width " << Width << " element " << Elem;
      report("cuMemAllocPitch.pitch(width=" + std::to_string(Width) +
                 ",elem=" + std::to_string(Elem) + ")",
             Pitch);
      EXPECT_EQ((Width + 511) / 512 * 512, Pitch)
          << "observed on NVIDIA: the width rounded up to 512 bytes, "
             "whatever the element size";
      EXPECT_EQ(0u, P % 256) << "R-MEM-3";
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
    }
  }
}

TEST_F(Memory, AllocPitchElementSizeMustBe4_8_16) {
  for (unsigned Elem : {0u, 1u, 2u, 3u, 5u, 32u}) {
    CUdeviceptr P = 0;
    size_t Pitch = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemAllocPitch(&P, &Pitch, 100, 10, Elem))
        << "element size " << Elem << " is not 4, 8 or 16";
  }
}

TEST_F(Memory, AllocPitchZeroWidthRejected) {
  CUdeviceptr P = 0;
  size_t Pitch = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&P, &Pitch, 0, 10, 4))
      << "an empty row";
}

TEST_F(Memory, AllocPitchZeroHeightRejected) {
  CUdeviceptr P = 0;
  size_t Pitch = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&P, &Pitch, 100, 0, 4))
      << "no rows";
}

TEST_F(Memory, AllocPitchNullOutputsRejected) {
  CUdeviceptr P = 0;
  size_t Pitch = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAllocPitch(nullptr, &Pitch, 100, 10, 4))
      << "the pointer output is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&P, nullptr, 100, 10, 4))
      << "the pitch output is required";
}

//===-- cuMemFree ---------------------------------------------------------===//

TEST_F(Memory, FreeZeroIsNoOp) {
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(0)) << "observed on NVIDIA: success";
}

TEST_F(Memory, FreeInteriorPointerRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1024)) << "setup: device memory";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(P + 4))
      << "E.8.4: only pointers returned by cuMemAlloc";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "the allocation is intact";
}

TEST_F(Memory, DoubleFreeRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1024)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(P))
      << "the pointer no longer names an allocation";
}

TEST_F(Memory, FreeForeignPointerRejected) {
  std::vector<char> Host(4096);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemFree(reinterpret_cast<CUdeviceptr>(Host.data())))
      << "pageable host memory is not a device allocation";
}

TEST_F(Memory, FreeFromAnotherContext) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1024)) << "setup: device memory";
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P))
      << "with unified addressing the pointer identifies its context";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
}

//===-- cuMemGetInfo ------------------------------------------------------===//

TEST_F(Memory, GetInfoFreeIsAtMostTotal) {
  size_t Free = 0, Total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free, &Total))
      << "query free and total memory";
  report("cuMemGetInfo.free", Free);
  report("cuMemGetInfo.total", Total);
  EXPECT_GT(Total, 0u) << "a device has memory";
  EXPECT_LE(Free, Total) << "free memory is part of the total";
  size_t DevTotal = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceTotalMem(&DevTotal, Dev))
      << "query the memory size";
  EXPECT_EQ(DevTotal, Total) << "the same total as cuDeviceTotalMem";
}

TEST_F(Memory, GetInfoSeesAnAllocation) {
  size_t Free0 = 0, Total = 0, Free1 = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free0, &Total))
      << "query free and total memory";
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, size_t(256) << 20))
      << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free1, &Total))
      << "query free and total memory";
  EXPECT_LT(Free1, Free0) << "a 256 MiB allocation reduces free memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Memory, GetInfoOutputsAreOptional) {
  size_t V = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetInfo(nullptr, &V))
      << "observed on NVIDIA: the free output may be NULL";
  EXPECT_GT(V, 0u) << "the total was still written";
  V = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetInfo(&V, nullptr))
      << "observed on NVIDIA: the total output may be NULL";
  EXPECT_GT(V, 0u) << "the free amount was still written";
}

TEST_F(MemoryNoContext, GetInfoWithoutContextRejected) {
  size_t Free, Total;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemGetInfo(&Free, &Total))
      << "E.8.1: memory available to the current context";
}

//===-- cuMemGetAddressRange ----------------------------------------------===//

TEST_F(Memory, AddressRangeOfInteriorPointer) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  CUdeviceptr Base = 0;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&Base, &Size, P + 100))
      << "observed on NVIDIA: interior pointers work";
  EXPECT_EQ(P, Base) << "E.8.7: the allocation's base";
  EXPECT_EQ(1000u, Size) << "E.8.7: the size asked for";
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&Base, &Size, P + 999))
      << "the last byte is inside";
  EXPECT_EQ(P, Base) << "the allocation's base";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Memory, AddressRangeOutputsAreOptional) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1000)) << "setup: device memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(nullptr, nullptr, P))
      << "E.8.7: both outputs optional";
  CUdeviceptr Base = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&Base, nullptr, P + 1))
      << "query the allocation's range";
  EXPECT_EQ(P, Base) << "the allocation's base";
  size_t Size = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(nullptr, &Size, P + 2))
      << "query the allocation's range";
  EXPECT_EQ(1000u, Size) << "the size asked for";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Memory, AddressRangeOfNonAllocationRejected) {
  std::vector<char> Host(4096);
  CUdeviceptr Base = 0;
  size_t Size = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuMemGetAddressRange(&Base, &Size,
                                 reinterpret_cast<CUdeviceptr>(Host.data())))
      << "pageable host memory is in no allocation";
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&Base, &Size, 0))
      << "NULL is in no allocation";
}

TEST_F(Memory, AddressRangeOnePastTheEndRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1024)) << "setup: device memory";
  CUdeviceptr Base = 0;
  size_t Size = 0;
  // 1024 is a multiple of the allocation granularity, so P + 1024 is past
  // every byte NVIDIA's allocator reserved for this allocation.
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&Base, &Size, P + 1024))
      << "one past the end is outside";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(Memory, AddressRangeOfFreedPointerRejected) {
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 1024)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
  CUdeviceptr Base = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&Base, nullptr, P))
      << "freed memory is in no allocation";
}

} // namespace

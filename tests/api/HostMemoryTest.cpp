//===- HostMemoryTest.cpp - page-locked and registered host memory --------===//

#include "DriverTest.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

using HostMemory = DriverTest;
using HostMemoryNoContext = NoContextTest;

/// Page-aligned pageable memory for cuMemHostRegister.
struct PageBuffer {
  explicit PageBuffer(size_t Size)
      : Size(Size), Ptr(std::aligned_alloc(4096, Size)) {
    std::memset(Ptr, 0, Size);
  }
  ~PageBuffer() { std::free(Ptr); }
  size_t Size;
  void *Ptr;
};

//===-- cuMemAllocHost / cuMemFreeHost ------------------------------------===//

TEST_F(HostMemory, AllocHostIsWritableAndFreed) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 1 << 20))
      << "setup: page-locked memory";
  ASSERT_NE(nullptr, H) << "a real address";
  std::memset(H, 0x5a, 1 << 20); // E.8.5: ordinary host memory to the CPU
  EXPECT_EQ(0x5a, static_cast<unsigned char *>(H)[12345]) << "the CPU wrote it";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

TEST_F(HostMemory, AllocHostNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocHost(nullptr, 4096))
      << "the output pointer is required";
}

TEST_F(HostMemory, AllocHostZeroBytesSucceeds) {
  void *H = reinterpret_cast<void *>(0x1);
  EXPECT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 0))
      << "observed on NVIDIA: success, unlike cuMemAlloc(0)";
  report("cuMemAllocHost(0).pointerIsNull", H == nullptr ? 1 : 0);
  if (H) {
    EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H)) << "whatever came back frees";
  }
}

TEST_F(HostMemory, FreeHostOfPageableRejected) {
  std::vector<char> Pageable(4096);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(Pageable.data()))
      << "observed on NVIDIA: not from cuMemAllocHost";
}

TEST_F(HostMemory, FreeHostTwiceRejected) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 4096))
      << "setup: page-locked memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(H))
      << "the pointer no longer names page-locked memory";
}

TEST_F(HostMemoryNoContext, AllocHostWithoutContextRejected) {
  void *H = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemAllocHost(&H, 4096))
      << "page-locked memory belongs to a context";
}

//===-- cuMemHostAlloc
//------------------------------------------------------===//

TEST_F(HostMemory, HostAllocEveryFlag) {
  const unsigned AllFlags[] = {
      0, CU_MEMHOSTALLOC_PORTABLE, CU_MEMHOSTALLOC_DEVICEMAP,
      CU_MEMHOSTALLOC_WRITECOMBINED,
      CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
          CU_MEMHOSTALLOC_WRITECOMBINED};
  for (unsigned Flags : AllFlags) {
    void *H = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&H, 8192, Flags))
        << "flags " << Flags;
    std::memset(H, 1, 8192);
    unsigned Got = 0xdead;
    EXPECT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&Got, H))
        << "query host allocation flags";
    report("cuMemHostGetFlags(cuMemHostAlloc flags=" + std::to_string(Flags) +
               ")",
           Got);
    EXPECT_EQ(Flags | CU_MEMHOSTALLOC_DEVICEMAP, Got)
        << "observed on NVIDIA: the flags asked for, plus DEVICEMAP (all "
           "page-locked memory is mapped under unified addressing)";
    EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
        << "cleanup: free page-locked memory";
  }
}

TEST_F(HostMemory, HostAllocUnknownFlagsRejected) {
  void *H = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&H, 4096, 0x100))
      << "0x100 is no CU_MEMHOSTALLOC_* flag";
}

TEST_F(HostMemory, HostAllocNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(nullptr, 4096, 0))
      << "the output pointer is required";
}

TEST_F(HostMemory, HostGetFlagsOfAllocHost) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 4096))
      << "setup: page-locked memory";
  unsigned Flags = 0xdead;
  EXPECT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&Flags, H))
      << "cuMemAllocHost memory has flags";
  report("cuMemHostGetFlags(cuMemAllocHost)", Flags);
  EXPECT_EQ(unsigned(CU_MEMHOSTALLOC_DEVICEMAP), Flags)
      << "observed on NVIDIA: mapped, nothing else";
  unsigned Interior = 0xdead;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemHostGetFlags(&Interior, static_cast<char *>(H) + 100))
      << "interior pointers are inside the allocation";
  EXPECT_EQ(Flags, Interior) << "same allocation, same flags";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

TEST_F(HostMemory, HostGetFlagsOfPageableRejected) {
  std::vector<char> Pageable(4096);
  unsigned Flags;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemHostGetFlags(&Flags, Pageable.data()))
      << "pageable memory has no host-allocation flags";
}

TEST_F(HostMemory, HostGetFlagsNullOutputRejected) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 4096))
      << "setup: page-locked memory";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(nullptr, H))
      << "the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

//===-- cuMemHostGetDevicePointer -----------------------------------------===//

TEST_F(HostMemory, DevicePointerOfMappedMemoryIsTheHostAddress) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&H, 4096, CU_MEMHOSTALLOC_DEVICEMAP))
      << "page-locked memory with flags";
  CUdeviceptr D = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&D, H, 0))
      << "map to a device address";
  EXPECT_EQ(reinterpret_cast<CUdeviceptr>(H), D)
      << "with unified addressing the device sees the host address";
  std::memset(H, 0x42, 4096);
  unsigned char Back[16] = {};
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back, D + 8, sizeof(Back)))
      << "the device pointer is usable in copies";
  EXPECT_EQ(0x42, Back[15]) << "the bytes the host wrote";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

TEST_F(HostMemory, DevicePointerNonZeroFlagsRejected) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&H, 4096, CU_MEMHOSTALLOC_DEVICEMAP))
      << "page-locked memory with flags";
  CUdeviceptr D = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&D, H, 1))
      << "Flags must be 0";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

TEST_F(HostMemory, DevicePointerOfPageableRejected) {
  std::vector<char> Pageable(4096);
  CUdeviceptr D = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemHostGetDevicePointer(&D, Pageable.data(), 0))
      << "pageable memory is not mapped";
}

TEST_F(HostMemory, DevicePointerNullOutputRejected) {
  void *H = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&H, 4096))
      << "setup: page-locked memory";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(nullptr, H, 0))
      << "the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(H))
      << "cleanup: free page-locked memory";
}

//===-- cuMemHostRegister / Unregister ------------------------------------===//

TEST_F(HostMemory, RegisterAndUnregister) {
  PageBuffer B(1 << 16);
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(B.Ptr, B.Size, 0))
      << "register page-aligned memory";
  CUdeviceptr D = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&D, B.Ptr, 0))
      << "registered memory is mapped";
  unsigned Flags = 0xdead;
  EXPECT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&Flags, B.Ptr))
      << "registered memory has flags";
  EXPECT_EQ(unsigned(CU_MEMHOSTALLOC_DEVICEMAP), Flags)
      << "observed on NVIDIA: registered memory is mapped";
  EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(B.Ptr)) << "cleanup: unregister";
}

TEST_F(HostMemory, RegisterEveryFlag) {
  for (unsigned Flags : {unsigned(CU_MEMHOSTREGISTER_PORTABLE),
                         unsigned(CU_MEMHOSTREGISTER_DEVICEMAP),
                         unsigned(CU_MEMHOSTREGISTER_READ_ONLY)}) {
    PageBuffer B(1 << 16);
    EXPECT_CU(CUDA_SUCCESS, cuMemHostRegister(B.Ptr, B.Size, Flags))
        << "flags " << Flags;
    EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(B.Ptr))
        << "cleanup: unregister";
  }
}

TEST_F(HostMemory, RegisterTwiceRejected) {
  PageBuffer B(1 << 16);
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(B.Ptr, B.Size, 0))
      << "register page-aligned memory";
  EXPECT_CU(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
            cuMemHostRegister(B.Ptr, B.Size, 0))
      << "the range is already page-locked";
  EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(B.Ptr)) << "cleanup: unregister";
}

TEST_F(HostMemory, UnregisterUnknownRejected) {
  PageBuffer B(1 << 16);
  EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(B.Ptr))
      << "never registered";
}

TEST_F(HostMemory, UnregisterTwiceRejected) {
  PageBuffer B(1 << 16);
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(B.Ptr, B.Size, 0))
      << "register page-aligned memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemHostUnregister(B.Ptr)) << "cleanup: unregister";
  EXPECT_CU(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(B.Ptr))
      << "already unregistered";
}

TEST_F(HostMemory, RegisterNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(nullptr, 4096, 0))
      << "NULL is no host range";
}

TEST_F(HostMemory, RegisterZeroBytesRejected) {
  PageBuffer B(4096);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(B.Ptr, 0, 0))
      << "an empty range";
}

TEST_F(HostMemory, RegisterUnknownFlagsRejected) {
  PageBuffer B(4096);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(B.Ptr, B.Size, 0x100))
      << "0x100 is no CU_MEMHOSTREGISTER_* flag";
}

} // namespace

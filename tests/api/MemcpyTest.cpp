//===- MemcpyTest.cpp - 1D, generic and 2D copies -------------------------===//

#include "DriverTest.h"

#include <cstring>
#include <numeric>
#include <vector>

using namespace cuapi;

namespace {

/// Two 4 KiB device allocations and host buffers with a known pattern.
class Memcpy : public DriverTest {
protected:
  static constexpr size_t Size = 4096;
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&A, Size)) << "setup: device memory";
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&B, Size)) << "setup: device memory";
    Pattern.resize(Size);
    std::iota(Pattern.begin(), Pattern.end(), 0); // 0,1,..,255,0,1,..
    Back.assign(Size, 0);
  }
  void TearDown() override {
    if (A) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(A)) << "cleanup: free the allocation";
    }
    if (B) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(B)) << "cleanup: free the allocation";
    }
    DriverTest::TearDown();
  }
  static CUdeviceptr addr(const void *P) {
    return reinterpret_cast<CUdeviceptr>(P);
  }
  CUdeviceptr A = 0, B = 0;
  std::vector<unsigned char> Pattern, Back;
};

using MemcpyNoContext = NoContextTest;

//===-- HtoD / DtoH / DtoD ----------------------------------------------===//

TEST_F(Memcpy, HtoDThenDtoHRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), Size))
      << "write the pattern to the device";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, Size))
      << "read the device memory back";
  EXPECT_EQ(Pattern, Back) << "E.8.13/E.8.14: bytes survive the round trip";
}

TEST_F(Memcpy, DtoDCopies) {
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), Size))
      << "write the pattern to the device";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoD(B + 100, A + 200, 1000))
      << "a valid copy";
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "E.8.15: DtoD is async";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), B + 100, 1000))
      << "read the device memory back";
  EXPECT_EQ(0, std::memcmp(Back.data(), Pattern.data() + 200, 1000))
      << "offsets apply on both sides";
}

TEST_F(Memcpy, ZeroBytesIsNoOp) {
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), 0)) << "HtoD";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, 0)) << "DtoH";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoD(B, A, 0)) << "DtoD";
}

TEST_F(Memcpy, HtoDPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyHtoD(A + Size - 4, Pattern.data(), 8))
      << "observed on NVIDIA: running past the allocation";
}

TEST_F(Memcpy, DtoHPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(Back.data(), A + 1, Size))
      << "the source runs one byte past the allocation";
}

TEST_F(Memcpy, DtoDPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(B, A + 8, Size))
      << "the source runs past its allocation";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(B + 8, A, Size))
      << "the destination runs past its allocation";
}

TEST_F(Memcpy, DtoHFromNonAllocationRejected) {
  std::vector<char> Other(64);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyDtoH(Back.data(), addr(Other.data()), 64))
      << "observed on NVIDIA: the source is no allocation";
}

TEST_F(Memcpy, HtoDToNullRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, Pattern.data(), 64))
      << "NULL is no allocation";
}

TEST_F(Memcpy, HtoDToFreedMemoryRejected) {
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(B)) << "cleanup: free the allocation";
  CUdeviceptr Freed = B;
  B = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(Freed, Pattern.data(), 64))
      << "freed memory is no allocation";
}

TEST_F(Memcpy, IntoAnotherContextsMemory) {
  CUcontext Second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Second))
      << "setup: a second context, now current";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), 64))
      << "with unified addressing the pointer names its own context";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Second))
      << "cleanup: destroy the context";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, 64))
      << "read the device memory back";
  EXPECT_EQ(0, std::memcmp(Back.data(), Pattern.data(), 64))
      << "the bytes arrived";
}

TEST_F(MemcpyNoContext, WithoutContextRejected) {
  char Buf[16] = {};
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyHtoD(0x10000, Buf, 16))
      << "R-CTX-4: no current context";
}

//===-- Async -------------------------------------------------------------===//

TEST_F(Memcpy, AsyncCopiesOnAStream) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  void *Pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&Pinned, Size))
      << "setup: page-locked memory";
  std::memcpy(Pinned, Pattern.data(), Size);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(A, Pinned, Size, S))
      << "a valid copy";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(B, A, Size, S)) << "a valid copy";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  std::memset(Pinned, 0, Size); // Only now: the first copy reads it.
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Pinned, B, Size, S))
      << "a valid copy";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  EXPECT_EQ(0, std::memcmp(Pinned, Pattern.data(), Size))
      << "stream order: HtoD, DtoD, then DtoH";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Pinned))
      << "cleanup: free page-locked memory";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Memcpy, AsyncFromPageableMemoryWorks) {
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(A, Pattern.data(), Size, nullptr))
      << "observed on NVIDIA: pageable is fine today (the 1.1 seed said it "
         "was an error)";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Back.data(), A, Size, nullptr))
      << "pageable destination likewise";
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "wait for the context's work";
  EXPECT_EQ(Pattern, Back) << "the bytes survived the round trip";
}

TEST_F(Memcpy, AsyncPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyHtoDAsync(A + 1, Pattern.data(), Size, nullptr))
      << "same range rule as the synchronous copy";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyDtoDAsync(B, A + 1, Size, nullptr))
      << "same range rule as the synchronous copy";
}

TEST_F(Memcpy, LargeCopiesMoveEveryByte) {
  // Tens of MiB and an odd size: a CPU device splits such copies among its
  // workers; the bytes must land as one memmove would put them.
  const size_t Big = (size_t(24) << 20) + 4093;
  std::vector<unsigned char> Source(Big), Got(Big, 0);
  for (size_t I = 0; I < Big; ++I)
    Source[I] = static_cast<unsigned char>((I * 2654435761u) >> 13);
  CUdeviceptr D1 = 0, D2 = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&D1, Big)) << "setup: device memory";
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&D2, Big + 8)) << "setup: device memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(D1, Source.data(), Big))
      << "pageable to device";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoD(D2 + 3, D1, Big))
      << "device to device, at an odd offset";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Got.data(), D2 + 3, Big))
      << "device to pageable";
  EXPECT_TRUE(Got == Source) << "every byte of the HtoD, DtoD, DtoH chain";

  void *Pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&Pinned, Big))
      << "setup: page-locked memory";
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Pinned, D1, Big, S))
      << "device to page-locked, queued";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "wait for the copy";
  EXPECT_EQ(0, std::memcmp(Pinned, Source.data(), Big))
      << "every byte of the queued copy";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: the stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Pinned)) << "cleanup: pinned memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(D2)) << "cleanup: device memory";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(D1)) << "cleanup: device memory";
}

//===-- Generic cuMemcpy (unified addressing)
//-------------------------------===//

TEST_F(Memcpy, GenericInfersEveryDirection) {
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(A, addr(Pattern.data()), Size))
      << "host to device";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(B, A, Size)) << "device to device";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(addr(Back.data()), B, Size))
      << "device to host";
  EXPECT_EQ(Pattern, Back) << "the bytes survived the round trip";
}

TEST_F(Memcpy, GenericHostToHost) {
  std::vector<unsigned char> Dst(64, 0);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy(addr(Dst.data()), addr(Pattern.data()), 64))
      << "two pageable host pointers";
  EXPECT_EQ(0, std::memcmp(Dst.data(), Pattern.data(), 64))
      << "the bytes arrived";
}

TEST_F(Memcpy, GenericPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpy(A + 16, addr(Pattern.data()), Size))
      << "the device destination runs past its allocation";
}

TEST_F(Memcpy, GenericAsync) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, CU_STREAM_NON_BLOCKING))
      << "setup: a stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyAsync(A, addr(Pattern.data()), Size, S))
      << "queue a generic copy";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyAsync(addr(Back.data()), A, Size, S))
      << "queue a generic copy";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  EXPECT_EQ(Pattern, Back) << "the bytes survived the round trip";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyAsync(A + 16, addr(Pattern.data()), Size, S))
      << "range rule as for cuMemcpy";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

//===-- 2D
//------------------------------------------------------------------===//

/// A CUDA_MEMCPY2D with every field zeroed.
CUDA_MEMCPY2D zeroed() {
  CUDA_MEMCPY2D C;
  std::memset(&C, 0, sizeof(C));
  return C;
}

TEST_F(Memcpy, TwoDHostToDeviceAndBack) {
  // 8 rows of 32 bytes from a host image with pitch 64 into device pitch 128.
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 128;
  C.WidthInBytes = 32;
  C.Height = 8;
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(A, 0, Size)) << "a valid memset";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C)) << "a valid 2D copy";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, Size))
      << "read the device memory back";
  EXPECT_EQ(Pattern[5 * 64 + 31], Back[5 * 128 + 31]) << "row 5, last byte";
  EXPECT_EQ(0, Back[5 * 128 + 32]) << "bytes past the width untouched";

  CUDA_MEMCPY2D D = zeroed();
  std::vector<unsigned char> Img(8 * 32, 0);
  D.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  D.srcDevice = A;
  D.srcPitch = 128;
  D.dstMemoryType = CU_MEMORYTYPE_HOST;
  D.dstHost = Img.data();
  D.dstPitch = 32;
  D.WidthInBytes = 32;
  D.Height = 8;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&D)) << "device to host";
  EXPECT_EQ(Pattern[7 * 64 + 3], Img[7 * 32 + 3]) << "row 7 came back";
}

TEST_F(Memcpy, TwoDWithOffsets) {
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), Size))
      << "write the pattern to the device";
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  C.srcDevice = A;
  C.srcPitch = 256;
  C.srcXInBytes = 5;
  C.srcY = 2;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  C.dstHost = Back.data();
  C.dstPitch = 16;
  C.dstXInBytes = 1;
  C.dstY = 1;
  C.WidthInBytes = 4;
  C.Height = 2;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C)) << "a valid 2D copy";
  EXPECT_EQ(Pattern[2 * 256 + 5], Back[1 * 16 + 1])
      << "§3.5: start = base + Y*pitch + XInBytes on both sides";
  EXPECT_EQ(Pattern[3 * 256 + 8], Back[2 * 16 + 4]) << "second row, last byte";
}

TEST_F(Memcpy, TwoDDeviceToDeviceWithArbitraryPitches) {
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Pattern.data(), Size))
      << "write the pattern to the device";
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  C.srcDevice = A;
  C.srcPitch = 100;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = B;
  C.dstPitch = 77;
  C.WidthInBytes = 70;
  C.Height = 10;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&C))
      << "the seed allows failing for pitches not from cuMemAllocPitch; "
         "NVIDIA today copies them";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2DUnaligned(&C))
      << "E.8.21: the unaligned form has no pitch restriction";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), B, Size))
      << "read the device memory back";
  EXPECT_EQ(Pattern[9 * 100 + 69], Back[9 * 77 + 69]) << "last row, last byte";
}

TEST_F(Memcpy, TwoDHostToHost) {
  std::vector<unsigned char> Dst(256, 0);
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 32;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  C.dstHost = Dst.data();
  C.dstPitch = 64;
  C.WidthInBytes = 16;
  C.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C)) << "host on both sides";
  EXPECT_EQ(Pattern[3 * 32 + 15], Dst[3 * 64 + 15]) << "last row, last byte";
}

TEST_F(Memcpy, TwoDUnifiedMemoryType) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.srcDevice = addr(Pattern.data());
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 64;
  C.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C))
      << "CU_MEMORYTYPE_UNIFIED lets the driver infer each side";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, 256))
      << "read the device memory back";
  EXPECT_EQ(0, std::memcmp(Back.data(), Pattern.data(), 256))
      << "the bytes arrived";
}

TEST_F(Memcpy, TwoDSourcePitchBelowWidthRejected) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 16;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 32;
  C.Height = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C))
      << "E.8.21: any pitch must be >= WidthInBytes";
}

TEST_F(Memcpy, TwoDDestinationPitchBelowWidthRejected) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  C.srcDevice = A;
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  C.dstHost = Back.data();
  C.dstPitch = 16;
  C.WidthInBytes = 32;
  C.Height = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C))
      << "E.8.21: any pitch must be >= WidthInBytes";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2DUnaligned(&C))
      << "the unaligned form checks pitches too";
}

TEST_F(Memcpy, TwoDPitchZeroMeansPackedRows) {
  // Two 32-byte rows: a source pitch of 0 reads them packed, a destination
  // pitch of 0 writes them packed (NVIDIA's driver on an H200).
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 0;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 32;
  C.Height = 2;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C));
  std::vector<unsigned char> Rows(128);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Rows.data(), A, Rows.size()));
  EXPECT_EQ(0, std::memcmp(Rows.data(), Pattern.data(), 32));
  EXPECT_EQ(0, std::memcmp(Rows.data() + 64, Pattern.data() + 32, 32))
      << "the second row starts 32 bytes into the source";

  C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  C.srcDevice = A;
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_HOST;
  std::vector<unsigned char> Packed(64, 0);
  C.dstHost = Packed.data();
  C.dstPitch = 0;
  C.WidthInBytes = 32;
  C.Height = 2;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C));
  EXPECT_EQ(0, std::memcmp(Packed.data(), Pattern.data(), 64))
      << "both rows back, packed";
}

TEST_F(Memcpy, TwoDPitchAboveMaximumWithOneRowAccepted) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = size_t(1) << 32;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 16;
  C.Height = 1;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&C))
      << "E.8.21 says a pitch above CU_DEVICE_ATTRIBUTE_MAX_PITCH is an "
         "error; observed on NVIDIA: a single row never uses the pitch and "
         "the copy succeeds";
}

TEST_F(Memcpy, TwoDPastTheEndRejected) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 1024;
  C.WidthInBytes = 64;
  C.Height = 5; // row 4 starts at 4096, past the 4 KiB allocation
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C))
      << "the last row is outside the destination allocation";
}

TEST_F(Memcpy, TwoDUnknownMemoryTypeRejected) {
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = static_cast<CUmemorytype>(7);
  C.srcHost = Pattern.data();
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 64;
  C.Height = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C)) << "7 is no CUmemorytype";
}

TEST_F(Memcpy, TwoDNullParamsRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(nullptr))
      << "the parameter block is required";
}

TEST_F(Memcpy, TwoDAsyncOnAStream) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  CUDA_MEMCPY2D C = zeroed();
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Pattern.data();
  C.srcPitch = 64;
  C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  C.dstDevice = A;
  C.dstPitch = 64;
  C.WidthInBytes = 64;
  C.Height = 16;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&C, S))
      << "pageable host memory is fine today (the seed said error)";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), A, 1024))
      << "read the device memory back";
  EXPECT_EQ(0, std::memcmp(Back.data(), Pattern.data(), 1024))
      << "the bytes arrived";
  C.srcPitch = 32;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2DAsync(&C, S))
      << "E.8.21: pitch below width";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

} // namespace

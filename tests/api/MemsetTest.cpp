//===- MemsetTest.cpp - cuMemsetD8/16/32, 2D and Async forms --------------===//

#include "DriverTest.h"

#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

/// A 4 KiB allocation filled with 0xee, and a way to read it back.
class Memset : public DriverTest {
protected:
  static constexpr size_t Size = 4096;
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, Size)) << "setup: device memory";
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 0xee, Size)) << "a valid memset";
  }
  void TearDown() override {
    if (P) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
    }
    DriverTest::TearDown();
  }
  std::vector<unsigned char> read() {
    std::vector<unsigned char> Out(Size);
    EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize())
        << "wait for the context's work";
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Out.data(), P, Size))
        << "read the device memory back";
    return Out;
  }
  CUdeviceptr P = 0;
};

using MemsetNoContext = NoContextTest;

TEST_F(Memset, D8SetsBytes) {
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P + 3, 0x5a, 10)) << "a valid memset";
  auto B = read();
  EXPECT_EQ(0xee, B[2]) << "before the range";
  EXPECT_EQ(0x5a, B[3]) << "first byte";
  EXPECT_EQ(0x5a, B[12]) << "last byte";
  EXPECT_EQ(0xee, B[13]) << "E.8.11: count is in elements, here bytes";
}

TEST_F(Memset, D16SetsHalfWords) {
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD16(P + 2, 0x1234, 3)) << "a valid memset";
  auto B = read();
  uint16_t W[4];
  std::memcpy(W, B.data() + 2, sizeof(W));
  EXPECT_EQ(0x1234, W[0]) << "first element";
  EXPECT_EQ(0x1234, W[2]) << "3 elements";
  EXPECT_EQ(0xeeee, W[3]) << "E.8.11: count is in 16-bit elements";
}

TEST_F(Memset, D32SetsWords) {
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(P + 8, 0xdeadbeef, 5))
      << "a valid memset";
  auto B = read();
  uint32_t W[6];
  std::memcpy(W, B.data() + 8, sizeof(W));
  EXPECT_EQ(0xdeadbeefu, W[0]) << "first element";
  EXPECT_EQ(0xdeadbeefu, W[4]) << "5 elements";
  EXPECT_EQ(0xeeeeeeeeu, W[5]) << "E.8.11: count is in 32-bit elements";
}

TEST_F(Memset, ZeroCountIsNoOp) {
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8(P, 1, 0)) << "nothing to set";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(P, 1, 0)) << "nothing to set";
  EXPECT_EQ(0xee, read()[0]) << "memory unchanged";
}

TEST_F(Memset, WholeAllocation) {
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(P, 0x01010101, Size / 4))
      << "exactly the allocation";
  EXPECT_EQ(1, read()[Size - 1]) << "the last byte was set";
}

TEST_F(Memset, D16MisalignedRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(P + 1, 0, 4))
      << "observed on NVIDIA: the destination must be 2-byte aligned";
}

TEST_F(Memset, D32MisalignedRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(P + 2, 0, 4))
      << "observed on NVIDIA: the destination must be 4-byte aligned";
}

TEST_F(Memset, PastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(P, 0, Size + 1))
      << "one byte past the allocation";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(P + Size - 8, 0, 3))
      << "the third word is past the allocation";
}

TEST_F(Memset, UnallocatedAddressRejected) {
  std::vector<char> Pageable(4096);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemsetD8(reinterpret_cast<CUdeviceptr>(Pageable.data()), 0, 16))
      << "pageable host memory is no device allocation";
}

TEST_F(Memset, NullAddressRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(0, 0, 16))
      << "NULL is no device allocation";
}

TEST_F(MemsetNoContext, WithoutContextRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemsetD8(0x10000, 0, 16))
      << "R-CTX-4: no current context";
}

//===-- 2D
//------------------------------------------------------------------===//

TEST_F(Memset, D2D8SetsOnlyTheRectangle) {
  // 4 rows of pitch 256: set 10 bytes in each of rows 0..2.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D8(P, 256, 0x11, 10, 3))
      << "a valid 2D memset";
  auto B = read();
  EXPECT_EQ(0x11, B[0]) << "row 0, first byte";
  EXPECT_EQ(0x11, B[9]) << "row 0, last column";
  EXPECT_EQ(0xee, B[10]) << "E.8.12: width is per row";
  EXPECT_EQ(0x11, B[2 * 256 + 9]) << "row 2";
  EXPECT_EQ(0xee, B[3 * 256]) << "row 3 untouched: height 3";
}

TEST_F(Memset, D2D16SetsOnlyTheRectangle) {
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D16(P, 512, 0xabcd, 4, 2))
      << "a valid 2D memset";
  auto B = read();
  uint16_t W;
  std::memcpy(&W, B.data() + 512 + 6, 2);
  EXPECT_EQ(0xabcd, W) << "row 1, element 3";
  std::memcpy(&W, B.data() + 512 + 8, 2);
  EXPECT_EQ(0xeeee, W) << "row 1, element 4 untouched";
}

TEST_F(Memset, D2D32SetsOnlyTheRectangle) {
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D32(P, 1024, 0x01020304, 8, 4))
      << "a valid 2D memset";
  auto B = read();
  uint32_t W;
  std::memcpy(&W, B.data() + 3 * 1024 + 28, 4);
  EXPECT_EQ(0x01020304u, W) << "row 3, element 7";
  std::memcpy(&W, B.data() + 3 * 1024 + 32, 4);
  EXPECT_EQ(0xeeeeeeeeu, W) << "row 3, element 8 untouched";
}

TEST_F(Memset, D2DOnPitchedAllocation) {
  CUdeviceptr Q = 0;
  size_t Pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&Q, &Pitch, 100, 10, 4))
      << "a valid pitched allocation";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD2D32(Q, Pitch, 7, 25, 10))
      << "E.8.12: fastest with a cuMemAllocPitch pitch";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Q)) << "cleanup: free the allocation";
}

TEST_F(Memset, D2DPitchBelowWidthRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(P, 16, 0, 32, 2))
      << "a row of 32 bytes cannot fit a pitch of 16";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(P, 64, 0, 17, 2))
      << "17 words are 68 bytes, more than the pitch of 64";
}

TEST_F(Memset, D2D32MisalignedRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(P + 2, 256, 0, 4, 2))
      << "the destination must be 4-byte aligned";
}

TEST_F(Memset, D2DPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(P, 1024, 0, 16, 5))
      << "row 4 starts at 4096, past the 4 KiB allocation";
}

//===-- Async -------------------------------------------------------------===//

TEST_F(Memset, AsyncFormsOnAStream) {
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0)) << "setup: a stream";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8Async(P, 1, 16, S)) << "queue a memset";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD16Async(P + 16, 0x0202, 8, S))
      << "queue a memset";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(P + 32, 0x03030303, 4, S))
      << "queue a memset";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD2D8Async(P + 256, 256, 4, 8, 2, S))
      << "queue a 2D memset";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD2D16Async(P + 1024, 256, 0x0505, 4, 2, S))
      << "queue a 2D memset";
  EXPECT_CU(CUDA_SUCCESS,
            cuMemsetD2D32Async(P + 2048, 256, 0x06060606, 4, 2, S))
      << "queue a 2D memset";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "wait for the stream's work";
  auto B = read();
  EXPECT_EQ(1, B[15]) << "cuMemsetD8Async ran";
  EXPECT_EQ(2, B[31]) << "cuMemsetD16Async ran";
  EXPECT_EQ(3, B[47]) << "cuMemsetD32Async ran";
  EXPECT_EQ(4, B[256 + 256 + 7]) << "cuMemsetD2D8Async ran";
  EXPECT_EQ(5, B[1024 + 256 + 7]) << "cuMemsetD2D16Async ran";
  EXPECT_EQ(6, B[2048 + 256 + 15]) << "cuMemsetD2D32Async ran";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "cleanup: destroy the stream";
}

TEST_F(Memset, AsyncOnNullStream) {
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(P, 9, 4, nullptr))
      << "stream 0 is the default stream";
  EXPECT_EQ(9, read()[0]) << "the memset on stream 0 ran";
}

TEST_F(Memset, AsyncMisalignedRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(P + 1, 0, 4, nullptr))
      << "same alignment rule as cuMemsetD32";
}

TEST_F(Memset, AsyncPastTheEndRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD8Async(P, 0, Size + 1, nullptr))
      << "same range rule as cuMemsetD8";
}

} // namespace

//===- ArrayTest.cpp - CUDA arrays and the copies that reach them ---------===//
//
// The seeds' E.8.8-E.8.21 with today's byte offsets; the expected answers
// are those of NVIDIA's driver on an H200 (tools/texture-facts).
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"

#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

class ArrayTest : public DriverTest {
protected:
  CUarray create(size_t W, size_t H, CUarray_format F = CU_AD_FORMAT_FLOAT,
                 unsigned Channels = 1) {
    CUDA_ARRAY_DESCRIPTOR D{};
    D.Width = W;
    D.Height = H;
    D.Format = F;
    D.NumChannels = Channels;
    CUarray A = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuArrayCreate(&A, &D));
    return A;
  }
  CUresult create3D(size_t W, size_t H, size_t Depth, unsigned Flags,
                    CUarray *Out) {
    CUDA_ARRAY3D_DESCRIPTOR D{};
    D.Width = W;
    D.Height = H;
    D.Depth = Depth;
    D.Format = CU_AD_FORMAT_FLOAT;
    D.NumChannels = 1;
    D.Flags = Flags;
    return cuArray3DCreate(Out, &D);
  }
};

TEST_F(ArrayTest, EveryFormatWithOneTwoOrFourChannels) {
  const CUarray_format Formats[] = {
      CU_AD_FORMAT_UNSIGNED_INT8,  CU_AD_FORMAT_UNSIGNED_INT16,
      CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_SIGNED_INT8,
      CU_AD_FORMAT_SIGNED_INT16,   CU_AD_FORMAT_SIGNED_INT32,
      CU_AD_FORMAT_HALF,           CU_AD_FORMAT_FLOAT};
  for (CUarray_format F : Formats)
    for (unsigned C : {0u, 1u, 2u, 3u, 4u, 5u}) {
      CUDA_ARRAY_DESCRIPTOR D{};
      D.Width = 16;
      D.Height = 4;
      D.Format = F;
      D.NumChannels = C;
      CUarray A = nullptr;
      bool Valid = C == 1 || C == 2 || C == 4;
      ASSERT_CU(Valid ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE,
                cuArrayCreate(&A, &D))
          << "format " << F << ", " << C << " channels";
      if (!Valid)
        continue;
      CUDA_ARRAY_DESCRIPTOR Back{};
      ASSERT_CU(CUDA_SUCCESS, cuArrayGetDescriptor(&Back, A));
      EXPECT_EQ(16u, Back.Width);
      EXPECT_EQ(4u, Back.Height);
      EXPECT_EQ(F, Back.Format);
      EXPECT_EQ(C, Back.NumChannels);
      EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
    }
}

TEST_F(ArrayTest, InvalidDescriptorsAreRejected) {
  CUDA_ARRAY_DESCRIPTOR D{};
  D.Width = 16;
  D.Format = CUarray_format(0x07);
  D.NumChannels = 1;
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&A, &D));
  D.Format = CU_AD_FORMAT_FLOAT;
  D.Width = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&A, &D)) << "width 0";
  D.Width = 131073;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&A, &D))
      << "past the 1D limit";
  D.Width = 2;
  D.Height = 65537;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&A, &D))
      << "past the 2D height limit";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(nullptr, &D));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayCreate(&A, nullptr));
}

TEST_F(ArrayTest, ThreeDimensionalShapesAndFlags) {
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, create3D(8, 0, 2, 0, &A))
      << "a 3D array needs a height";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            create3D(8, 4, 0, CUDA_ARRAY3D_LAYERED, &A))
      << "a layered array needs its layers as depth";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            create3D(8, 4, 6, CUDA_ARRAY3D_CUBEMAP, &A))
      << "a cubemap is square";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            create3D(8, 8, 2, CUDA_ARRAY3D_TEXTURE_GATHER, &A))
      << "texture gather is 2D only";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, create3D(16385, 2, 2, 0, &A));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            create3D(8, 8, 2049, CUDA_ARRAY3D_LAYERED, &A));

  struct Shape {
    size_t W, H, D;
    unsigned Flags;
  } Valid[] = {{8, 0, 0, 0},
               {8, 4, 2, 0},
               {8, 0, 2, CUDA_ARRAY3D_LAYERED},
               {8, 8, 6, CUDA_ARRAY3D_CUBEMAP},
               {8, 8, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED},
               {8, 8, 0, CUDA_ARRAY3D_SURFACE_LDST}};
  for (const Shape &S : Valid) {
    ASSERT_CU(CUDA_SUCCESS, create3D(S.W, S.H, S.D, S.Flags, &A))
        << S.W << "x" << S.H << "x" << S.D << " flags " << S.Flags;
    CUDA_ARRAY3D_DESCRIPTOR Back{};
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&Back, A));
    EXPECT_EQ(S.W, Back.Width);
    EXPECT_EQ(S.H, Back.Height);
    EXPECT_EQ(S.D, Back.Depth);
    EXPECT_EQ(S.Flags, Back.Flags);
    CUDA_ARRAY_DESCRIPTOR Back2{};
    EXPECT_CU(CUDA_SUCCESS, cuArrayGetDescriptor(&Back2, A))
        << "a 3D array has a 2D descriptor too";
    EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
  }
}

TEST_F(ArrayTest, NullHandlesAndPointers) {
  CUarray A = create(4, 4);
  CUDA_ARRAY_DESCRIPTOR D{};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayGetDescriptor(nullptr, A));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayGetDescriptor(&D, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(ArrayTest, DestroyedArrayIsAnInvalidHandle) {
#if CUCPU_ONLY
  CUarray A = create(4, 4);
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
  CUDA_ARRAY_DESCRIPTOR D{};
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayGetDescriptor(&D, A));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArrayDestroy(A));
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver answers CONTEXT_IS_DESTROYED "
                  "in some processes and crashes in others";
#endif
}

TEST_F(ArrayTest, OneDimensionalCopiesTakeByteOffsetsWithinTheFirstRow) {
  CUarray A = create(16, 0); // 64 bytes.
  std::vector<unsigned char> Bytes(64), Back(64, 0);
  for (int I = 0; I < 64; ++I)
    Bytes[I] = static_cast<unsigned char>(I * 7);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(A, 0, Bytes.data(), 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(A, 1, Bytes.data(), 8))
      << "offsets need not be element-aligned";
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(Back.data(), A, 0, 64));
  EXPECT_EQ(Bytes[0], Back[0]);
  EXPECT_EQ(0, std::memcmp(Back.data() + 1, Bytes.data(), 8));
  EXPECT_EQ(Bytes[9], Back[9]);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(A, 60, Bytes.data(), 8));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoA(A, 64, Bytes.data(), 0))
      << "nothing to copy";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(A, 0, nullptr, 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemcpyHtoA(nullptr, 0, Bytes.data(), 4));

  CUarray A2 = create(4, 4); // Rows of 16 bytes.
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoA(A2, 0, Bytes.data(), 16));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(A2, 0, Bytes.data(), 32))
      << "a 1D copy reaches only the first row";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoA(A2, 0, A, 0, 64));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A2));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(ArrayTest, ArrayToArrayAndDeviceCopiesIgnoreFormats) {
  CUarray F = create(16, 0, CU_AD_FORMAT_FLOAT);
  CUarray I = create(16, 0, CU_AD_FORMAT_SIGNED_INT32);
  CUarray F2 = create(8, 0, CU_AD_FORMAT_FLOAT, 2);
  std::vector<float> Values(16), Back(16, 0.0f);
  for (int K = 0; K < 16; ++K)
    Values[K] = K * 1.5f;
  CUdeviceptr Dev = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Dev, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(Dev, Values.data(), 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoA(F, 0, Dev, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoA(I, 0, F, 0, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoA(F2, 0, I, 0, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoD(Dev + 64, F2, 0, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), Dev + 64, 64));
  EXPECT_EQ(Values, Back);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(F, 0, Dev + 200, 64))
      << "the device range ends past its allocation";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD(Dev, F, 0, 65));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Dev));
  for (CUarray A : {F, I, F2})
    EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(ArrayTest, TwoDimensionalCopiesPlaceRectangles) {
  CUarray A = create(4, 4); // 4x4 floats.
  std::vector<float> Host(16), Out(6, 0.0f);
  for (int K = 0; K < 16; ++K)
    Host[K] = float(K);
  CUDA_MEMCPY2D C{};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Host.data();
  C.srcPitch = 16;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.WidthInBytes = 16;
  C.Height = 4;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&C));
  CUDA_MEMCPY2D B{};
  B.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  B.srcArray = A;
  B.srcXInBytes = 4;
  B.srcY = 1;
  B.dstMemoryType = CU_MEMORYTYPE_HOST;
  B.dstHost = Out.data();
  B.dstPitch = 8;
  B.WidthInBytes = 8;
  B.Height = 3;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&B));
  EXPECT_EQ((std::vector<float>{5, 6, 9, 10, 13, 14}), Out);
  C.dstXInBytes = 8;
  C.WidthInBytes = 12;
  C.Height = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C)) << "past the row";
  C.dstXInBytes = 0;
  C.WidthInBytes = 16;
  C.dstY = 3;
  C.Height = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&C)) << "past the last row";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2DUnaligned(&C));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(ArrayTest, ThreeDimensionalCopiesPlaceBoxes) {
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, create3D(4, 3, 2, 0, &A));
  std::vector<float> Host(24), Out(4, 0.0f);
  for (int K = 0; K < 24; ++K)
    Host[K] = float(K);
  CUDA_MEMCPY3D C{};
  C.srcMemoryType = CU_MEMORYTYPE_HOST;
  C.srcHost = Host.data();
  C.srcPitch = 16;
  C.srcHeight = 3;
  C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  C.dstArray = A;
  C.WidthInBytes = 16;
  C.Height = 3;
  C.Depth = 2;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&C));
  C.dstZ = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&C)) << "past the last slice";
  CUDA_MEMCPY3D B{};
  B.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  B.srcArray = A;
  B.srcXInBytes = 4;
  B.srcY = 1;
  B.srcZ = 1;
  B.dstMemoryType = CU_MEMORYTYPE_HOST;
  B.dstHost = Out.data();
  B.dstPitch = 8;
  B.dstHeight = 2;
  B.WidthInBytes = 8;
  B.Height = 2;
  B.Depth = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&B));
  EXPECT_EQ((std::vector<float>{17, 18, 21, 22}), Out);
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

TEST_F(ArrayTest, AsyncCopiesAcceptPageableAndPageLockedMemory) {
  CUarray A = create(16, 0);
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  std::vector<float> Pageable(16, 2.0f);
  void *Pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&Pinned, 64));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoAAsync(A, 0, Pageable.data(), 64, S));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyAtoHAsync(Pinned, A, 0, 64, S));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoAAsync(A, 2, Pinned, 64, S));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(2.0f, static_cast<float *>(Pinned)[15]);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Pinned));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(A));
}

} // namespace

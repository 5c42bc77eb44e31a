//===- ArrayTest.cu - cudaMallocArray, cudaMemcpy*Array, cudaFreeArray ----===//

#include "RuntimeTest.h"

#include <vector>

using namespace curt;

using Array = RuntimeTest;

TEST_F(Array, Memcpy2DToAndFromArray) {
  const size_t W = 33, H = 17;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, W, H))
      << "a 33x17 float array";
  std::vector<float> In(W * H), Out(W * H, -1.0f);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = 0.5f * I;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(A, 0, 0, In.data(), W * sizeof(float),
                                  W * sizeof(float), H, cudaMemcpyHostToDevice))
      << "upload";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2DFromArray(Out.data(), W * sizeof(float),
                                                 A, 0, 0, W * sizeof(float), H,
                                                 cudaMemcpyDeviceToHost))
      << "download";
  EXPECT_EQ(In, Out) << "the texels made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, Memcpy2DWithOffsets) {
  const size_t W = 8, H = 8;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<int>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, W, H)) << "8x8 ints";
  std::vector<int> Zero(W * H, 0), Out(W * H, -1);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(A, 0, 0, Zero.data(), W * 4, W * 4, H,
                                  cudaMemcpyHostToDevice))
      << "clear";
  int Patch[2][3] = {{1, 2, 3}, {4, 5, 6}};
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(A, 2 * sizeof(int), 5, Patch, 3 * sizeof(int),
                                  3 * sizeof(int), 2, cudaMemcpyHostToDevice))
      << "a 3x2 patch at x 2 (wOffset is in bytes), y 5";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DFromArray(Out.data(), W * 4, A, 0, 0, W * 4, H,
                                    cudaMemcpyDeviceToHost))
      << "download";
  EXPECT_EQ(1, Out[5 * W + 2]) << "the patch's first texel";
  EXPECT_EQ(6, Out[6 * W + 4]) << "the patch's last texel";
  EXPECT_EQ(0, Out[5 * W + 1]) << "left of the patch";
  EXPECT_EQ(0, Out[7 * W + 2]) << "below the patch";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, CopyBeyondTheArrayRejected) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<int>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, 4, 4)) << "4x4 ints";
  std::vector<int> Host(64);
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemcpy2DToArray(A, 2 * sizeof(int), 0, Host.data(), 16, 16, 4,
                                  cudaMemcpyHostToDevice))
      << "x offset 2 plus 4 texels exceed the width of 4";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaMemcpy2DFromArray(Host.data(), 16, A, 0, 1, 16, 4,
                                    cudaMemcpyDeviceToHost))
      << "y offset 1 plus 4 rows exceed the height of 4";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, ArrayGetInfo) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, 20, 10)) << "uchar4s";
  cudaChannelFormatDesc Got{};
  cudaExtent E{};
  unsigned Flags = 99;
  EXPECT_CUDA(cudaSuccess, cudaArrayGetInfo(&Got, &E, &Flags, A)) << "query";
  EXPECT_EQ(8, Got.x) << "8 bits of x";
  EXPECT_EQ(8, Got.w) << "8 bits of w";
  EXPECT_EQ(cudaChannelFormatKindUnsigned, Got.f) << "unsigned";
  EXPECT_EQ(20u, E.width) << "width in elements";
  EXPECT_EQ(10u, E.height) << "height";
  EXPECT_EQ(0u, E.depth) << "a 2D array has depth 0";
  EXPECT_EQ(0u, Flags) << "cudaArrayDefault";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, OneDimensionalArray) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<short>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, 100))
      << "height 0 makes a 1D array";
  short In[100], Out[100] = {};
  for (int I = 0; I < 100; ++I)
    In[I] = static_cast<short>(I - 50);
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(A, 0, 0, In, sizeof(In), sizeof(In), 1,
                                  cudaMemcpyHostToDevice))
      << "one row";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DFromArray(Out, sizeof(Out), A, 0, 0, sizeof(Out), 1,
                                    cudaMemcpyDeviceToHost))
      << "one row back";
  EXPECT_EQ(-50, Out[0]) << "first element";
  EXPECT_EQ(49, Out[99]) << "last element";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, Malloc3DArrayAndMemcpy3D) {
  const size_t W = 6, H = 5, D = 4;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaMalloc3DArray(&A, &Desc, make_cudaExtent(W, H, D)))
      << "a 6x5x4 float array (extent in elements for arrays)";
  std::vector<float> In(W * H * D), Out(W * H * D, 0);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(I);
  cudaMemcpy3DParms Up{};
  Up.srcPtr = make_cudaPitchedPtr(In.data(), W * sizeof(float), W, H);
  Up.dstArray = A;
  Up.extent = make_cudaExtent(W, H, D);
  Up.kind = cudaMemcpyHostToDevice;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy3D(&Up)) << "upload";
  cudaMemcpy3DParms Down{};
  Down.srcArray = A;
  Down.dstPtr = make_cudaPitchedPtr(Out.data(), W * sizeof(float), W, H);
  Down.extent = make_cudaExtent(W, H, D);
  Down.kind = cudaMemcpyDeviceToHost;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy3D(&Down)) << "download";
  EXPECT_EQ(In, Out) << "the volume made the round trip";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
}

TEST_F(Array, MallocArrayArgumentsChecked) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMallocArray(&A, &Desc, 0, 4))
      << "a zero width";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMallocArray(nullptr, &Desc, 4, 4))
      << "the output pointer is required";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaMallocArray(&A, nullptr, 4, 4))
      << "the format is required";
  (void)cudaGetLastError();
}

TEST_F(Array, FreeArrayNullIsANoOp) {
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(nullptr))
      << "documented: if the array is 0, no operation is performed";
}

TEST_F(Array, MemcpyArrayToArrayCopiesRowsEndToEnd) {
  // Two byte arrays of different widths: a linear copy wraps at each one's
  // own row length.
  const size_t SrcW = 16, SrcH = 4, DstW = 12, DstH = 5;
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t Src = nullptr, Dst = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&Src, &Desc, SrcW, SrcH));
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&Dst, &Desc, DstW, DstH));
  std::vector<unsigned char> In(SrcW * SrcH), Out(DstW * DstH, 0);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<unsigned char>(I + 1);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy2DToArray(Src, 0, 0, In.data(), SrcW, SrcW,
                                               SrcH, cudaMemcpyHostToDevice));
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(Dst, 0, 0, Out.data(), DstW, DstW, DstH,
                                  cudaMemcpyHostToDevice));
  const size_t Count = 30, SrcX = 5, SrcY = 1, DstX = 3, DstY = 2;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyArrayToArray(Dst, DstX, DstY, Src, SrcX, SrcY, Count,
                                     cudaMemcpyDeviceToDevice))
      << "30 bytes from (5, 1) to (3, 2)";
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy2DFromArray(Out.data(), DstW, Dst, 0, 0, DstW, DstH,
                                    cudaMemcpyDeviceToHost));
  std::vector<unsigned char> Expected(DstW * DstH, 0);
  for (size_t I = 0; I < Count; ++I)
    Expected[DstY * DstW + DstX + I] = In[SrcY * SrcW + SrcX + I];
  EXPECT_EQ(Expected, Out) << "both arrays read as their rows laid end to end";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(Src)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(Dst)) << "cleanup";
}

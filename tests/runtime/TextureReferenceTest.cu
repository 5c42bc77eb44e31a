//===- TextureReferenceTest.cu - texture<> bound through the runtime -----===//
//
// The texture reference API of the seeds (cudaBindTexture*, texture<>),
// which CUDA 12 removed from NVIDIA's runtime: built by cucc only, with
// -DCUDA_ENABLE_DEPRECATED. What a reference reads is checked against a
// texture object of the same settings, whose fetches agree with the H200
// (tests/textures).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <algorithm>
#include <vector>

using namespace curt;

using TextureReference = RuntimeTest;

texture<float, cudaTextureType2D, cudaReadModeElementType> Image;
texture<float, cudaTextureType1D, cudaReadModeElementType> Linear;
texture<unsigned char, cudaTextureType1D, cudaReadModeNormalizedFloat> Bytes;
texture<int, cudaTextureType2D, cudaReadModeElementType> Pitched;

/// The seeds' transform kernel (CUDA 4-era guide §3.2.10.1.3): reads Image
/// at rotated normalized coordinates, and the same through an object.
__global__ void transformBoth(cudaTextureObject_t Object, float *ByRef,
                              float *ByObject, int W, int H, float Theta) {
  unsigned X = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= unsigned(W) || Y >= unsigned(H))
    return;
  float U = X / float(W) - 0.5f, V = Y / float(H) - 0.5f;
  float TU = U * cosf(Theta) - V * sinf(Theta) + 0.5f;
  float TV = V * cosf(Theta) + U * sinf(Theta) + 0.5f;
  ByRef[Y * W + X] = tex2D(Image, TU, TV);
  ByObject[Y * W + X] = tex2D<float>(Object, TU, TV);
}

__global__ void fetchLinear(float *Out, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch(Linear, I);
}

__global__ void fetchBytes(float *Out, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch(Bytes, I);
}

__global__ void fetchPitched(int *Out, int W, int H) {
  int X = threadIdx.x, Y = threadIdx.y;
  if (X < W && Y < H)
    Out[Y * W + X] = tex2D(Pitched, X + 0.5f, Y + 0.5f);
}

TEST_F(TextureReference, SeedsTransformReadsAsATextureObject) {
#if CUCPU_ONLY
  const int W = 37, H = 23;
  std::vector<float> Host(W * H);
  for (int I = 0; I < W * H; ++I)
    Host[I] = float((I * 7919) % 1000) / 7.0f;
  cudaChannelFormatDesc Desc =
      cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t Array;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&Array, &Desc, W, H));
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy2DToArray(Array, 0, 0, Host.data(), W * 4, W * 4, H,
                                  cudaMemcpyHostToDevice));
  // The seeds' settings: wrap, linear filtering, normalized coordinates.
  Image.addressMode[0] = cudaAddressModeWrap;
  Image.addressMode[1] = cudaAddressModeWrap;
  Image.filterMode = cudaFilterModeLinear;
  Image.normalized = true;
  ASSERT_CUDA(cudaSuccess, cudaBindTextureToArray(Image, Array, Desc));

  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = Array;
  cudaTextureDesc Tex{};
  Tex.addressMode[0] = Tex.addressMode[1] = cudaAddressModeWrap;
  Tex.filterMode = cudaFilterModeLinear;
  Tex.readMode = cudaReadModeElementType;
  Tex.normalizedCoords = 1;
  cudaTextureObject_t Object;
  ASSERT_CUDA(cudaSuccess,
              cudaCreateTextureObject(&Object, &Res, &Tex, nullptr));

  float *ByRef, *ByObject;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&ByRef, W * H * 4));
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&ByObject, W * H * 4));
  transformBoth<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16)>>>(
      Object, ByRef, ByObject, W, H, 0.5f);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> A(W * H), B(W * H);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(A.data(), ByRef, W * H * 4, cudaMemcpyDeviceToHost));
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(B.data(), ByObject, W * H * 4,
                                      cudaMemcpyDeviceToHost));
  size_t Differ = 0, Filtered = 0;
  for (int I = 0; I < W * H; ++I) {
    Differ += A[I] != B[I];
    // Linear filtering blends texels: most results are no texel's value.
    Filtered += std::find(Host.begin(), Host.end(), A[I]) == Host.end();
  }
  EXPECT_EQ(Differ, 0u) << "the reference and the object read alike";
  EXPECT_GT(Filtered, size_t(W * H / 2)) << "the reference filters";
  EXPECT_CUDA(cudaSuccess, cudaUnbindTexture(Image));
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(Object));
  EXPECT_CUDA(cudaSuccess, cudaFree(ByRef));
  EXPECT_CUDA(cudaSuccess, cudaFree(ByObject));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(Array));
#else
  GTEST_SKIP() << "cucpu-only: CUDA 12 removed texture references";
#endif
}

TEST_F(TextureReference, LinearMemoryReportsItsMisalignment) {
#if CUCPU_ONLY
  const int N = 100;
  std::vector<float> Host(N + 8);
  for (int I = 0; I < N + 8; ++I)
    Host[I] = float(I) * 1.5f;
  float *Dev, *Out;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, (N + 8) * 4));
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, N * 4));
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(Dev, Host.data(), (N + 8) * 4,
                                      cudaMemcpyHostToDevice));
  // An allocation is aligned: binding it reports no offset.
  size_t Offset = 99;
  ASSERT_CUDA(cudaSuccess, cudaBindTexture(&Offset, Linear, Dev, N * 4));
  EXPECT_EQ(Offset, 0u);
  fetchLinear<<<1, 128>>>(Out, N);
  std::vector<float> Got(N);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(Got.data(), Out, N * 4, cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Got[I], Host[I]) << I;
  // Three floats in, the texture starts at the aligned address below: the
  // offset says how far, and without an offset pointer the bind fails.
  ASSERT_CUDA(cudaSuccess, cudaBindTexture(&Offset, Linear, Dev + 3, N * 4));
  EXPECT_EQ(Offset, 12u);
  size_t Queried = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetTextureAlignmentOffset(&Queried, &Linear));
  EXPECT_EQ(Queried, 12u);
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaBindTexture(nullptr, Linear, Dev + 3, N * 4));
  EXPECT_CUDA(cudaSuccess, cudaUnbindTexture(Linear));
  EXPECT_CUDA(cudaErrorInvalidTextureBinding,
              cudaGetTextureAlignmentOffset(&Queried, &Linear))
      << "unbound";
  EXPECT_CUDA(cudaErrorInvalidTextureBinding, cudaGetLastError())
      << "the last failure is the program's to clear";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
#else
  GTEST_SKIP() << "cucpu-only: CUDA 12 removed texture references";
#endif
}

TEST_F(TextureReference, NormalizedFloatReadModeAndPitchedMemory) {
#if CUCPU_ONLY
  const int N = 64;
  std::vector<unsigned char> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = static_cast<unsigned char>(I * 4);
  unsigned char *Dev;
  float *Out;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N));
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, N * 4));
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(Dev, Host.data(), N, cudaMemcpyHostToDevice));
  ASSERT_CUDA(cudaSuccess, cudaBindTexture(nullptr, Bytes, Dev, N));
  fetchBytes<<<1, N>>>(Out, N);
  std::vector<float> Got(N);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(Got.data(), Out, N * 4, cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Got[I], Host[I] / 255.0f) << I;

  const int W = 13, H = 5;
  int *Pitch2D, *IntOut;
  size_t Pitch;
  ASSERT_CUDA(cudaSuccess, cudaMallocPitch(&Pitch2D, &Pitch, W * 4, H));
  std::vector<int> Ints(W * H);
  for (int I = 0; I < W * H; ++I)
    Ints[I] = I * 3 - 50;
  ASSERT_CUDA(cudaSuccess, cudaMemcpy2D(Pitch2D, Pitch, Ints.data(), W * 4,
                                        W * 4, H, cudaMemcpyHostToDevice));
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&IntOut, W * H * 4));
  ASSERT_CUDA(cudaSuccess, cudaBindTexture2D(nullptr, Pitched, Pitch2D,
                                             Pitched.channelDesc, W, H, Pitch));
  fetchPitched<<<1, dim3(16, 8)>>>(IntOut, W, H);
  std::vector<int> GotInts(W * H);
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(GotInts.data(), IntOut, W * H * 4,
                                      cudaMemcpyDeviceToHost));
  EXPECT_EQ(GotInts, Ints);
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
  EXPECT_CUDA(cudaSuccess, cudaFree(Pitch2D));
  EXPECT_CUDA(cudaSuccess, cudaFree(IntOut));
#else
  GTEST_SKIP() << "cucpu-only: CUDA 12 removed texture references";
#endif
}

TEST_F(TextureReference, WhatIsNotATextureIsRefused) {
#if CUCPU_ONLY
  textureReference NotRegistered = Linear; // A copy no module knows.
  float *Dev;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, 64));
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  EXPECT_CUDA(cudaErrorInvalidTexture,
              cudaBindTexture(nullptr, &NotRegistered, Dev, &Desc, 64));
  EXPECT_CUDA(cudaErrorInvalidTexture,
              cudaBindTexture(nullptr, nullptr, Dev, &Desc, 64));
  EXPECT_CUDA(cudaErrorInvalidTexture, cudaUnbindTexture(&NotRegistered));
  const textureReference *Found = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGetTextureReference(&Found, &Linear));
  EXPECT_EQ(Found, &Linear);
  EXPECT_CUDA(cudaErrorInvalidTexture,
              cudaGetTextureReference(&Found, &NotRegistered));
  // Three channels of one width are no texel format.
  cudaChannelFormatDesc Three =
      cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  EXPECT_CUDA(cudaErrorInvalidChannelDescriptor,
              cudaBindTexture(nullptr, &Linear, Dev, &Three, 64));
  EXPECT_CUDA(cudaErrorInvalidChannelDescriptor, cudaGetLastError());
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
#else
  GTEST_SKIP() << "cucpu-only: CUDA 12 removed texture references";
#endif
}

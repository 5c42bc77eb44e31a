//===- TextureFormsTest.cu - Mipmapped, layered and cubemap textures ------===//
//
// The runtime API's mipmapped arrays (cudaMallocMipmappedArray and its
// levels), layered and cubemap arrays (cudaMalloc3DArray flags) and the
// fetches that read them (CUDA 11 guide B.8.1). Every texel holds a number
// that names where it is, so each fetch's answer is exact.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTest.h"

#include <vector>

using namespace curt;

using TextureForms = RuntimeTest;

/// Out[i] = tex2DLod(T, 0.5, 0.5, Level[i]).
__global__ void sampleLevels(cudaTextureObject_t T, const float *Level,
                             float *Out) {
  Out[threadIdx.x] = tex2DLod<float>(T, 0.5f, 0.5f, Level[threadIdx.x]);
}

/// Out[i] = texCubemap(T, direction i) for the six axis directions.
__global__ void sampleFaces(cudaTextureObject_t T, float *Out) {
  const float D[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                         {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  int I = threadIdx.x;
  Out[I] = texCubemap<float>(T, D[I][0], D[I][1], D[I][2]);
}

/// Out[i] = tex2DLayered(T, 0.5, 0.5, i).
__global__ void sampleLayers(cudaTextureObject_t T, float *Out) {
  Out[threadIdx.x] = tex2DLayered<float>(T, 0.5f, 0.5f, threadIdx.x);
}

/// Fills \p A (a W x H x Slices array of floats) with slice numbers.
static cudaError_t fillSlices(cudaArray_t A, size_t W, size_t H,
                              size_t Slices) {
  std::vector<float> Host(W * H * Slices);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = float(I / (W * H));
  cudaMemcpy3DParms P{};
  P.srcPtr = make_cudaPitchedPtr(Host.data(), W * sizeof(float), W, H);
  P.dstArray = A;
  P.extent = make_cudaExtent(W, H, Slices);
  P.kind = cudaMemcpyHostToDevice;
  return cudaMemcpy3D(&P);
}

static cudaTextureObject_t objectOver(cudaResourceDesc Res,
                                      cudaTextureFilterMode Mipmaps) {
  cudaTextureDesc Tex{};
  Tex.filterMode = cudaFilterModePoint;
  Tex.readMode = cudaReadModeElementType;
  Tex.normalizedCoords = 1;
  Tex.mipmapFilterMode = Mipmaps;
  Tex.maxMipmapLevelClamp = 100;
  cudaTextureObject_t T = 0;
  EXPECT_CUDA(cudaSuccess, cudaCreateTextureObject(&T, &Res, &Tex, nullptr));
  return T;
}

static std::vector<float> run(void (*Kernel)(cudaTextureObject_t, float *),
                              cudaTextureObject_t T, int N) {
  float *Out = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&Out, N * sizeof(float)));
  Kernel<<<1, N>>>(T, Out);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> Host(N);
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Host.data(), Out, N * sizeof(float),
                                      cudaMemcpyDeviceToHost));
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
  return Host;
}

TEST_F(TextureForms, MipmappedArrayLevelsAndLevelFetches) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t M = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaMallocMipmappedArray(&M, &Desc, make_cudaExtent(8, 8, 0), 4));
  for (unsigned L = 0; L < 4; ++L) {
    cudaArray_t A = nullptr;
    ASSERT_CUDA(cudaSuccess, cudaGetMipmappedArrayLevel(&A, M, L));
    cudaExtent E{};
    ASSERT_CUDA(cudaSuccess, cudaArrayGetInfo(nullptr, &E, nullptr, A));
    EXPECT_EQ(size_t(8 >> L), E.width) << "level " << L;
    std::vector<float> Host(E.width * E.height, float(L));
    ASSERT_CUDA(cudaSuccess, cudaMemcpy2DToArray(
                                 A, 0, 0, Host.data(), E.width * 4, E.width * 4,
                                 E.height, cudaMemcpyHostToDevice));
  }
  cudaArray_t Past = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetMipmappedArrayLevel(&Past, M, 4));
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetLastError()) << "and resets it";

  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeMipmappedArray;
  Res.res.mipmap.mipmap = M;
  cudaTextureObject_t T = objectOver(Res, cudaFilterModeLinear);
  cudaResourceDesc Back{};
  ASSERT_CUDA(cudaSuccess, cudaGetTextureObjectResourceDesc(&Back, T));
  EXPECT_EQ(cudaResourceTypeMipmappedArray, Back.resType);
  EXPECT_EQ(M, Back.res.mipmap.mipmap);

  // Every level holds its own number, so a fetch returns the level it read
  // (between two levels: their blend, in steps of 1/256).
  const std::vector<float> Levels = {0, 0.5f, 1, 2.25f, 3, 7, -1};
  const std::vector<float> Want = {0, 0.5f, 1, 2.25f, 3, 3, 0};
  float *In = nullptr, *Out = nullptr;
  int N = int(Levels.size());
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&In, N * sizeof(float)));
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, N * sizeof(float)));
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(In, Levels.data(), N * sizeof(float),
                                      cudaMemcpyHostToDevice));
  sampleLevels<<<1, N>>>(T, In, Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  std::vector<float> Got(N);
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(Got.data(), Out, N * sizeof(float),
                                      cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(Want[I], Got[I]) << "level " << Levels[I];
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T));
  EXPECT_CUDA(cudaSuccess, cudaFree(In));
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
  EXPECT_CUDA(cudaSuccess, cudaFreeMipmappedArray(M));
}

TEST_F(TextureForms, CubemapFacesByDirection) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(
      cudaSuccess,
      cudaMalloc3DArray(&A, &Desc, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
  ASSERT_CUDA(cudaSuccess, fillSlices(A, 4, 4, 6));
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = A;
  cudaTextureObject_t T = objectOver(Res, cudaFilterModePoint);
  std::vector<float> Got = run(sampleFaces, T, 6);
  for (int F = 0; F < 6; ++F)
    EXPECT_EQ(float(F), Got[F]) << "face " << F;
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A));
}

TEST_F(TextureForms, LayeredArrayByLayer) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(
      cudaSuccess,
      cudaMalloc3DArray(&A, &Desc, make_cudaExtent(4, 2, 5), cudaArrayLayered));
  ASSERT_CUDA(cudaSuccess, fillSlices(A, 4, 2, 5));
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = A;
  cudaTextureObject_t T = objectOver(Res, cudaFilterModePoint);
  std::vector<float> Got = run(sampleLayers, T, 5);
  for (int L = 0; L < 5; ++L)
    EXPECT_EQ(float(L), Got[L]) << "layer " << L;
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T));
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A));
}

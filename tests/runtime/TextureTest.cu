//===- TextureTest.cu - Texture objects ----------------------------------===//

#include "RuntimeTest.h"

#include <cmath>
#include <vector>

using namespace curt;

using Texture = RuntimeTest;

__global__ void textureFetch1D(cudaTextureObject_t T, float *Out, int N) {
  int I = threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch<float>(T, I);
}

/// Out[i] = tex2D(T, X[i], Y[i]).
__global__ void textureSample2D(cudaTextureObject_t T, const float *X,
                                const float *Y, float *Out) {
  int I = threadIdx.x;
  Out[I] = tex2D<float>(T, X[I], Y[I]);
}

/// Samples a uchar texture in normalized-float read mode.
__global__ void textureSampleNormalized(cudaTextureObject_t T, float *Out) {
  Out[threadIdx.x] = tex2D<float>(T, threadIdx.x + 0.5f, 0.5f);
}

/// A W x H float array holding Value(x, y) = 10 * y + x, and its object.
struct ArrayTexture {
  cudaArray_t Array = nullptr;
  cudaTextureObject_t Object = 0;
};

static cudaError_t makeArrayTexture(ArrayTexture &T, int W, int H,
                                    cudaTextureFilterMode Filter,
                                    bool Normalized,
                                    cudaTextureAddressMode Address) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float>();
  cudaError_t E = cudaMallocArray(&T.Array, &Desc, W, H);
  if (E != cudaSuccess)
    return E;
  std::vector<float> Host(W * H);
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      Host[Y * W + X] = 10.0f * Y + X;
  E = cudaMemcpy2DToArray(T.Array, 0, 0, Host.data(), W * sizeof(float),
                          W * sizeof(float), H, cudaMemcpyHostToDevice);
  if (E != cudaSuccess)
    return E;
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = T.Array;
  cudaTextureDesc Tex{};
  Tex.addressMode[0] = Tex.addressMode[1] = Address;
  Tex.filterMode = Filter;
  Tex.readMode = cudaReadModeElementType;
  Tex.normalizedCoords = Normalized;
  return cudaCreateTextureObject(&T.Object, &Res, &Tex, nullptr);
}

static void destroyArrayTexture(ArrayTexture &T) {
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T.Object)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(T.Array)) << "cleanup";
}

/// Samples \p T at the given coordinates on the device.
static std::vector<float> sample(cudaTextureObject_t T,
                                 const std::vector<float> &X,
                                 const std::vector<float> &Y) {
  const size_t N = X.size();
  float *DX = nullptr, *DY = nullptr, *DOut = nullptr;
  std::vector<float> Out(N, -1.0f);
  if (cudaMallocManaged(&DX, N * sizeof(float)) != cudaSuccess ||
      cudaMallocManaged(&DY, N * sizeof(float)) != cudaSuccess ||
      cudaMallocManaged(&DOut, N * sizeof(float)) != cudaSuccess)
    return Out;
  for (size_t I = 0; I < N; ++I) {
    DX[I] = X[I];
    DY[I] = Y[I];
  }
  textureSample2D<<<1, static_cast<unsigned>(N)>>>(T, DX, DY, DOut);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the sampling kernel";
  Out.assign(DOut, DOut + N);
  cudaFree(DX);
  cudaFree(DY);
  cudaFree(DOut);
  return Out;
}

TEST_F(Texture, LinearMemoryWithTex1Dfetch) {
  const int N = 100;
  float *D = nullptr, *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&D, N * sizeof(float))) << "texels";
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, N * sizeof(float)))
      << "output";
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = I * 1.25f;
  ASSERT_CUDA(cudaSuccess, cudaMemcpy(D, Host.data(), N * sizeof(float),
                                      cudaMemcpyHostToDevice))
      << "upload";
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeLinear;
  Res.res.linear.devPtr = D;
  Res.res.linear.desc = cudaCreateChannelDesc<float>();
  Res.res.linear.sizeInBytes = N * sizeof(float);
  cudaTextureDesc Tex{};
  Tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t T = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateTextureObject(&T, &Res, &Tex, nullptr))
      << "a texture over linear memory";
  EXPECT_NE(0u, T) << "a real object";
  textureFetch1D<<<1, 128>>>(T, Out, N);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "fetch";
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Host[I], Out[I]) << "texel " << I;
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Texture, ArrayPointFiltering) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, false,
                                            cudaAddressModeClamp))
      << "an 8x4 array texture";
  std::vector<float> Out =
      sample(T.Object, {0.5f, 3.5f, 7.9f, 2.2f}, {0.5f, 2.5f, 3.1f, 1.99f});
  EXPECT_EQ(0.0f, Out[0]) << "texel (0, 0)";
  EXPECT_EQ(23.0f, Out[1]) << "texel (3, 2)";
  EXPECT_EQ(37.0f, Out[2]) << "texel (7, 3): point sampling takes floor";
  EXPECT_EQ(12.0f, Out[3]) << "texel (2, 1)";
  destroyArrayTexture(T);
}

TEST_F(Texture, ArrayClampAddressing) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, false,
                                            cudaAddressModeClamp))
      << "an 8x4 array texture";
  std::vector<float> Out = sample(T.Object, {-5.0f, 100.0f}, {0.5f, 100.0f});
  EXPECT_EQ(0.0f, Out[0]) << "left of the array clamps to column 0";
  EXPECT_EQ(37.0f, Out[1]) << "beyond the corner clamps to (7, 3)";
  destroyArrayTexture(T);
}

TEST_F(Texture, ArrayBorderAddressing) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, false,
                                            cudaAddressModeBorder))
      << "an 8x4 array texture";
  std::vector<float> Out = sample(T.Object, {-5.0f, 1.5f}, {0.5f, 1.5f});
  EXPECT_EQ(0.0f, Out[0]) << "outside the array reads the border, zero";
  EXPECT_EQ(11.0f, Out[1]) << "inside reads the texel";
  destroyArrayTexture(T);
}

TEST_F(Texture, ArrayLinearFiltering) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModeLinear,
                                            false, cudaAddressModeClamp))
      << "an 8x4 array texture, linear filtering";
  std::vector<float> Out =
      sample(T.Object, {1.0f, 2.5f, 2.0f}, {0.5f, 1.0f, 2.0f});
  EXPECT_FLOAT_EQ(0.5f, Out[0])
      << "halfway between texel centres 0.5 and 1.5 of row 0";
  EXPECT_FLOAT_EQ(7.0f, Out[1]) << "halfway between rows 0 and 1 at x 2";
  EXPECT_FLOAT_EQ(16.5f, Out[2]) << "the centre of texels (1..2, 1..2)";
  std::vector<float> Quarter = sample(T.Object, {1.25f}, {0.5f});
  EXPECT_NEAR(0.75f, Quarter[0], 1.0f / 256)
      << "a quarter of the way: weights have 8 fractional bits";
  destroyArrayTexture(T);
}

TEST_F(Texture, ArrayNormalizedCoordinates) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, true,
                                            cudaAddressModeClamp))
      << "an 8x4 array texture, normalized coordinates";
  std::vector<float> Out = sample(T.Object, {(3 + 0.5f) / 8, (7 + 0.5f) / 8},
                                  {(2 + 0.5f) / 4, (0 + 0.5f) / 4});
  EXPECT_EQ(23.0f, Out[0]) << "texel (3, 2) at (3.5/8, 2.5/4)";
  EXPECT_EQ(7.0f, Out[1]) << "texel (7, 0)";
  destroyArrayTexture(T);
}

TEST_F(Texture, ArrayWrapAddressing) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, true,
                                            cudaAddressModeWrap))
      << "wrap needs normalized coordinates";
  std::vector<float> Out = sample(T.Object, {1.0f + 2.5f / 8, -1.0f + 5.5f / 8},
                                  {0.5f / 4, 1.5f / 4});
  EXPECT_EQ(2.0f, Out[0]) << "u 1 + 2.5/8 wraps to column 2";
  EXPECT_EQ(15.0f, Out[1]) << "u -1 + 5.5/8 wraps to column 5, row 1";
  destroyArrayTexture(T);
}

TEST_F(Texture, NormalizedFloatReadMode) {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t A = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocArray(&A, &Desc, 4, 1)) << "4 uchars";
  unsigned char Host[4] = {0, 51, 255, 128};
  ASSERT_CUDA(cudaSuccess, cudaMemcpy2DToArray(A, 0, 0, Host, 4, 4, 1,
                                               cudaMemcpyHostToDevice))
      << "upload";
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = A;
  cudaTextureDesc Tex{};
  Tex.addressMode[0] = Tex.addressMode[1] = cudaAddressModeClamp;
  Tex.filterMode = cudaFilterModePoint;
  Tex.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t T = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateTextureObject(&T, &Res, &Tex, nullptr))
      << "a normalized-float texture";
  float *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, 4 * sizeof(float)))
      << "output";
  textureSampleNormalized<<<1, 4>>>(T, Out);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "sample";
  EXPECT_EQ(0.0f, Out[0]) << "0 reads as 0";
  EXPECT_FLOAT_EQ(0.2f, Out[1]) << "51 reads as 51/255";
  EXPECT_EQ(1.0f, Out[2]) << "255 reads as 1";
  EXPECT_FLOAT_EQ(128.0f / 255, Out[3]) << "128/255";
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeArray(A)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out)) << "cleanup";
}

TEST_F(Texture, Pitch2DResource) {
  const int W = 16, H = 4;
  float *D = nullptr;
  size_t Pitch = 0;
  ASSERT_CUDA(cudaSuccess, cudaMallocPitch(&D, &Pitch, W * sizeof(float), H))
      << "pitched memory";
  std::vector<float> Host(W * H);
  for (int I = 0; I < W * H; ++I)
    Host[I] = float(I);
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy2D(D, Pitch, Host.data(), W * sizeof(float),
                           W * sizeof(float), H, cudaMemcpyHostToDevice))
      << "upload";
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypePitch2D;
  Res.res.pitch2D.devPtr = D;
  Res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  Res.res.pitch2D.width = W;
  Res.res.pitch2D.height = H;
  Res.res.pitch2D.pitchInBytes = Pitch;
  cudaTextureDesc Tex{};
  Tex.filterMode = cudaFilterModePoint;
  Tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t T = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateTextureObject(&T, &Res, &Tex, nullptr))
      << "a texture over pitched memory";
  std::vector<float> Out = sample(T, {5.5f, 15.5f}, {2.5f, 3.5f});
  EXPECT_EQ(37.0f, Out[0]) << "row 2, column 5";
  EXPECT_EQ(63.0f, Out[1]) << "the last texel";
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(T)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(D)) << "cleanup";
}

TEST_F(Texture, ResourceDescRoundTrip) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, false,
                                            cudaAddressModeClamp))
      << "an array texture";
  cudaResourceDesc Res{};
  EXPECT_CUDA(cudaSuccess, cudaGetTextureObjectResourceDesc(&Res, T.Object))
      << "its resource";
  EXPECT_EQ(cudaResourceTypeArray, Res.resType) << "an array";
  EXPECT_EQ(T.Array, Res.res.array.array) << "the same array";
  destroyArrayTexture(T);
}

TEST_F(Texture, ResourceViewDescRoundTrip) {
  ArrayTexture T;
  ASSERT_CUDA(cudaSuccess, makeArrayTexture(T, 8, 4, cudaFilterModePoint, false,
                                            cudaAddressModeClamp))
      << "an array texture without a view";
  cudaResourceViewDesc View{};
  EXPECT_CUDA(cudaSuccess,
              cudaGetTextureObjectResourceViewDesc(&View, T.Object))
      << "no view was given (observed on NVIDIA: success, the contents "
         "undefined)";
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = T.Array;
  cudaTextureDesc Tex{};
  Tex.readMode = cudaReadModeElementType;
  cudaResourceViewDesc Given{};
  Given.format = cudaResViewFormatFloat1;
  Given.width = 8;
  Given.height = 4;
  cudaTextureObject_t Viewed = 0;
  ASSERT_CUDA(cudaSuccess, cudaCreateTextureObject(&Viewed, &Res, &Tex, &Given))
      << "the same array through a view";
  EXPECT_CUDA(cudaSuccess, cudaGetTextureObjectResourceViewDesc(&View, Viewed));
  EXPECT_EQ(cudaResViewFormatFloat1, View.format);
  EXPECT_EQ(8u, View.width);
  EXPECT_EQ(4u, View.height);
  EXPECT_EQ(0u, View.depth);
  EXPECT_EQ(0u, View.firstMipmapLevel);
  EXPECT_EQ(0u, View.lastMipmapLevel);
  EXPECT_CUDA(cudaSuccess,
              cudaGetTextureObjectResourceViewDesc(nullptr, Viewed))
      << "no place for the view: observed on NVIDIA, nothing is written";
  EXPECT_CUDA(cudaSuccess, cudaDestroyTextureObject(Viewed));
  destroyArrayTexture(T);
}

TEST_F(Texture, CreateArgumentsChecked) {
  cudaTextureDesc Tex{};
  cudaResourceDesc Res{};
  cudaTextureObject_t T = 0;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaCreateTextureObject(&T, nullptr, &Tex, nullptr))
      << "the resource is required";
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaCreateTextureObject(nullptr, &Res, &Tex, nullptr))
      << "the output pointer is required (observed on NVIDIA: answered as "
         "an invalid handle)";
  Res.resType = cudaResourceTypeLinear;
  Res.res.linear.devPtr = nullptr;
  Res.res.linear.desc = cudaCreateChannelDesc<float>();
  Res.res.linear.sizeInBytes = 64;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaCreateTextureObject(&T, &Res, &Tex, nullptr))
      << "linear memory at the null pointer";
  (void)cudaGetLastError();
}

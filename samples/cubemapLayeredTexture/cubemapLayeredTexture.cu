// Layered, cubemap and mipmapped textures (CUDA C++ Programming Guide,
// §3.2.14.1.5-8 and B.8.1): a kernel reads every texel of a cubemap through
// texCubemap, with the direction that points at the texel's centre, every
// texel of a layered texture through tex2DLayered, and every level of a
// mipmapped texture through tex2DLod; each result must equal the texel
// written. Built by cucc as a whole program.
#include <cstdio>
#include <vector>

#define CHECK(Call)                                                            \
  do {                                                                         \
    cudaError_t E = (Call);                                                    \
    if (E != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #Call, cudaGetErrorString(E));            \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/// The direction from the cube's centre through the centre of texel (x, y)
/// of face Face of a Width-wide cubemap (the guide's cubemap table, read
/// backwards).
__device__ float3 faceDirection(int Face, int X, int Y, int Width) {
  float S = 2.0f * (X + 0.5f) / Width - 1.0f;
  float T = 2.0f * (Y + 0.5f) / Width - 1.0f;
  switch (Face) {
  case 0:
    return make_float3(1, -T, -S);
  case 1:
    return make_float3(-1, -T, S);
  case 2:
    return make_float3(S, 1, T);
  case 3:
    return make_float3(S, -1, -T);
  case 4:
    return make_float3(S, -T, 1);
  default:
    return make_float3(-S, -T, -1);
  }
}

__global__ void readCubemap(cudaTextureObject_t Cube, float *Out, int Width) {
  int X = threadIdx.x, Y = threadIdx.y, Face = blockIdx.x;
  float3 D = faceDirection(Face, X, Y, Width);
  Out[(Face * Width + Y) * Width + X] = texCubemap<float>(Cube, D.x, D.y, D.z);
}

__global__ void readLayers(cudaTextureObject_t Layers, float *Out, int Width,
                           int Height) {
  int X = threadIdx.x, Y = threadIdx.y, Layer = blockIdx.x;
  Out[(Layer * Height + Y) * Width + X] =
      tex2DLayered<float>(Layers, X + 0.5f, Y + 0.5f, Layer);
}

__global__ void readLevels(cudaTextureObject_t Mipmaps, float *Out, int Width) {
  int X = threadIdx.x, Y = threadIdx.y, Level = blockIdx.x;
  int LevelWidth = Width >> Level;
  if (X >= LevelWidth || Y >= LevelWidth)
    return;
  float U = (X + 0.5f) / LevelWidth, V = (Y + 0.5f) / LevelWidth;
  Out[(Level * Width + Y) * Width + X] =
      tex2DLod<float>(Mipmaps, U, V, float(Level));
}

/// A texture object reading \p Res with point sampling.
static cudaTextureObject_t makeObject(const cudaResourceDesc &Res,
                                      bool Normalized) {
  cudaTextureDesc Tex{};
  Tex.addressMode[0] = Tex.addressMode[1] = Tex.addressMode[2] =
      cudaAddressModeClamp;
  Tex.filterMode = cudaFilterModePoint;
  Tex.readMode = cudaReadModeElementType;
  Tex.normalizedCoords = Normalized;
  Tex.mipmapFilterMode = cudaFilterModePoint;
  Tex.maxMipmapLevelClamp = 16;
  cudaTextureObject_t Object = 0;
  if (cudaCreateTextureObject(&Object, &Res, &Tex, nullptr) != cudaSuccess)
    return 0;
  return Object;
}

/// Copies \p Host (Width x Height x Slices floats) into array \p A.
static cudaError_t upload(cudaArray_t A, const std::vector<float> &Host,
                          int Width, int Height, int Slices) {
  cudaMemcpy3DParms P{};
  P.srcPtr = make_cudaPitchedPtr(const_cast<float *>(Host.data()),
                                 Width * sizeof(float), Width, Height);
  P.dstArray = A;
  P.extent = make_cudaExtent(Width, Height, Slices);
  P.kind = cudaMemcpyHostToDevice;
  return cudaMemcpy3D(&P);
}

/// Counts where \p Got differs from \p Want and prints the first few.
static int compare(const char *What, const std::vector<float> &Got,
                   const std::vector<float> &Want) {
  int Wrong = 0;
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I] && Wrong++ < 4)
      std::printf("%s: element %zu is %g, expected %g\n", What, I, Got[I],
                  Want[I]);
  std::printf("%s: %zu texels, %d wrong\n", What, Want.size(), Wrong);
  return Wrong;
}

int main() {
  const int Width = 16, Height = 8, Layers = 5;
  cudaChannelFormatDesc Float = cudaCreateChannelDesc<float>();
  int Wrong = 0;

  // A cubemap whose texels name their face, row and column.
  std::vector<float> Faces(6 * Width * Width);
  for (size_t I = 0; I < Faces.size(); ++I)
    Faces[I] = float(I) * 0.25f + 1.0f;
  cudaArray_t Cube = nullptr;
  CHECK(cudaMalloc3DArray(&Cube, &Float, make_cudaExtent(Width, Width, 6),
                          cudaArrayCubemap));
  CHECK(upload(Cube, Faces, Width, Width, 6));
  cudaResourceDesc Res{};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = Cube;
  cudaTextureObject_t CubeObject = makeObject(Res, true);
  float *Out = nullptr;
  CHECK(cudaMalloc(&Out, Faces.size() * sizeof(float)));
  readCubemap<<<6, dim3(Width, Width)>>>(CubeObject, Out, Width);
  CHECK(cudaGetLastError());
  std::vector<float> Got(Faces.size());
  CHECK(cudaMemcpy(Got.data(), Out, Got.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  Wrong += compare("cubemap", Got, Faces);
  CHECK(cudaFree(Out));

  // A layered texture.
  std::vector<float> Slices(Layers * Width * Height);
  for (size_t I = 0; I < Slices.size(); ++I)
    Slices[I] = float(I % 97) - 40.5f;
  cudaArray_t Layered = nullptr;
  CHECK(cudaMalloc3DArray(&Layered, &Float,
                          make_cudaExtent(Width, Height, Layers),
                          cudaArrayLayered));
  CHECK(upload(Layered, Slices, Width, Height, Layers));
  Res.res.array.array = Layered;
  cudaTextureObject_t LayeredObject = makeObject(Res, false);
  CHECK(cudaMalloc(&Out, Slices.size() * sizeof(float)));
  readLayers<<<Layers, dim3(Width, Height)>>>(LayeredObject, Out, Width,
                                              Height);
  CHECK(cudaGetLastError());
  Got.resize(Slices.size());
  CHECK(cudaMemcpy(Got.data(), Out, Got.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  Wrong += compare("layered", Got, Slices);
  CHECK(cudaFree(Out));

  // A mipmapped texture: each level the 2x2 average of the one below.
  const int Levels = 5;
  cudaMipmappedArray_t Mipmaps = nullptr;
  CHECK(cudaMallocMipmappedArray(&Mipmaps, &Float,
                                 make_cudaExtent(Width, Width, 0), Levels));
  std::vector<float> Want(Levels * Width * Width, 0.0f);
  std::vector<float> Level(Width * Width);
  for (int I = 0; I < Width * Width; ++I)
    Level[I] = float((I * 37) % 64);
  for (int L = 0, W = Width; L < Levels; ++L, W /= 2) {
    cudaArray_t A = nullptr;
    CHECK(cudaGetMipmappedArrayLevel(&A, Mipmaps, L));
    CHECK(cudaMemcpy2DToArray(A, 0, 0, Level.data(), W * sizeof(float),
                              W * sizeof(float), W, cudaMemcpyHostToDevice));
    for (int Y = 0; Y < W; ++Y)
      for (int X = 0; X < W; ++X)
        Want[(L * Width + Y) * Width + X] = Level[Y * W + X];
    std::vector<float> Next((W / 2) * (W / 2));
    for (int Y = 0; Y < W / 2; ++Y)
      for (int X = 0; X < W / 2; ++X)
        Next[Y * (W / 2) + X] =
            (Level[2 * Y * W + 2 * X] + Level[2 * Y * W + 2 * X + 1] +
             Level[(2 * Y + 1) * W + 2 * X] +
             Level[(2 * Y + 1) * W + 2 * X + 1]) /
            4;
    Level = Next;
  }
  Res.resType = cudaResourceTypeMipmappedArray;
  Res.res.mipmap.mipmap = Mipmaps;
  cudaTextureObject_t MipmapObject = makeObject(Res, true);
  CHECK(cudaMalloc(&Out, Want.size() * sizeof(float)));
  CHECK(cudaMemset(Out, 0, Want.size() * sizeof(float)));
  readLevels<<<Levels, dim3(Width, Width)>>>(MipmapObject, Out, Width);
  CHECK(cudaGetLastError());
  Got.resize(Want.size());
  CHECK(cudaMemcpy(Got.data(), Out, Got.size() * sizeof(float),
                   cudaMemcpyDeviceToHost));
  Wrong += compare("mipmapped", Got, Want);
  CHECK(cudaFree(Out));

  CHECK(cudaDestroyTextureObject(CubeObject));
  CHECK(cudaDestroyTextureObject(LayeredObject));
  CHECK(cudaDestroyTextureObject(MipmapObject));
  CHECK(cudaFreeArray(Cube));
  CHECK(cudaFreeArray(Layered));
  CHECK(cudaFreeMipmappedArray(Mipmaps));
  std::printf("%s\n", Wrong ? "FAILED" : "PASSED");
  return Wrong ? 1 : 0;
}

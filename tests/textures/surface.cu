// The surface kernels of surface_conformance, compiled by nvcc for NVIDIA's
// driver and by cucc for cucpu. r_<geometry>_<bytes>_<mode>: thread I reads
// Bytes bytes through surface object S at coordinates C[I] and stores them at
// Out + 16 I. w_<geometry>_<bytes>_<mode>: thread I writes the Bytes bytes at
// V + 16 I through surface object S[I] at C[I]. C[I] is (x in bytes, y,
// z / layer / face / layer-face).
template <int Bytes> struct Word;
template <> struct Word<1> {
  typedef unsigned char type;
};
template <> struct Word<2> {
  typedef unsigned short type;
};
template <> struct Word<4> {
  typedef unsigned int type;
};
template <> struct Word<8> {
  typedef uint2 type;
};
template <> struct Word<16> {
  typedef uint4 type;
};

enum Geometry { G1D, G2D, G3D, GL1D, GL2D, GCube, GLCube };

template <int G, class T, cudaSurfaceBoundaryMode M>
__device__ T readAt(cudaSurfaceObject_t S, int4 C) {
  if constexpr (G == G1D)
    return surf1Dread<T>(S, C.x, M);
  else if constexpr (G == G2D)
    return surf2Dread<T>(S, C.x, C.y, M);
  else if constexpr (G == G3D)
    return surf3Dread<T>(S, C.x, C.y, C.z, M);
  else if constexpr (G == GL1D)
    return surf1DLayeredread<T>(S, C.x, C.z, M);
  else if constexpr (G == GL2D)
    return surf2DLayeredread<T>(S, C.x, C.y, C.z, M);
  else if constexpr (G == GCube)
    return surfCubemapread<T>(S, C.x, C.y, C.z, M);
  else
    return surfCubemapLayeredread<T>(S, C.x, C.y, C.z, M);
}

template <int G, class T, cudaSurfaceBoundaryMode M>
__device__ void writeAt(T V, cudaSurfaceObject_t S, int4 C) {
  if constexpr (G == G1D)
    surf1Dwrite(V, S, C.x, M);
  else if constexpr (G == G2D)
    surf2Dwrite(V, S, C.x, C.y, M);
  else if constexpr (G == G3D)
    surf3Dwrite(V, S, C.x, C.y, C.z, M);
  else if constexpr (G == GL1D)
    surf1DLayeredwrite(V, S, C.x, C.z, M);
  else if constexpr (G == GL2D)
    surf2DLayeredwrite(V, S, C.x, C.y, C.z, M);
  else if constexpr (G == GCube)
    surfCubemapwrite(V, S, C.x, C.y, C.z, M);
  else
    surfCubemapLayeredwrite(V, S, C.x, C.y, C.z, M);
}

template <int G, int Bytes, cudaSurfaceBoundaryMode M>
__device__ void readKernel(unsigned char *Out, const int4 *C, unsigned N,
                           cudaSurfaceObject_t S) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  typedef typename Word<Bytes>::type T;
  T V = readAt<G, T, M>(S, C[I]);
  memcpy(Out + 16 * I, &V, Bytes);
}

template <int G, int Bytes, cudaSurfaceBoundaryMode M>
__device__ void writeKernel(const int4 *C, const unsigned char *Values,
                            unsigned N, const cudaSurfaceObject_t *S) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  typedef typename Word<Bytes>::type T;
  T V;
  memcpy(&V, Values + 16 * I, Bytes);
  writeAt<G, T, M>(V, S[I], C[I]);
}

#define SURFACE_KERNELS(Name, G, Bytes, ModeName, Mode)                        \
  extern "C" __global__ void r_##Name##_##Bytes##_##ModeName(                  \
      unsigned char *Out, const int4 *C, unsigned N, cudaSurfaceObject_t S) {  \
    readKernel<G, Bytes, Mode>(Out, C, N, S);                                  \
  }                                                                            \
  extern "C" __global__ void w_##Name##_##Bytes##_##ModeName(                  \
      const int4 *C, const unsigned char *V, unsigned N,                       \
      const cudaSurfaceObject_t *S) {                                          \
    writeKernel<G, Bytes, Mode>(C, V, N, S);                                   \
  }
#define SURFACE_MODES(Name, G, Bytes)                                          \
  SURFACE_KERNELS(Name, G, Bytes, zero, cudaBoundaryModeZero)                  \
  SURFACE_KERNELS(Name, G, Bytes, clamp, cudaBoundaryModeClamp)                \
  SURFACE_KERNELS(Name, G, Bytes, trap, cudaBoundaryModeTrap)
#define SURFACE_SIZES(Name, G)                                                 \
  SURFACE_MODES(Name, G, 1)                                                    \
  SURFACE_MODES(Name, G, 2)                                                    \
  SURFACE_MODES(Name, G, 4)                                                    \
  SURFACE_MODES(Name, G, 8)                                                    \
  SURFACE_MODES(Name, G, 16)
SURFACE_SIZES(1d, G1D)
SURFACE_SIZES(2d, G2D)
SURFACE_SIZES(3d, G3D)
SURFACE_SIZES(l1d, GL1D)
SURFACE_SIZES(l2d, GL2D)
SURFACE_SIZES(cube, GCube)
SURFACE_SIZES(lcube, GLCube)

// The element types of one access size read the same bytes: 4 bytes as
// uchar4 (v4.b8), ushort2 (v2.b16) and float; 8 as ulonglong1 and int2;
// 16 as ulonglong2 (v2.b64) and float4. Thread I reads at C[I] into
// Out + 16 I and writes V + 16 I to S2 at C[I], all in zero mode.
template <class T>
__device__ void typedKernel(unsigned char *Out, const int4 *C,
                            const unsigned char *V, unsigned N,
                            cudaSurfaceObject_t S, cudaSurfaceObject_t S2) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  T R = surf2Dread<T>(S, C[I].x, C[I].y, cudaBoundaryModeZero);
  memcpy(Out + 16 * I, &R, sizeof(T));
  T W;
  memcpy(&W, V + 16 * I, sizeof(T));
  surf2Dwrite(W, S2, C[I].x, C[I].y, cudaBoundaryModeZero);
}
#define TYPED_KERNEL(T)                                                        \
  extern "C" __global__ void t_##T(                                            \
      unsigned char *Out, const int4 *C, const unsigned char *V, unsigned N,   \
      cudaSurfaceObject_t S, cudaSurfaceObject_t S2) {                         \
    typedKernel<T>(Out, C, V, N, S, S2);                                       \
  }
TYPED_KERNEL(char2)
TYPED_KERNEL(uchar4)
TYPED_KERNEL(short2)
TYPED_KERNEL(ushort4)
TYPED_KERNEL(float)
TYPED_KERNEL(int2)
TYPED_KERNEL(float2)
TYPED_KERNEL(ulonglong1)
TYPED_KERNEL(longlong2)
TYPED_KERNEL(float4)

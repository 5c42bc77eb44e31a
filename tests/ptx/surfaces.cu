// The surface kernels of tests/ptx/SurfacesTest.cpp, compiled by cucc for the
// reference results and by nvcc for the PTX the test loads:
//   nvcc -ptx -arch=sm_75 -o surfaces.sm_75.ptx surfaces.cu
// r_<geometry>_<type>_<mode>: thread I reads a T through surface object S at
// C[I] = (x in bytes, y, z or layer) and stores it at Out[I] (a uint4).
// w_...: thread I writes the T at V[I] at C[I].
enum Geometry { G1D, G2D, G3D, GL1D, GL2D, GCube };

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
  else
    return surfCubemapread<T>(S, C.x, C.y, C.z, M);
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
  else
    surfCubemapwrite(V, S, C.x, C.y, C.z, M);
}

#define KERNELS(Name, G, T, ModeName, Mode)                                    \
  extern "C" __global__ void r_##Name##_##T##_##ModeName(                      \
      uint4 *Out, const int4 *C, unsigned N, cudaSurfaceObject_t S) {          \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I < N)                                                                 \
      *reinterpret_cast<T *>(Out + I) = readAt<G, T, Mode>(S, C[I]);           \
  }                                                                            \
  extern "C" __global__ void w_##Name##_##T##_##ModeName(                      \
      const int4 *C, const uint4 *V, unsigned N, cudaSurfaceObject_t S) {      \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I < N)                                                                 \
      writeAt<G, T, Mode>(*reinterpret_cast<const T *>(V + I), S, C[I]);       \
  }
#define MODES(Name, G, T)                                                      \
  KERNELS(Name, G, T, zero, cudaBoundaryModeZero)                              \
  KERNELS(Name, G, T, clamp, cudaBoundaryModeClamp)
// Every access size and vector shape in 2D; 1, 4 and 16 bytes in the others.
#define TYPES(Name, G)                                                         \
  MODES(Name, G, uchar1)                                                       \
  MODES(Name, G, uint1)                                                        \
  MODES(Name, G, uint4)
TYPES(1d, G1D)
TYPES(2d, G2D)
MODES(2d, G2D, ushort1)
MODES(2d, G2D, uint2)
MODES(2d, G2D, uchar4)
MODES(2d, G2D, ushort2)
MODES(2d, G2D, ulonglong1)
MODES(2d, G2D, ulonglong2)
TYPES(3d, G3D)
TYPES(l1d, GL1D)
TYPES(l2d, GL2D)
TYPES(cube, GCube)
// Trap mode (a launch that fails outside the surface).
KERNELS(2d, G2D, uint1, trap, cudaBoundaryModeTrap)

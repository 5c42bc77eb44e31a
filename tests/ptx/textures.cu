// The fetch kernels of tests/ptx/TexturesTest.cpp, compiled by cucc for the
// reference results and by nvcc for the PTX the test loads:
//   nvcc -ptx -arch=sm_75 -o textures.sm_75.ptx textures.cu
// Thread I fetches with the three float4 at C[3I]: (x, y, z, level), (dPdx.x,
// dPdx.y, dPdx.z, layer or index bits), (dPdy.x, dPdy.y, dPdy.z, unused), and
// stores the four result words at Out[I]. Kernels ending in f read floats,
// those ending in i integers.
#define A C[3 * I]
#define X C[3 * I + 1]
#define Y C[3 * I + 2]
#define LAYER __float_as_int(X.w)

#define FORM(Name, Fetch)                                                      \
  extern "C" __global__ void Name##f(float4 *Out, const float4 *C, unsigned N, \
                                     cudaTextureObject_t T) {                  \
    typedef float4 R;                                                          \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I < N)                                                                 \
      Out[I] = Fetch;                                                          \
  }                                                                            \
  extern "C" __global__ void Name##i(int4 *Out, const float4 *C, unsigned N,   \
                                     cudaTextureObject_t T) {                  \
    typedef int4 R;                                                            \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I < N)                                                                 \
      Out[I] = Fetch;                                                          \
  }

FORM(fetch, tex1Dfetch<R>(T, LAYER))
FORM(plain1, tex1D<R>(T, A.x))
FORM(plain2, tex2D<R>(T, A.x, A.y))
FORM(plain3, tex3D<R>(T, A.x, A.y, A.z))
FORM(layered1, tex1DLayered<R>(T, A.x, LAYER))
FORM(layered2, tex2DLayered<R>(T, A.x, A.y, LAYER))
FORM(cubemap, texCubemap<R>(T, A.x, A.y, A.z))
FORM(cubemaplayered, texCubemapLayered<R>(T, A.x, A.y, A.z, LAYER))
FORM(gather0, tex2Dgather<R>(T, A.x, A.y, 0))
FORM(gather1, tex2Dgather<R>(T, A.x, A.y, 1))
FORM(gather2, tex2Dgather<R>(T, A.x, A.y, 2))
FORM(gather3, tex2Dgather<R>(T, A.x, A.y, 3))
FORM(lod1, tex1DLod<R>(T, A.x, A.w))
FORM(lod2, tex2DLod<R>(T, A.x, A.y, A.w))
FORM(lod3, tex3DLod<R>(T, A.x, A.y, A.z, A.w))
FORM(lodlayered1, tex1DLayeredLod<R>(T, A.x, LAYER, A.w))
FORM(lodlayered2, tex2DLayeredLod<R>(T, A.x, A.y, LAYER, A.w))
FORM(lodcubemap, texCubemapLod<R>(T, A.x, A.y, A.z, A.w))
FORM(grad1, tex1DGrad<R>(T, A.x, X.x, Y.x))
FORM(grad2,
     tex2DGrad<R>(T, A.x, A.y, make_float2(X.x, X.y), make_float2(Y.x, Y.y)))
FORM(grad3, tex3DGrad<R>(T, A.x, A.y, A.z, make_float4(X.x, X.y, X.z, 0),
                         make_float4(Y.x, Y.y, Y.z, 0)))
FORM(gradlayered2,
     tex2DLayeredGrad<R>(T, A.x, A.y, LAYER, make_float2(X.x, X.y),
                         make_float2(Y.x, Y.y)))

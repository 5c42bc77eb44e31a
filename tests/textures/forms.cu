// The fetch kernels of texture_forms (FormConformance.cpp): layered, cubemap,
// gather, level-of-detail and gradient fetches through texture objects. The
// same source is compiled by nvcc for NVIDIA's driver and by cucc for cucpu.
//
// Thread I fetches with the three float4 at C[3I]: (x, y, z, level),
// (dPdx.x, dPdx.y, dPdx.z, layer), (dPdy.x, dPdy.y, dPdy.z, component), and
// stores the four result words at Out[I]. Kernels ending in f read floats,
// those ending in i read integers.

// The three float4 of this thread's fetch.
#define A C[3 * I]
#define X C[3 * I + 1]
#define Y C[3 * I + 2]

#define FORM(Name, Fetch)                                                      \
  extern "C" __global__ void Name##f(float4 *Out, const float4 *C, unsigned N, \
                                     cudaTextureObject_t T) {                  \
    typedef float4 R;                                                          \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I >= N)                                                                \
      return;                                                                  \
    Out[I] = Fetch;                                                            \
  }                                                                            \
  extern "C" __global__ void Name##i(int4 *Out, const float4 *C, unsigned N,   \
                                     cudaTextureObject_t T) {                  \
    typedef int4 R;                                                            \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (I >= N)                                                                \
      return;                                                                  \
    Out[I] = Fetch;                                                            \
  }

FORM(plain1, tex1D<R>(T, A.x))
FORM(plain2, tex2D<R>(T, A.x, A.y))
FORM(layered1, tex1DLayered<R>(T, A.x, int(X.w)))
FORM(layered2, tex2DLayered<R>(T, A.x, A.y, int(X.w)))
FORM(cubemap, texCubemap<R>(T, A.x, A.y, A.z))
FORM(cubemaplayered, texCubemapLayered<R>(T, A.x, A.y, A.z, int(X.w)))
FORM(gather, tex2Dgather<R>(T, A.x, A.y, int(Y.w)))
FORM(lod1, tex1DLod<R>(T, A.x, A.w))
FORM(lod2, tex2DLod<R>(T, A.x, A.y, A.w))
FORM(lod3, tex3DLod<R>(T, A.x, A.y, A.z, A.w))
FORM(lodlayered1, tex1DLayeredLod<R>(T, A.x, int(X.w), A.w))
FORM(lodlayered2, tex2DLayeredLod<R>(T, A.x, A.y, int(X.w), A.w))
FORM(lodcubemap, texCubemapLod<R>(T, A.x, A.y, A.z, A.w))
FORM(grad1, tex1DGrad<R>(T, A.x, X.x, Y.x))
FORM(grad2,
     tex2DGrad<R>(T, A.x, A.y, make_float2(X.x, X.y), make_float2(Y.x, Y.y)))
FORM(grad3, tex3DGrad<R>(T, A.x, A.y, A.z, make_float4(X.x, X.y, X.z, 0),
                         make_float4(Y.x, Y.y, Y.z, 0)))
FORM(gradlayered2,
     tex2DLayeredGrad<R>(T, A.x, A.y, int(X.w), make_float2(X.x, X.y),
                         make_float2(Y.x, Y.y)))
FORM(gradcubemap,
     texCubemapGrad<R>(T, A.x, A.y, A.z, make_float4(X.x, X.y, X.z, 0),
                       make_float4(Y.x, Y.y, Y.z, 0)))

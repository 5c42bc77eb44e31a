// The fetch kernels of texture_conformance for cucpu (cucc); fetch.ptx has
// the same kernels for NVIDIA's driver. Each thread fetches at one float4 of
// coordinates (thread I of the grid at C[I]) and stores the four result
// words.
texture<float4, 1> t1f;
texture<float4, 2> t2f;
texture<float4, 3> t3f;
texture<int4, 1> t1i;
texture<int4, 2> t2i;
texture<int4, 3> t3i;

extern "C" __global__ void fetch1f(float4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1D(t1f, C[I].x);
}
extern "C" __global__ void fetch2f(float4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2D(t2f, C[I].x, C[I].y);
}
extern "C" __global__ void fetch3f(float4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex3D(t3f, C[I].x, C[I].y, C[I].z);
}
extern "C" __global__ void fetch1i(int4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1D(t1i, C[I].x);
}
extern "C" __global__ void fetch2i(int4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2D(t2i, C[I].x, C[I].y);
}
extern "C" __global__ void fetch3i(int4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex3D(t3i, C[I].x, C[I].y, C[I].z);
}
extern "C" __global__ void fetchindexf(float4 *Out, const float4 *C,
                                       unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch(t1f, int(C[I].x));
}
extern "C" __global__ void fetchindexi(int4 *Out, const float4 *C, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch(t1i, int(C[I].x));
}
extern "C" __global__ void fetchobject(float4 *Out, const float4 *C, unsigned N,
                                       cudaTextureObject_t Obj) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex2D<float4>(Obj, C[I].x, C[I].y);
}
extern "C" __global__ void fetchobjectindex(float4 *Out, const float4 *C,
                                            unsigned N,
                                            cudaTextureObject_t Obj) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1Dfetch<float4>(Obj, int(C[I].x));
}

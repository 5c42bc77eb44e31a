// Texture references for texture_facts on cucpu: t1 (fetched by fetch1d)
// and t2 (declared only), as textures.ptx declares them for NVIDIA's driver.
texture<float4, 1> t1;
texture<float, 2> t2;

extern "C" __global__ void fetch1d(float4 *Out, const float *Xs, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = tex1D(t1, Xs[I]);
}

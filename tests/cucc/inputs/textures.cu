// Texture references for CuccTest: two fetched, one only declared.
texture<uchar4, 2, cudaReadModeNormalizedFloat> image;
texture<float, 1> samples;
texture<int2, 3> unused;
__device__ int counter;

__global__ void sample(float4 *Out, float *Values, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    Out[I] = tex2D(image, I + 0.5f, 0.5f);
    Values[I] = tex1Dfetch(samples, I);
    atomicAdd(&counter, 1);
  }
}

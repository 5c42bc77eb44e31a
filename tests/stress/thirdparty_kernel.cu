// The third-party library's own kernel.
extern "C" __global__ void scale(float *Data, int N, float Factor) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

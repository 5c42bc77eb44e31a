// C = A + B, one element per thread.
extern "C" __global__ void vectorAdd(const float *A, const float *B, float *C,
                                     int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

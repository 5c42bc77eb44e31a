/* C = A + B for N elements, one thread per element. */
extern "C" __global__ void vectorAddMMAP(const float *A, const float *B,
                                         float *C, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

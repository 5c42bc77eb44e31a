/* Y = A * X + Y for N elements, one thread per element. */
extern "C" __global__ void saxpy(float A, const float *X, float *Y, int N) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

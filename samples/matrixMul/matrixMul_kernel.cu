// C = A * B with square tiles of shared memory (the Programming Guide's
// example): each block computes one TILE x TILE tile of C.
#define TILE 16

extern "C" __global__ void matrixMul(float *C, const float *A, const float *B,
                                     int WA, int WB) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int Bx = blockIdx.x, By = blockIdx.y;
  int Tx = threadIdx.x, Ty = threadIdx.y;
  int ABegin = WA * TILE * By;
  int AEnd = ABegin + WA - 1;
  int BBegin = TILE * Bx;
  float Sum = 0;
  for (int IA = ABegin, IB = BBegin; IA <= AEnd; IA += TILE, IB += TILE * WB) {
    As[Ty][Tx] = A[IA + WA * Ty + Tx];
    Bs[Ty][Tx] = B[IB + WB * Ty + Tx];
    __syncthreads();
    for (int K = 0; K < TILE; ++K)
      Sum += As[Ty][K] * Bs[K][Tx];
    __syncthreads();
  }
  C[WB * TILE * By + TILE * Bx + WB * Ty + Tx] = Sum;
}

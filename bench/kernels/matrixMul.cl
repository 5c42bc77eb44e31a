// The OpenCL form of samples/matrixMul/matrixMul_kernel.cu, for the
// module-load benchmark: C = A * B with 16 x 16 tiles of local memory.
#define TILE 16

__kernel void matrixMul(__global float *C, __global const float *A,
                        __global const float *B, int WA, int WB) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int Bx = get_group_id(0), By = get_group_id(1);
  int Tx = get_local_id(0), Ty = get_local_id(1);
  int ABegin = WA * TILE * By;
  int AEnd = ABegin + WA - 1;
  int BBegin = TILE * Bx;
  float Sum = 0;
  for (int IA = ABegin, IB = BBegin; IA <= AEnd; IA += TILE, IB += TILE * WB) {
    As[Ty][Tx] = A[IA + WA * Ty + Tx];
    Bs[Ty][Tx] = B[IB + WB * Ty + Tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int K = 0; K < TILE; ++K)
      Sum += As[Ty][K] * Bs[K][Tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[WB * TILE * By + TILE * Bx + WB * Ty + Tx] = Sum;
}

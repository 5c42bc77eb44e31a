// C = A * B for square n x n matrices (n a multiple of 16), through 16 x 16
// tiles of local memory: each work-group computes one tile of C.
#define TILE 16

__kernel void matmul(__global float *c, __global const float *a,
                     __global const float *b, int n) {
  __local float as[TILE][TILE];
  __local float bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int row = get_group_id(1) * TILE + ty;
  int col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = a[row * n + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k)
      sum += as[ty][k] * bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

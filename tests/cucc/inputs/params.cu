// Kernels whose image description tests/cucc/CuccTest.cpp checks by hand.
struct Mixed {
  char C;   // offset 0
  double D; // offset 8
  int I;    // offset 16; sizeof 24, alignof 8
};

__device__ int Counter = 3;
__constant__ float Coeffs[3] = {1.0f, 2.0f, 3.0f};
__device__ double Zeros[4];

__device__ __noinline__ void helper(double *P) {
  __shared__ double H[2]; // 16 bytes, reached through the call
  H[threadIdx.x & 1] = P[0];
  P[1] = H[0];
}

__global__ void __launch_bounds__(256)
mixed(char C, double D, int *P, Mixed S, short Sh, float4 F, bool B) {
  __shared__ double Tile[10]; // 80 bytes
  Tile[threadIdx.x % 10] = C + D + S.I + F.w + Sh + Coeffs[1];
  __syncthreads();
  helper(&Tile[0]);
  atomicAdd(P, Counter);
  if (B)
    printf("%f\n", Tile[1]);
  assert(P[1] != 7);
}

__global__ void plain(int *P) { *P = 1; }

extern __shared__ float Dynamic[];
__global__ void dynamic(float *Out) {
  Dynamic[threadIdx.x] = Out[threadIdx.x];
  Out[threadIdx.x] = __shfl_down_sync(0xffffffff, Dynamic[threadIdx.x], 1);
}

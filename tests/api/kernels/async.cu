// Kernels of AsyncTest.cpp: compiled by cucc for cucpu and by nvcc for
// NVIDIA's driver. A kernel that waits for a flag in mapped page-locked
// memory keeps its stream busy for exactly as long as a test wants.

/// Waits until the host (or another kernel) sets *Flag, then sets *Done.
extern "C" __global__ void waitForFlag(volatile int *Flag, int *Done) {
  while (*Flag == 0) {
  }
  *Done = 1;
}

/// Sets *Flag.
extern "C" __global__ void setFlag(volatile int *Flag) { *Flag = 1; }

/// Adds 1 to each of the N ints at Data.
extern "C" __global__ void addOne(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
}

/// addOne for at most 128 threads per block (OccupancyTest.cpp).
extern "C" __global__ void __launch_bounds__(128)
    addOneBounded(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
}

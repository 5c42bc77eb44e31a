// Kernels of LibraryTest.cpp: compiled by cucc for cucpu and by nvcc for
// NVIDIA's driver, and loaded through the library API (cuLibrary*).

/// Read and counted by the tests; each context has its own copy.
__device__ int counter = 5;

/// Data[I] = Value + I for the first N elements.
extern "C" __global__ void fill(int *Data, int N, int Value) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] = Value + I;
}

/// Adds Amount to counter once per launch.
extern "C" __global__ void bump(int Amount) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    counter += Amount;
}

// The device half of a two-file program (program_main.cpp is the host half):
// a kernel, a __device__ variable the host reads back, and a host function
// that launches the kernel with <<<>>>.
__device__ int Launches;

__global__ void addOne(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
  if (I == 0)
    atomicAdd(&Launches, 1);
}

int addOneOnDevice(int *Data, int N) {
  addOne<<<(N + 63) / 64, 64>>>(Data, N);
  if (cudaGetLastError() != cudaSuccess ||
      cudaDeviceSynchronize() != cudaSuccess)
    return -1;
  int Count = 0;
  if (cudaMemcpyFromSymbol(&Count, Launches, sizeof(Count)) != cudaSuccess)
    return -1;
  return Count;
}

// Thread and block indices, 1D and 3D.
extern "C" __global__ void index1d(int *Out) {
  Out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x;
}

extern "C" __global__ void index3d(int *Out) {
  unsigned Block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned Thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned Id = Block * blockDim.x * blockDim.y * blockDim.z + Thread;
  Out[Id] = Id;
}

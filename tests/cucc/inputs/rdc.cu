// Relocatable device code: the kernel uses a function and a variable that
// another image defines (cucc -rdc=true or -dc).
extern __device__ int scale(int X);
extern __device__ int offset;

extern "C" __global__ void applyScale(int *Out) {
  Out[threadIdx.x] = scale(threadIdx.x) + offset;
}

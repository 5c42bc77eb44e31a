/* A kernel file that includes toolkit headers by name, as some samples'
   kernels do: <cuda.h> for CUDA_VERSION and the driver's types,
   <vector_types.h> for float4. */
#include <cuda.h>
#include <vector_types.h>

/* Writes what the kernel's <cuda.h> says, for the host to compare with its
   own: CUDA_VERSION and the size of CUdeviceptr. */
extern "C" __global__ void reportHeader(int *Out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    Out[0] = CUDA_VERSION;
    Out[1] = (int)sizeof(CUdeviceptr);
  }
}

/* Scales every component of Data[0..N) by Factor and adds the index to w. */
extern "C" __global__ void scaleFloat4(float4 *Data, int N, float Factor) {
  int I = blockDim.x * blockIdx.x + threadIdx.x;
  if (I >= N)
    return;
  float4 V = Data[I];
  Data[I] = make_float4(V.x * Factor, V.y * Factor, V.z * Factor,
                        V.w * Factor + (float)I);
}

// Qualifiers, built-in variables, dim3 and warpSize, with no #include.
// CHECK-DAG: @dev_var = {{.*}}addrspace(1) externally_initialized global i32 7
// CHECK-DAG: @const_tab = {{.*}}addrspace(4) externally_initialized global [4 x float]
// CHECK-DAG: @managed_var = {{.*}}addrspace(1)
// CHECK-DAG: addrspace(3) global [128 x float]
// CHECK: define {{.*}}@_Z8qualkernPfPKf
// CHECK-DAG: llvm.nvvm.read.ptx.sreg.tid.x
// CHECK-DAG: llvm.nvvm.read.ptx.sreg.ctaid.y
// CHECK-DAG: llvm.nvvm.read.ptx.sreg.ntid.z
// CHECK-DAG: llvm.nvvm.read.ptx.sreg.nctaid.x
// CHECK-DAG: call void @llvm.nvvm.barrier0()
// CHECK: !nvvm.annotations
// CHECK-DAG: !{ptr @_Z8qualkernPfPKf, !"kernel", i32 1}
// CHECK-DAG: !{ptr @_Z8qualkernPfPKf, !"maxntidx", i32 128}
__device__ int dev_var = 7;
__constant__ float const_tab[4] = {1, 2, 3, 4};
__managed__ int managed_var;

__device__ __noinline__ float helper(float X) { return X * 2.0f; }
__device__ __forceinline__ float inlined(float X) { return X + 1.0f; }
__host__ __device__ int both(int X) { return X + warpSize; }

__global__ void __launch_bounds__(128) qualkern(float *__restrict__ Out,
                                                 const float *__restrict__ In) {
  __shared__ float Tile[128];
  dim3 B = blockDim;
  uint3 T = threadIdx;
  dim3 Default;
  Tile[T.x] = In[threadIdx.x] + const_tab[threadIdx.x % 4];
  __syncthreads();
  Out[blockIdx.y * B.z + threadIdx.x] =
      helper(Tile[127 - T.x]) + inlined(dev_var) + both(gridDim.x) +
      Default.x + Default.y + Default.z + managed_var;
}

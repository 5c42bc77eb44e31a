// Per-group sums as reduce.cl (OpenCL has no warps: the local-memory tree
// with barriers all the way down is the same kernel for PoCL), under the
// name of the CUDA kernel that ends with a warp-synchronous reduction.
#define THREADS 256
#define PER_THREAD 4

__kernel void reduce_warpsync(__global const float *in,
                              __global float *partial,
                              int n) {
  __local float s[THREADS];
  int tid = get_local_id(0);
  int base = get_group_id(0) * THREADS * PER_THREAD;
  float v = 0.0f;
  for (int k = 0; k < PER_THREAD; ++k) {
    int i = base + k * THREADS + tid;
    if (i < n)
      v += in[i];
  }
  s[tid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0)
    partial[get_group_id(0)] = s[0];
}

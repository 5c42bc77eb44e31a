// Per-block sums: block b adds the 1024 floats in[1024 b .. 1024 b + 1023]
// with 256 threads (4 loads each), a shared-memory tree with __syncthreads
// down to 64 partial sums, then warp shuffles for the last 32.
#define THREADS 256
#define PER_THREAD 4

extern "C" __global__ void reduce(const float *in, float *partial, int n) {
  __shared__ float s[THREADS];
  int tid = threadIdx.x;
  int base = blockIdx.x * THREADS * PER_THREAD;
  float v = 0.0f;
  for (int k = 0; k < PER_THREAD; ++k) {
    int i = base + k * THREADS + tid;
    if (i < n)
      v += in[i];
  }
  s[tid] = v;
  __syncthreads();
  for (int stride = THREADS / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    v = s[tid] + s[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid == 0)
      partial[blockIdx.x] = v;
  }
}

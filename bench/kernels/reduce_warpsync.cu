// Per-block sums as reduce.cu, with the last 64 partial sums added by the
// first warp the legacy way: through a volatile pointer to shared memory,
// relying on the lanes of a warp making each access together (no
// __syncwarp), as NVIDIA's reduction samples did up to CUDA 8.
#define THREADS 256
#define PER_THREAD 4

extern "C" __global__ void reduce_warpsync(const float *in, float *partial,
                                           int n) {
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
    volatile float *w = s;
    w[tid] += w[tid + 32];
    w[tid] += w[tid + 16];
    w[tid] += w[tid + 8];
    w[tid] += w[tid + 4];
    w[tid] += w[tid + 2];
    w[tid] += w[tid + 1];
  }
  if (tid == 0)
    partial[blockIdx.x] = s[0];
}

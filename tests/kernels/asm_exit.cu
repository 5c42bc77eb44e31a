// PTX's exit in inline assembly ends the calling thread, as CUB's
// ThreadExit() uses it: in the kernel itself or in a device function it
// calls. A thread that ended counts as arrived at later barriers.

/// Ends the calling thread.
__device__ __forceinline__ void endThread() { asm volatile("exit;"); }

/// Ends the calling thread when T is odd; kept out of line.
__device__ __noinline__ void endThreadIfOdd(int T) {
  if (T & 1)
    asm volatile("exit;");
}

// Out[gid] = 1 where threadIdx.x % 3 == 0 (the thread ended after its first
// store), else 2.
extern "C" __global__ void exitInKernel(int *Out) {
  int G = blockIdx.x * blockDim.x + threadIdx.x;
  Out[G] = 1;
  if (threadIdx.x % 3 == 0)
    endThread();
  Out[G] = 2;
}

// The odd threads end between two barriers; each even thread t then writes
// Out[t] = S[(t + 2) % n] = 2 In[(t + 2) % n]. The odd ones write nothing.
extern "C" __global__ void exitBetweenBarriers(const int *In, int *Out) {
  __shared__ int S[256];
  int T = threadIdx.x;
  S[T] = 2 * In[T];
  __syncthreads();
  endThreadIfOdd(T);
  __syncthreads();
  Out[T] = S[(T + 2) % blockDim.x];
}

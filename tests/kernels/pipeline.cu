// The toolkit's pipeline primitives and nvcuda::experimental::pipeline:
// copies from global to shared memory that a thread queues, commits in
// batches and waits for, then shares with the block after a barrier.
// In[i] = 37 i % 101 in the tests.
#include <cuda_pipeline.h>

// Out[64 b + t]: a weighted sum over four stages of 16-byte copies, double
// buffered (stage s + 1 is copied while stage s is read), each thread
// reading the element another thread copied; in stages 1 to 3 the threads
// with t % 4 == 1 zero-fill the last 8 bytes of theirs. 64 threads.
extern "C" __global__ void pipelineStages(const int *In, int *Out) {
  __shared__ int4 Tile[2][64];
  int T = threadIdx.x;
  const int4 *Source = reinterpret_cast<const int4 *>(In) + blockIdx.x * 256;
  int Sum = 0;
  __pipeline_memcpy_async(&Tile[0][T], &Source[T], sizeof(int4));
  __pipeline_commit();
  for (int S = 0; S < 4; ++S) {
    if (S + 1 < 4)
      __pipeline_memcpy_async(&Tile[(S + 1) & 1][T], &Source[(S + 1) * 64 + T],
                              sizeof(int4), T % 4 == 1 ? 8 : 0);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    int4 V = Tile[S & 1][63 - T];
    Sum += V.x + 3 * V.y + 5 * V.z + 7 * V.w + S;
    __syncthreads();
  }
  Out[blockIdx.x * 64 + T] = Sum;
}

// Out[64 b + t] = Buf[127 - t] - Buf[t], Buf the block's 128 inputs copied
// through an nvcuda::experimental::pipeline, two elements per thread.
extern "C" __global__ void pipelineObject(const int *In, int *Out) {
  __shared__ int Buf[128];
  nvcuda::experimental::pipeline Pipe;
  int T = threadIdx.x;
  nvcuda::experimental::memcpy_async(Buf[T], In[blockIdx.x * 128 + T], Pipe);
  size_t First = Pipe.commit();
  nvcuda::experimental::memcpy_async(Buf[T + 64], In[blockIdx.x * 128 + T + 64],
                                     Pipe);
  Pipe.commit();
  Pipe.wait(First);
  Pipe.wait_prior<0>();
  __syncthreads();
  Out[blockIdx.x * 64 + T] = Buf[127 - T] - Buf[T];
}

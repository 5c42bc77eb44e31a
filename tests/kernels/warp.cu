// Warp shuffles (with width) and votes.
extern "C" __global__ void warpSum(const int *In, int *Out) {
  unsigned Global = blockIdx.x * blockDim.x + threadIdx.x;
  int V = In[Global];
  for (int Offset = 16; Offset > 0; Offset /= 2)
    V += __shfl_down_sync(0xffffffff, V, Offset);
  if (threadIdx.x % 32 == 0)
    Out[Global / 32] = V;
}

extern "C" __global__ void ballot(unsigned *Out) {
  Out[threadIdx.x] = __ballot_sync(0xffffffff, threadIdx.x % 2 == 0);
}

extern "C" __global__ void shflWidth(int *Out) {
  // Lane 0 of each 8-lane segment broadcasts its lane number.
  Out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x, 0, 8);
}

/// A shuffle in a loop whose trip count is known only at run time: in every
/// iteration each lane reads lane 18's value of that iteration, from before
/// any lane of the warp has updated it.
extern "C" __global__ void shuffleInRuntimeLoop(unsigned *Out, unsigned Trips) {
  unsigned V = threadIdx.x;
  unsigned I = 0;
  do {
    ++I;
    V += __shfl_sync(0xffffffffu, V, 18);
  } while (I < Trips);
  Out[blockIdx.x * blockDim.x + threadIdx.x] = V;
}

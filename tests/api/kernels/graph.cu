// Kernels of GraphTest.cpp and StreamCaptureTest.cpp: compiled by cucc for
// cucpu and by nvcc for NVIDIA's driver. Each is small and its result depends
// on the order it runs in relative to the others (x + 1 then x * 3 differs
// from x * 3 then x + 1), so a result checked on the host shows that a graph
// ran its nodes in dependency order.

/// Adds Value to each of the N ints at Data.
extern "C" __global__ void addValue(int *Data, int N, int Value) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += Value;
}

/// Multiplies each of the N ints at Data by Factor.
extern "C" __global__ void scaleBy(int *Data, int N, int Factor) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

/// Out[i] = In[i] + Value for the N ints: reads what an earlier node wrote.
extern "C" __global__ void addInto(const int *In, int *Out, int N, int Value) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] + Value;
}

/// Out[i] = A[i] + B[i] for the N ints: joins two branches of a graph.
extern "C" __global__ void addArrays(const int *A, const int *B, int *Out,
                                     int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = A[I] + B[I];
}

/// *Dst = *Src, one thread: reads a value a host node (or another kernel)
/// wrote to mapped page-locked memory.
extern "C" __global__ void copyInt(const volatile int *Src, int *Dst) {
  *Dst = *Src;
}

/// Waits until the host sets *Flag, then sets *Done: keeps a stream busy for
/// exactly as long as a test wants.
extern "C" __global__ void waitForFlag(volatile int *Flag, volatile int *Done) {
  while (*Flag == 0) {
  }
  *Done = 1;
}

#include <cooperative_groups.h>

/// A cooperative kernel: Out[round * blocks + block] is the sum of all
/// blocks' values of that round, each block's value (block + 1) * (round +
/// 1) written to Partial before the grid barrier.
extern "C" __global__ void gridRounds(int *Partial, int *Out, int Rounds) {
  cooperative_groups::grid_group Grid = cooperative_groups::this_grid();
  for (int R = 0; R < Rounds; ++R) {
    if (threadIdx.x == 0)
      Partial[blockIdx.x] = (blockIdx.x + 1) * (R + 1);
    Grid.sync();
    if (threadIdx.x == 0) {
      int Sum = 0;
      for (unsigned B = 0; B < gridDim.x; ++B)
        Sum += Partial[B];
      Out[R * gridDim.x + blockIdx.x] = Sum;
    }
    Grid.sync();
  }
}

// Bounds tests on thread indices that a whole block passes, or not: the
// block functions test them once per block where they can, so the hard
// cases are blocks that straddle a bound, and indices that wrap around.

// i = Off + g, 32-bit unsigned: a block where it wraps to 0 straddles N.
extern "C" __global__ void boundsWrapReturn(const unsigned *In, unsigned *Out,
                                            unsigned Off, unsigned N) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = Off + g;
  if (i >= N)
    return;
  Out[g] = In[g] + 1;
}

// Thread t tests 1 + t * 0x01010101 (mod 2^32): the first and the last
// thread of 256 are below N, the threads between are not.
extern "C" __global__ void boundsStride(unsigned *Out, unsigned Off,
                                        unsigned N) {
  unsigned i = Off + threadIdx.x * 0x01010101u;
  if (i < N)
    Out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// The same index, every thread but those where it equals N.
extern "C" __global__ void boundsStrideSkip(unsigned *Out, unsigned Off,
                                            unsigned N) {
  unsigned i = Off + threadIdx.x * 0x01010101u;
  if (i != N)
    Out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// Off - t, unsigned: below zero it wraps to large values.
extern "C" __global__ void boundsBelowZero(unsigned *Out, unsigned Off,
                                           unsigned N) {
  unsigned i = Off - threadIdx.x;
  if (i < N)
    Out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// A falling index, and one value inside the range left out.
extern "C" __global__ void boundsDown(const int *In, int *Out, int Hi,
                                      int Skip) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int j = Hi - 2 * g;
  if (j > 0 && j != Skip)
    Out[g] = In[g] * 2;
}

// A 32-bit sum that may wrap, widened, against a 64-bit bound.
extern "C" __global__ void boundsWide(unsigned *Out, unsigned Off,
                                      unsigned long long N) {
  unsigned t = threadIdx.x;
  unsigned long long k = Off + t;
  if (k < N)
    Out[blockIdx.x * blockDim.x + t] = 1;
}

// A 2D grid larger than the data, with a border of its own.
extern "C" __global__ void boundsGrid2d(const int *In, int *Out, int Nx,
                                        int Ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= Nx || y >= Ny)
    return;
  int i = y * Nx + x;
  if (x == 0 || y == 0 || x == Nx - 1 || y == Ny - 1) {
    Out[i] = -1;
    return;
  }
  Out[i] = In[i] + In[i - 1] + In[i + 1] + In[i - Nx] + In[i + Nx];
}

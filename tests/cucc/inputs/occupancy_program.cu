// The header-only occupancy calculator (cuda_occupancy.h) against the
// runtime's cudaOccupancy* functions for one kernel: the same number of
// blocks per multiprocessor for several block and shared-memory sizes, and
// the same best block size. Prints PASSED when they agree.
#include <cuda_occupancy.h>

#include <cstdio>

__global__ void reverse(float *X) {
  __shared__ float S[256];
  S[threadIdx.x] = X[threadIdx.x];
  __syncthreads();
  X[threadIdx.x] = S[255 - threadIdx.x];
}

static size_t bytesPerSize(int Size) { return Size * 8; }

int main() {
  cudaDeviceProp Props;
  cudaFuncAttributes Attrs;
  if (cudaGetDeviceProperties(&Props, 0) != cudaSuccess ||
      cudaFuncGetAttributes(&Attrs, reverse) != cudaSuccess) {
    std::printf("FAILED: no device properties or attributes\n");
    return 1;
  }
  cudaOccDeviceProp OccProps(Props);
  cudaOccFuncAttributes OccAttrs(Attrs);
  cudaOccDeviceState State;
  int Wrong = 0;
  for (int Size : {1, 32, 100, 256, 1024, 2048})
    for (size_t Dynamic : {size_t(0), size_t(4096), size_t(100000)}) {
      cudaOccResult R;
      int Blocks = -1;
      if (cudaOccMaxActiveBlocksPerMultiprocessor(&R, &OccProps, &OccAttrs,
                                                  &State, Size, Dynamic) !=
              CUDA_OCC_SUCCESS ||
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(
              &Blocks, reverse, Size, Dynamic) != cudaSuccess ||
          Blocks != R.activeBlocksPerMultiprocessor) {
        std::printf("block size %d, %zu bytes: calculator %d, runtime %d\n",
                    Size, Dynamic, R.activeBlocksPerMultiprocessor, Blocks);
        ++Wrong;
      }
    }
  int Grid = 0, Size = 0, RuntimeGrid = 0, RuntimeSize = 0;
  if (cudaOccMaxPotentialOccupancyBlockSize(&Grid, &Size, &OccProps, &OccAttrs,
                                            &State, bytesPerSize, 0) !=
          CUDA_OCC_SUCCESS ||
      cudaOccupancyMaxPotentialBlockSizeVariableSMem(
          &RuntimeGrid, &RuntimeSize, reverse, bytesPerSize) != cudaSuccess ||
      Size != RuntimeSize || Grid != RuntimeGrid) {
    std::printf("best block size: calculator %d (grid %d), runtime %d (grid "
                "%d)\n",
                Size, Grid, RuntimeSize, RuntimeGrid);
    ++Wrong;
  }
  std::printf(Wrong ? "FAILED\n" : "PASSED\n");
  return Wrong ? 1 : 0;
}

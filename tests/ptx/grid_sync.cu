// The cooperative-groups kernel of tests/ptx/GridSyncTest.cpp, compiled by
// nvcc (whose grid sync counts on the driver's grid workspace, %envreg1/2):
//   nvcc -ptx -arch=sm_75 -o grid_sync.sm_75.ptx grid_sync.cu
#include <cooperative_groups.h>

// Out[round * blocks + block]: the sum over all blocks of (block + 1) *
// (round + 1), which each block wrote to Partial before the grid sync.
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

// Out[0] = this_grid().is_valid().
extern "C" __global__ void gridValid(int *Out) {
  Out[0] = cooperative_groups::this_grid().is_valid() ? 1 : 0;
}

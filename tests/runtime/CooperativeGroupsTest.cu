//===- CooperativeGroupsTest.cu - cooperative_groups in kernels -----------===//
//
// Blocks, tiles (static and dynamic), coalesced groups, and the toolkit's
// reduce, scan and memcpy_async over them (CUDA C++ Programming Guide,
// Cooperative Groups).
//
//===----------------------------------------------------------------------===//
#include "RuntimeTest.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <algorithm>

using namespace curt;
namespace cg = cooperative_groups;

namespace {

/// What a shuffle of a struct carries.
struct CgPair {
  int Rank;
  short Tag;
};

} // namespace

/// Per thread of one block of 128: Reduced = sum * 1000 + max over its tile
/// of 16, Scanned = inclusive sum + 1000 * exclusive count, Shuffled = the
/// rank carried by rank 3's struct + 10 * its tag.
__global__ void cgTiles(const int *In, int *Reduced, int *Scanned,
                        int *Shuffled) {
  cg::thread_block Block = cg::this_thread_block();
  __shared__ int Staged[128];
  cg::memcpy_async(Block, Staged, In, 128 * sizeof(int));
  cg::wait(Block);
  cg::thread_block_tile<16> Tile = cg::tiled_partition<16>(Block);
  int V = Staged[Block.thread_rank()];
  int Sum = cg::reduce(Tile, V, cg::plus<int>());
  int Max = cg::reduce(Tile, V, cg::greater<int>());
  Reduced[Block.thread_rank()] = Sum * 1000 + Max;
  Scanned[Block.thread_rank()] =
      cg::inclusive_scan(Tile, V) + 1000 * cg::exclusive_scan(Tile, 1);
  CgPair Mine{static_cast<int>(Tile.thread_rank()), 7};
  CgPair Third = Tile.shfl(Mine, 3);
  Shuffled[Block.thread_rank()] = Third.Rank + 10 * Third.Tag;
}

/// The threads with threadIdx.x % 3 == 0 form a coalesced group per warp;
/// Out = size * 100 + rank + 10000 * (the group's count by reduce).
/// Dynamic tiles of 8: Tiles = rank + 10 * size + 1000 * meta group rank of
/// the static tile of 16.
__global__ void cgCoalescedAndDynamic(int *Out, int *Tiles) {
  cg::thread_block Block = cg::this_thread_block();
  if (threadIdx.x % 3 == 0) {
    cg::coalesced_group Active = cg::coalesced_threads();
    Out[threadIdx.x] =
        static_cast<int>(Active.size() * 100 + Active.thread_rank()) +
        10000 * cg::reduce(Active, 1, cg::plus<int>());
  }
  cg::thread_group Dynamic = cg::tiled_partition(Block, 8);
  auto Tile = cg::tiled_partition<16>(Block);
  Tiles[threadIdx.x] =
      static_cast<int>(Dynamic.thread_rank() + 10 * Dynamic.size() +
                       1000 * Tile.meta_group_rank());
}

using CooperativeGroups = RuntimeTest;

TEST_F(CooperativeGroups, TileReduceScanShuffleAndBlockCopy) {
  int *In, *Reduced, *Scanned, *Shuffled;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&In, 128 * sizeof(int)));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Reduced, 128 * sizeof(int)));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Scanned, 128 * sizeof(int)));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Shuffled, 128 * sizeof(int)));
  for (int I = 0; I < 128; ++I)
    In[I] = I;
  cgTiles<<<1, 128>>>(In, Reduced, Scanned, Shuffled);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  for (int I = 0; I < 128; ++I) {
    int First = I & ~15;
    int Sum = 16 * First + 120;
    ASSERT_EQ(Sum * 1000 + First + 15, Reduced[I])
        << "thread " << I << ": sum and maximum of its tile of 16";
    int Prefix = (I - First + 1) * (First + I) / 2;
    ASSERT_EQ(Prefix + 1000 * (I - First), Scanned[I])
        << "thread " << I << ": inclusive and exclusive scans in its tile";
    ASSERT_EQ(3 + 70, Shuffled[I])
        << "thread " << I << ": a struct shuffled from rank 3";
  }
  for (int *P : {In, Reduced, Scanned, Shuffled})
    EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(CooperativeGroups, CoalescedGroupsAndDynamicTiles) {
  int *Out, *Tiles;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, 128 * sizeof(int)));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Tiles, 128 * sizeof(int)));
  for (int I = 0; I < 128; ++I)
    Out[I] = -1;
  cgCoalescedAndDynamic<<<1, 128>>>(Out, Tiles);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize()) << "the kernel ran";
  for (int I = 0; I < 128; ++I) {
    if (I % 3 == 0) {
      // Lanes 0, 3, ..., 30 of warp 0 (11), 33 - 32 = 1, 4, ... of warp 1
      // (10), and so on.
      int WarpStart = I & ~31;
      int First = (WarpStart + 2) / 3 * 3;
      int Size = (WarpStart + 31 - First) / 3 + 1;
      int Rank = (I - First) / 3;
      ASSERT_EQ(Size * 100 + Rank + 10000 * Size, Out[I])
          << "thread " << I << ": its warp's threads at a multiple of 3";
    } else {
      ASSERT_EQ(-1, Out[I]) << "thread " << I << " is in no group";
    }
    ASSERT_EQ(I % 8 + 80 + 1000 * (I / 16), Tiles[I])
        << "thread " << I << ": a dynamic tile of 8";
  }
  for (int *P : {Out, Tiles})
    EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

/// Rounds of a grid-wide exchange: in each, every block writes its sum of
/// In shifted by the round into Partial[block], the grid synchronizes, and
/// every block reads all partials (so a block that ran ahead, or a partial
/// not yet written, shows). Out[round * blocks + block] is what block saw.
__global__ void cgGridRounds(const int *In, int *Partial, int *Out,
                             int Rounds) {
  cg::grid_group Grid = cg::this_grid();
  __shared__ int Sum;
  unsigned Blocks = gridDim.x, Block = blockIdx.x;
  for (int R = 0; R < Rounds; ++R) {
    if (threadIdx.x == 0)
      Sum = 0;
    __syncthreads();
    atomicAdd(&Sum, In[Block * blockDim.x + threadIdx.x] + R);
    __syncthreads();
    if (threadIdx.x == 0)
      Partial[Block] = Sum;
    Grid.sync();
    if (threadIdx.x == 0) {
      int All = 0;
      for (unsigned B = 0; B < Blocks; ++B)
        All += Partial[B];
      Out[R * Blocks + Block] = All;
    }
    Grid.sync();
  }
}

/// Out[0] = this_grid().is_valid() of an ordinary launch.
__global__ void cgGridValid(int *Out) {
  Out[0] = cooperative_groups::this_grid().is_valid() ? 1 : 0;
}

TEST_F(CooperativeGroups, GridSyncUnderACooperativeLaunch) {
  int Supported = 0;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetAttribute(
                               &Supported, cudaDevAttrCooperativeLaunch, 0));
  ASSERT_EQ(1, Supported) << "the device launches cooperatively";
  const int Threads = 128, Rounds = 4;
  int PerSm = 0, Sms = 0;
  ASSERT_CUDA(cudaSuccess, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &PerSm, cgGridRounds, Threads, 0));
  ASSERT_CUDA(cudaSuccess,
              cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  // As many blocks as fit at once, but at most 64.
  const int Blocks = std::min(PerSm * Sms, 64);
  ASSERT_GE(Blocks, 2);
  int *In = nullptr, *Partial = nullptr, *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&In, Blocks * Threads * 4));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Partial, Blocks * 4));
  ASSERT_CUDA(cudaSuccess, cudaMallocManaged(&Out, Rounds * Blocks * 4));
  long long Total = 0;
  for (int I = 0; I < Blocks * Threads; ++I) {
    In[I] = I % 13;
    Total += In[I];
  }
  int Count = Rounds;
  void *Args[] = {&In, &Partial, &Out, &Count};
  ASSERT_CUDA(cudaSuccess, cudaLaunchCooperativeKernel(
                               (const void *)cgGridRounds, dim3(Blocks),
                               dim3(Threads), Args, 0, nullptr));
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  for (int R = 0; R < Rounds; ++R)
    for (int B = 0; B < Blocks; ++B)
      ASSERT_EQ(Total + R * Blocks * Threads, Out[R * Blocks + B])
          << "round " << R << ", block " << B
          << ": every block saw every block's partial of this round";

  EXPECT_CUDA(cudaErrorCooperativeLaunchTooLarge,
              cudaLaunchCooperativeKernel((const void *)cgGridRounds,
                                          dim3(PerSm * Sms + 1), dim3(Threads),
                                          Args, 0, nullptr))
      << "one block more than the device holds at once";
  (void)cudaGetLastError();

  // NVIDIA's this_grid() is valid when the driver gave the launch a grid
  // workspace, which it did for an ordinary launch of one block (observed
  // on an H200); cucpu's only for cooperative launches.
  cgGridValid<<<1, 1>>>(Out);
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  report("this_grid().is_valid() of an ordinary launch", Out[0]);
  void *ValidArgs[] = {&Out};
  ASSERT_CUDA(cudaSuccess,
              cudaLaunchCooperativeKernel((const void *)cgGridValid, dim3(1),
                                          dim3(1), ValidArgs, 0, nullptr));
  ASSERT_CUDA(cudaSuccess, cudaDeviceSynchronize());
  EXPECT_EQ(1, Out[0]) << "a cooperative launch's is";
  EXPECT_CUDA(cudaSuccess, cudaFree(In));
  EXPECT_CUDA(cudaSuccess, cudaFree(Partial));
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
}

/// Block 0 ends without the grid barrier the other blocks wait at.
__global__ void cgGridEarlyExit(int *Out) {
  if (blockIdx.x == 0)
    return;
  cg::this_grid().sync();
  Out[blockIdx.x] = 1;
}

#if CUCPU_ONLY
static void gridSyncWithoutABlockInChild() {
  int *Out = nullptr;
  childCheck(cudaMalloc(&Out, 4 * sizeof(int)) == cudaSuccess, 2, "memory");
  void *Args[] = {&Out};
  childCheck(cudaLaunchCooperativeKernel((const void *)cgGridEarlyExit, dim3(4),
                                         dim3(32), Args, 0,
                                         nullptr) == cudaSuccess,
             3, "the launch is accepted");
  childCheck(cudaDeviceSynchronize() == cudaErrorLaunchFailure, 4,
             "it fails rather than hangs");
  std::_Exit(0);
}
#endif

TEST(CooperativeGroupsChild, BlockMissingTheGridBarrierFailsTheLaunch) {
#if CUCPU_ONLY
  useFreshChildProcesses();
  EXPECT_EXIT(gridSyncWithoutABlockInChild(), ::testing::ExitedWithCode(0), "")
      << "a block that ends while the others wait at grid.sync() breaks the "
         "barrier";
#else
  GTEST_SKIP() << "cucpu-only: on a GPU the other blocks wait forever";
#endif
}

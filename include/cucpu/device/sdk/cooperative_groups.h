//===- sdk/cooperative_groups.h - Groups of threads ------------*- C++ -*-===//
//
// CUDA's cooperative groups (CUDA C++ Programming Guide, Cooperative
// Groups), cucpu's own text with the toolkit's names: thread_block and
// this_thread_block(), thread_block_tile<N> (N a power of two up to 32) from
// tiled_partition<N>, tiled_partition(parent, n) and thread_group, the
// coalesced_group of coalesced_threads() and labeled_partition, grid_group
// and this_grid(), and sync(group). reduce, inclusive_scan/exclusive_scan
// and memcpy_async come with <cooperative_groups/reduce.h>, scan.h and
// memcpy_async.h.
//
// Warps are the block's threads in linear order, 32 at a time, as on the
// GPU; a tile is an aligned run of lanes of one warp. A grid-wide barrier
// needs a cooperative launch (cudaLaunchCooperativeKernel,
// cuLaunchCooperativeKernel), whose blocks all run at once: this_grid() of
// an ordinary launch is not valid (is_valid() is false), as on the GPU, and
// its sync() fails the launch instead of deadlocking.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_H
#define CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_H

#if defined(__cplusplus) && defined(__CUDA__)

#include <type_traits>

namespace cooperative_groups {

namespace __cucpu_cg {

/// The thread's index in its block, x fastest (the warp order).
__device__ __forceinline__ unsigned linearThread() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned blockThreads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
__device__ __forceinline__ unsigned lane() { return linearThread() & 31u; }
/// The lanes of the calling thread's warp that exist (a block's last warp
/// may be partial).
__device__ __forceinline__ unsigned warpMask() {
  unsigned First = linearThread() & ~31u;
  unsigned Count = blockThreads() - First;
  return Count >= 32 ? 0xffffffffu : (1u << Count) - 1u;
}
/// The lanes below the calling one.
__device__ __forceinline__ unsigned lanesBelow() { return (1u << lane()) - 1u; }

/// A shuffle of any trivially copyable value: the integer and floating
/// types through the warp functions, anything else 4 bytes at a time.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffleValue(T Value, Shuffle Fn) {
  if constexpr (std::is_arithmetic_v<T> && sizeof(T) >= 4) {
    return Fn(Value);
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "a group shuffle moves trivially copyable values");
    constexpr unsigned Words = (sizeof(T) + 3) / 4;
    unsigned In[Words] = {}, Out[Words];
    __builtin_memcpy(In, &Value, sizeof(T));
    for (unsigned I = 0; I < Words; ++I)
      Out[I] = Fn(In[I]);
    T Result;
    __builtin_memcpy(&Result, Out, sizeof(T));
    return Result;
  }
}

} // namespace __cucpu_cg

/// The threads of the calling thread's block.
class thread_block {
public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long thread_rank() const {
    return __cucpu_cg::linearThread();
  }
  __device__ unsigned long long size() const {
    return __cucpu_cg::blockThreads();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_index() const { return blockIdx; }
  __device__ dim3 thread_index() const { return threadIdx; }
  __device__ dim3 group_dim() const { return blockDim; }
  __device__ dim3 dim_threads() const { return blockDim; }
  static constexpr bool is_valid() { return true; }
};

/// The calling thread's block.
__device__ __forceinline__ thread_block this_thread_block() { return {}; }

extern "C" __device__ int __cucpu_grid_is_cooperative(void);
extern "C" __device__ void __cucpu_grid_sync(void);

/// The threads of a grid, valid only under a cooperative launch.
class grid_group {
public:
  __device__ bool is_valid() const {
    return __cucpu_grid_is_cooperative() != 0;
  }
  /// Every thread of the grid waits here for all the others: the block
  /// meets, its first thread meets the other blocks' (the engine's grid
  /// barrier), and the block meets again. Outside a cooperative launch the
  /// launch fails with a message.
  __device__ void sync() const {
    __syncthreads();
    if (__cucpu_cg::linearThread() == 0)
      __cucpu_grid_sync();
    __syncthreads();
  }
  __device__ unsigned long long thread_rank() const {
    return block_rank() * __cucpu_cg::blockThreads() +
           __cucpu_cg::linearThread();
  }
  __device__ unsigned long long size() const {
    return num_blocks() * __cucpu_cg::blockThreads();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ unsigned long long block_rank() const {
    return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y +
            blockIdx.y) *
               gridDim.x +
           blockIdx.x;
  }
  __device__ unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  __device__ dim3 group_dim() const { return gridDim; }
  __device__ dim3 dim_blocks() const { return gridDim; }
  __device__ dim3 block_index() const { return blockIdx; }
};

/// The calling thread's grid.
__device__ __forceinline__ grid_group this_grid() { return {}; }

/// Lanes of one warp: a tile or a coalesced group. Mask names the lanes,
/// in the warp's numbering.
class __cucpu_warp_group {
public:
  __device__ explicit __cucpu_warp_group(unsigned Mask) : Mask(Mask) {}
  __device__ void sync() const { __syncwarp(Mask); }
  __device__ unsigned long long thread_rank() const {
    return __popc(Mask & __cucpu_cg::lanesBelow());
  }
  __device__ unsigned long long size() const { return __popc(Mask); }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ int any(int Predicate) const {
    return __any_sync(Mask, Predicate);
  }
  __device__ int all(int Predicate) const {
    return __all_sync(Mask, Predicate);
  }
  /// Bit i for the group's rank i.
  __device__ unsigned ballot(int Predicate) const {
    return compress(__ballot_sync(Mask, Predicate));
  }
  template <class T> __device__ unsigned long long match_any(T Value) const {
    return compress(__match_any_sync(Mask, Value));
  }
  template <class T>
  __device__ unsigned long long match_all(T Value, int &Predicate) const {
    return compress(__match_all_sync(Mask, Value, &Predicate));
  }
  /// The value of rank \p Source.
  template <class T> __device__ T shfl(T Value, int Source) const {
    int Lane = laneOfRank(static_cast<unsigned>(Source) % size());
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_sync(Mask, V, Lane); });
  }
  /// The value of the rank \p Delta above (the caller's own past the end).
  template <class T> __device__ T shfl_down(T Value, unsigned Delta) const {
    unsigned Rank = thread_rank() + Delta;
    int Lane = Rank < size() ? laneOfRank(Rank) : __cucpu_cg::lane();
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_sync(Mask, V, Lane); });
  }
  /// The value of the rank \p Delta below (the caller's own before 0).
  template <class T> __device__ T shfl_up(T Value, unsigned Delta) const {
    unsigned Rank = thread_rank();
    int Lane = Rank >= Delta ? laneOfRank(Rank - Delta) : __cucpu_cg::lane();
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_sync(Mask, V, Lane); });
  }
  /// The value of rank thread_rank() ^ \p LaneMask.
  template <class T> __device__ T shfl_xor(T Value, unsigned LaneMask) const {
    unsigned Rank = thread_rank() ^ LaneMask;
    int Lane = Rank < size() ? laneOfRank(Rank) : __cucpu_cg::lane();
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_sync(Mask, V, Lane); });
  }
  /// The group's lanes in the warp's numbering.
  __device__ unsigned __cucpu_mask() const { return Mask; }

protected:
  /// The lane of rank \p Rank: the position of the Rank-th set bit.
  __device__ int laneOfRank(unsigned Rank) const {
    unsigned M = Mask;
    for (unsigned I = 0; I < Rank; ++I)
      M &= M - 1;
    return __ffs(M) - 1;
  }
  /// \p Bits (one per lane) as one bit per rank of the group.
  __device__ unsigned compress(unsigned Bits) const {
    unsigned Out = 0, Rank = 0;
    for (unsigned M = Mask; M; M &= M - 1, ++Rank)
      if (Bits & (M & -M))
        Out |= 1u << Rank;
    return Out;
  }
  unsigned Mask;
};

/// The active threads of a warp at the point of coalesced_threads().
class coalesced_group : public __cucpu_warp_group {
public:
  __device__ explicit coalesced_group(unsigned Mask)
      : __cucpu_warp_group(Mask) {}
  __device__ unsigned long long meta_group_rank() const { return 0; }
  __device__ unsigned long long meta_group_size() const { return 1; }
};

/// The calling warp's threads that are active here.
__device__ __forceinline__ coalesced_group coalesced_threads() {
  return coalesced_group(__activemask());
}

/// The threads of \p Group that have the same \p Label as the caller.
template <class Label>
__device__ __forceinline__ coalesced_group
labeled_partition(const coalesced_group &Group, Label Value) {
  return coalesced_group(__match_any_sync(Group.__cucpu_mask(), Value));
}

/// \p Size consecutive lanes of a warp (Size a power of two up to 32),
/// aligned to Size.
template <unsigned Size, class Parent = void>
class thread_block_tile : public __cucpu_warp_group {
  static_assert(Size > 0 && Size <= 32 && (Size & (Size - 1)) == 0,
                "cucpu supports tiles of 1, 2, 4, 8, 16 or 32 threads");

public:
  __device__ thread_block_tile() : __cucpu_warp_group(tileMask()) {}
  template <class Other>
  __device__ thread_block_tile(const thread_block_tile<Size, Other> &)
      : __cucpu_warp_group(tileMask()) {}
  __device__ unsigned long long thread_rank() const {
    return __cucpu_cg::linearThread() & (Size - 1);
  }
  static constexpr unsigned long long size() { return Size; }
  static constexpr unsigned long long num_threads() { return Size; }
  __device__ unsigned long long meta_group_rank() const {
    return __cucpu_cg::linearThread() / Size;
  }
  __device__ unsigned long long meta_group_size() const {
    return (__cucpu_cg::blockThreads() + Size - 1) / Size;
  }
  __device__ unsigned ballot(int Predicate) const {
    return __ballot_sync(Mask, Predicate) >> firstLane();
  }
  template <class T> __device__ T shfl(T Value, int Source) const {
    int Lane = firstLane() + (static_cast<unsigned>(Source) & (Size - 1));
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_sync(Mask, V, Lane); });
  }
  template <class T> __device__ T shfl_down(T Value, unsigned Delta) const {
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_down_sync(Mask, V, Delta, Size); });
  }
  template <class T> __device__ T shfl_up(T Value, unsigned Delta) const {
    return __cucpu_cg::shuffleValue(
        Value, [&](auto V) { return __shfl_up_sync(Mask, V, Delta, Size); });
  }
  template <class T> __device__ T shfl_xor(T Value, unsigned LaneMask) const {
    return __cucpu_cg::shuffleValue(Value, [&](auto V) {
      return __shfl_xor_sync(Mask, V, LaneMask, Size);
    });
  }

private:
  __device__ static unsigned firstLane() {
    return __cucpu_cg::lane() & ~(Size - 1);
  }
  __device__ static unsigned tileMask() {
    unsigned Lanes = Size == 32 ? 0xffffffffu : ((1u << Size) - 1u);
    return (Lanes << firstLane()) & __cucpu_cg::warpMask();
  }
};

/// Any group, whose kind is known only when the program runs: a block, or
/// lanes of a warp (a tiled_partition(parent, n) or a coalesced group).
class thread_group {
public:
  __device__ thread_group(const thread_block &) : Block(true), Mask(0) {}
  template <unsigned Size, class Parent>
  __device__ thread_group(const thread_block_tile<Size, Parent> &Tile)
      : Block(false), Mask(Tile.__cucpu_mask()) {}
  __device__ thread_group(const coalesced_group &Group)
      : Block(false), Mask(Group.__cucpu_mask()) {}
  __device__ void sync() const {
    if (Block)
      __syncthreads();
    else
      __syncwarp(Mask);
  }
  __device__ unsigned long long thread_rank() const {
    return Block ? __cucpu_cg::linearThread()
                 : __popc(Mask & __cucpu_cg::lanesBelow());
  }
  __device__ unsigned long long size() const {
    return Block ? __cucpu_cg::blockThreads() : __popc(Mask);
  }
  __device__ unsigned long long num_threads() const { return size(); }

private:
  template <class Group>
  friend __device__ thread_group tiled_partition(const Group &, unsigned);
  __device__ explicit thread_group(unsigned Mask) : Block(false), Mask(Mask) {}
  bool Block;
  unsigned Mask;
};

/// \p Parent in tiles of \p Size threads (a power of two up to 32).
template <unsigned Size, class Parent>
__device__ __forceinline__ thread_block_tile<Size, Parent>
tiled_partition(const Parent &) {
  return {};
}

/// \p Parent in tiles of \p Size threads, chosen when the program runs.
template <class Group>
__device__ __forceinline__ thread_group tiled_partition(const Group &,
                                                        unsigned Size) {
  if (Size == 0 || Size > 32 || (Size & (Size - 1)) != 0) {
    printf("cucpu: tiled_partition(group, %u): tiles are 1, 2, 4, 8, 16 or "
           "32 threads\n",
           Size);
    __trap();
  }
  unsigned First = __cucpu_cg::lane() & ~(Size - 1);
  unsigned Lanes = Size == 32 ? 0xffffffffu : ((1u << Size) - 1u);
  return thread_group((Lanes << First) & __cucpu_cg::warpMask());
}

/// Waits until every thread of \p Group has arrived.
template <class Group> __device__ __forceinline__ void sync(const Group &G) {
  G.sync();
}

/// The calling thread's rank in \p Group, and the group's size.
template <class Group>
__device__ __forceinline__ unsigned long long thread_rank(const Group &G) {
  return G.thread_rank();
}
template <class Group>
__device__ __forceinline__ unsigned long long group_size(const Group &G) {
  return G.size();
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_H

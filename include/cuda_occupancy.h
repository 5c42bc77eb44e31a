/*
 * cuda_occupancy.h - the occupancy calculator, header only.
 *
 * cucpu's own text, with the names and types of NVIDIA's CUDA 13.0 header
 * (Thrust and CUB include it). How many blocks of a kernel fit on one
 * multiprocessor, from device properties and function attributes the caller
 * gives, with the model cucpu's cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * uses: a block takes its threads rounded up to whole warps, its static and
 * dynamic shared memory and its registers, and a multiprocessor holds at
 * most maxBlocksPerMultiprocessor blocks. NVIDIA's allocation granularities
 * and cache configurations are not modelled: on a GPU its own header
 * answers.
 */
#ifndef CUDA_OCCUPANCY_H
#define CUDA_OCCUPANCY_H

#include <stddef.h>

#include "cuda_runtime_api.h"

#if defined(__cplusplus)

/// What a calculator call returns.
typedef enum cudaOccError_enum {
  CUDA_OCC_SUCCESS = 0,
  CUDA_OCC_ERROR_INVALID_INPUT = 1,
  CUDA_OCC_ERROR_UNKNOWN_DEVICE = 2
} cudaOccError;

/// Which resource limited the number of blocks (cudaOccResult).
enum cudaOccLimitingFactor_enum {
  OCC_LIMIT_WARPS = 0x01,
  OCC_LIMIT_REGISTERS = 0x02,
  OCC_LIMIT_SHARED_MEMORY = 0x04,
  OCC_LIMIT_BLOCKS = 0x08,
  OCC_LIMIT_BARRIERS = 0x10
};

/// Shared memory and L1 split preference (kept, not modelled).
typedef enum cudaOccCacheConfig_enum {
  CACHE_PREFER_NONE = 0x00,
  CACHE_PREFER_SHARED = 0x01,
  CACHE_PREFER_L1 = 0x02,
  CACHE_PREFER_EQUAL = 0x03
} cudaOccCacheConfig;

/// Partitioned global caching (kept, not modelled).
typedef enum cudaOccPartitionedGCConfig_enum {
  PARTITIONED_GC_OFF,
  PARTITIONED_GC_ON,
  PARTITIONED_GC_ON_STRICT
} cudaOccPartitionedGCConfig;

/// Whether a kernel may use more than 48 KiB of shared memory per block.
typedef enum cudaOccFuncShmemConfig_enum {
  FUNC_SHMEM_LIMIT_DEFAULT = 0x00,
  FUNC_SHMEM_LIMIT_OPTIN = 0x01
} cudaOccFuncShmemConfig;

/// The device properties the calculator reads.
struct cudaOccDeviceProp {
  int computeMajor;
  int computeMinor;
  int maxThreadsPerBlock;
  int maxThreadsPerMultiprocessor;
  int regsPerBlock;
  int regsPerMultiprocessor;
  int warpSize;
  size_t sharedMemPerBlock;
  size_t sharedMemPerMultiprocessor;
  int numSms;
  size_t sharedMemPerBlockOptin;
  size_t reservedSharedMemPerBlock;
  /// cucpu: the most blocks a multiprocessor holds.
  int maxBlocksPerMultiprocessor;

  __host__ __device__ cudaOccDeviceProp()
      : computeMajor(0), computeMinor(0), maxThreadsPerBlock(0),
        maxThreadsPerMultiprocessor(0), regsPerBlock(0),
        regsPerMultiprocessor(0), warpSize(0), sharedMemPerBlock(0),
        sharedMemPerMultiprocessor(0), numSms(0), sharedMemPerBlockOptin(0),
        reservedSharedMemPerBlock(0), maxBlocksPerMultiprocessor(0) {}

  /// The properties of a device, as cudaGetDeviceProperties gives them.
  __host__ cudaOccDeviceProp(const cudaDeviceProp &P)
      : computeMajor(P.major), computeMinor(P.minor),
        maxThreadsPerBlock(P.maxThreadsPerBlock),
        maxThreadsPerMultiprocessor(P.maxThreadsPerMultiProcessor),
        regsPerBlock(P.regsPerBlock),
        regsPerMultiprocessor(P.regsPerMultiprocessor), warpSize(P.warpSize),
        sharedMemPerBlock(P.sharedMemPerBlock),
        sharedMemPerMultiprocessor(P.sharedMemPerMultiprocessor),
        numSms(P.multiProcessorCount),
        sharedMemPerBlockOptin(P.sharedMemPerBlockOptin),
        reservedSharedMemPerBlock(P.reservedSharedMemPerBlock),
        maxBlocksPerMultiprocessor(P.maxBlocksPerMultiProcessor) {}
};

/// The kernel attributes the calculator reads.
struct cudaOccFuncAttributes {
  int maxThreadsPerBlock;
  int numRegs;
  size_t sharedSizeBytes;
  cudaOccPartitionedGCConfig partitionedGCConfig;
  cudaOccFuncShmemConfig shmemLimitConfig;
  size_t maxDynamicSharedSizeBytes;
  int numBlockBarriers;

  __host__ __device__ cudaOccFuncAttributes()
      : maxThreadsPerBlock(0), numRegs(0), sharedSizeBytes(0),
        partitionedGCConfig(PARTITIONED_GC_OFF),
        shmemLimitConfig(FUNC_SHMEM_LIMIT_DEFAULT),
        maxDynamicSharedSizeBytes(0), numBlockBarriers(0) {}

  /// The attributes of a kernel, as cudaFuncGetAttributes gives them.
  __host__ cudaOccFuncAttributes(const cudaFuncAttributes &A)
      : maxThreadsPerBlock(A.maxThreadsPerBlock), numRegs(A.numRegs),
        sharedSizeBytes(A.sharedSizeBytes),
        partitionedGCConfig(PARTITIONED_GC_OFF),
        shmemLimitConfig(FUNC_SHMEM_LIMIT_OPTIN),
        maxDynamicSharedSizeBytes(A.maxDynamicSharedSizeBytes),
        numBlockBarriers(1) {}
};

/// The device's configuration at launch (kept, not modelled).
struct cudaOccDeviceState {
  cudaOccCacheConfig cacheConfig;
  int carveoutConfig;

  __host__ __device__ cudaOccDeviceState()
      : cacheConfig(CACHE_PREFER_NONE), carveoutConfig(-1) {}
};

/// The calculator's answer.
struct cudaOccResult {
  int activeBlocksPerMultiprocessor;
  unsigned int limitingFactors; ///< cudaOccLimitingFactor_enum bits.
  int blockLimitRegs;
  int blockLimitSharedMem;
  int blockLimitWarps;
  int blockLimitBlocks;
  int blockLimitBarriers;
  int allocatedRegistersPerBlock;
  size_t allocatedSharedMemPerBlock;
  cudaOccPartitionedGCConfig partitionedGCConfig;
};

/// How many blocks of blockSize threads with dynamicSmemSize bytes of dynamic
/// shared memory fit on one multiprocessor, and what limits them.
static __inline__ __host__ cudaOccError cudaOccMaxActiveBlocksPerMultiprocessor(
    cudaOccResult *result, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    int blockSize, size_t dynamicSmemSize) {
  if (!result || !properties || !attributes || !state || blockSize <= 0 ||
      properties->warpSize <= 0 || properties->maxThreadsPerMultiprocessor <= 0)
    return CUDA_OCC_ERROR_INVALID_INPUT;
  const int Unlimited = 0x7fffffff;
  int Warps = (blockSize + properties->warpSize - 1) / properties->warpSize;
  int Threads = Warps * properties->warpSize;
  result->partitionedGCConfig = PARTITIONED_GC_OFF;
  result->blockLimitWarps =
      blockSize > properties->maxThreadsPerBlock
          ? 0
          : properties->maxThreadsPerMultiprocessor / Threads;
  result->blockLimitBlocks = properties->maxBlocksPerMultiprocessor > 0
                                 ? properties->maxBlocksPerMultiprocessor
                                 : Unlimited;
  result->allocatedSharedMemPerBlock =
      attributes->sharedSizeBytes + dynamicSmemSize;
  result->blockLimitSharedMem =
      result->allocatedSharedMemPerBlock == 0
          ? Unlimited
          : (int)(properties->sharedMemPerMultiprocessor /
                  result->allocatedSharedMemPerBlock);
  result->allocatedRegistersPerBlock = attributes->numRegs * Threads;
  result->blockLimitRegs = result->allocatedRegistersPerBlock == 0 ||
                                   properties->regsPerMultiprocessor <= 0
                               ? Unlimited
                               : properties->regsPerMultiprocessor /
                                     result->allocatedRegistersPerBlock;
  result->blockLimitBarriers = Unlimited;
  int Blocks = result->blockLimitWarps;
  if (result->blockLimitBlocks < Blocks)
    Blocks = result->blockLimitBlocks;
  if (result->blockLimitSharedMem < Blocks)
    Blocks = result->blockLimitSharedMem;
  if (result->blockLimitRegs < Blocks)
    Blocks = result->blockLimitRegs;
  result->activeBlocksPerMultiprocessor = Blocks;
  result->limitingFactors =
      (result->blockLimitWarps == Blocks ? OCC_LIMIT_WARPS : 0u) |
      (result->blockLimitRegs == Blocks ? OCC_LIMIT_REGISTERS : 0u) |
      (result->blockLimitSharedMem == Blocks ? OCC_LIMIT_SHARED_MEMORY : 0u) |
      (result->blockLimitBlocks == Blocks ? OCC_LIMIT_BLOCKS : 0u);
  (void)state;
  return CUDA_OCC_SUCCESS;
}

namespace cucpu_occupancy_detail {
/// The block size (a multiple of the warp size, or the largest the kernel
/// and device allow) that keeps the most threads of one multiprocessor busy,
/// and the grid that fills every multiprocessor with it; the dynamic shared
/// memory of a block size is Bytes(size).
template <typename BytesOfSize>
static __inline__ __host__ cudaOccError bestBlockSize(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    BytesOfSize Bytes) {
  if (!minGridSize || !blockSize || !properties || !attributes || !state ||
      properties->warpSize <= 0)
    return CUDA_OCC_ERROR_INVALID_INPUT;
  int Max = properties->maxThreadsPerBlock;
  if (attributes->maxThreadsPerBlock > 0 &&
      attributes->maxThreadsPerBlock < Max)
    Max = attributes->maxThreadsPerBlock;
  int BestSize = 0, BestThreads = 0, BestBlocks = 0;
  for (int Size = Max; Size > 0;) {
    cudaOccResult R;
    cudaOccError E = cudaOccMaxActiveBlocksPerMultiprocessor(
        &R, properties, attributes, state, Size, Bytes(Size));
    if (E != CUDA_OCC_SUCCESS)
      return E;
    if (R.activeBlocksPerMultiprocessor * Size > BestThreads) {
      BestThreads = R.activeBlocksPerMultiprocessor * Size;
      BestSize = Size;
      BestBlocks = R.activeBlocksPerMultiprocessor;
    }
    int Step = Size % properties->warpSize;
    Size -= Step ? Step : properties->warpSize;
  }
  *blockSize = BestSize;
  *minGridSize = BestBlocks * properties->numSms;
  return CUDA_OCC_SUCCESS;
}

/// Dynamic shared memory from a function of the block size, or constant.
struct BytesFrom {
  size_t (*Function)(int);
  size_t Constant;
  __host__ size_t operator()(int Size) const {
    return Function ? Function(Size) : Constant;
  }
};
} // namespace cucpu_occupancy_detail

/// The block size that keeps the most threads of one multiprocessor busy,
/// and the smallest grid that fills every multiprocessor with it; the
/// dynamic shared memory of a block size is blockSizeToDynamicSMemSize(size)
/// when given, else dynamicSMemSize.
static __inline__ __host__ cudaOccError cudaOccMaxPotentialOccupancyBlockSize(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    size_t (*blockSizeToDynamicSMemSize)(int), size_t dynamicSMemSize) {
  cucpu_occupancy_detail::BytesFrom Bytes = {blockSizeToDynamicSMemSize,
                                             dynamicSMemSize};
  return cucpu_occupancy_detail::bestBlockSize(
      minGridSize, blockSize, properties, attributes, state, Bytes);
}

/// The same with dynamicSMemSize bytes for every block size.
static __inline__ __host__ cudaOccError cudaOccMaxPotentialOccupancyBlockSize(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    size_t dynamicSMemSize = 0) {
  cucpu_occupancy_detail::BytesFrom Bytes = {nullptr, dynamicSMemSize};
  return cucpu_occupancy_detail::bestBlockSize(
      minGridSize, blockSize, properties, attributes, state, Bytes);
}

/// The same with blockSizeToDynamicSMemSize(size) bytes (any callable).
template <typename UnaryFunction>
static __inline__ __host__ cudaOccError
cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    UnaryFunction blockSizeToDynamicSMemSize) {
  return cucpu_occupancy_detail::bestBlockSize(minGridSize, blockSize,
                                               properties, attributes, state,
                                               blockSizeToDynamicSMemSize);
}

/// The dynamic shared memory each of numBlocks blocks of blockSize threads
/// can have while all of them fit on one multiprocessor (0 when their
/// threads do not fit).
static __inline__ __host__ cudaOccError cudaOccAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const cudaOccDeviceProp *properties,
    const cudaOccFuncAttributes *attributes, const cudaOccDeviceState *state,
    int numBlocks, int blockSize) {
  if (!dynamicSmemSize || numBlocks <= 0)
    return CUDA_OCC_ERROR_INVALID_INPUT;
  cudaOccResult R;
  cudaOccError E = cudaOccMaxActiveBlocksPerMultiprocessor(
      &R, properties, attributes, state, blockSize, 0);
  if (E != CUDA_OCC_SUCCESS)
    return E;
  size_t PerBlock = properties->sharedMemPerMultiprocessor / numBlocks;
  *dynamicSmemSize = R.activeBlocksPerMultiprocessor < numBlocks ||
                             PerBlock < attributes->sharedSizeBytes
                         ? 0
                         : PerBlock - attributes->sharedSizeBytes;
  return CUDA_OCC_SUCCESS;
}

#endif /* __cplusplus */

#endif /* CUDA_OCCUPANCY_H */

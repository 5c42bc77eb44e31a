/*===- JitAbi.h - The ABI between the driver and JIT-compiled kernels ------===*
 *
 * The driver's execution engine runs a kernel by calling, for every CUDA
 * thread, the thread entry that modules/ compiles for it. The entry gets a
 * CucpuThread; the JIT-compiled code reads its special registers
 * (threadIdx, blockIdx, blockDim, gridDim, laneid, ...) from it and from the
 * CucpuBlock it points to, and passes it to the engine's services for
 * everything that involves other threads (barriers, warp functions).
 *
 * Plain C types only: this layout is shared by C++ code and by IR that the
 * lowering passes generate. Any change here must change both together.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUCPU_MODULES_JITABI_H
#define CUCPU_MODULES_JITABI_H

#include "TextureAbi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One thread block being executed. */
typedef struct CucpuBlock {
  uint32_t BlockIdx[3]; /**< %ctaid */
  uint32_t BlockDim[3]; /**< %ntid */
  uint32_t GridDim[3];  /**< %nctaid */
  uint32_t DynamicSharedOffset; /**< Where extern __shared__ arrays start. */
  char *Shared;          /**< The block's shared memory (static, then dynamic). */
  const char *Params;    /**< The kernel's parameter buffer, CUDA layout. */
  void *Engine;          /**< The execution engine's state for this block. */
  /** The module's texture references as the launch sees them, in image
      order (TextureAbi.h). */
  const CucpuTexture *TexRefs;
  /** The launch's dynamic shared memory in bytes (%dynamic_smem_size); the
      block's shared memory ends DynamicSharedOffset + this past Shared. */
  uint32_t DynamicSharedBytes;
} CucpuBlock;

/** One CUDA thread of a block. */
typedef struct CucpuThread {
  uint32_t ThreadIdx[3]; /**< %tid */
  uint32_t LaneId;       /**< %laneid: linear thread index % 32. */
  uint32_t WarpId;       /**< Linear thread index / 32. */
  uint32_t Reserved;
  const CucpuBlock *Block;
  void *EngineThread;    /**< The engine's state for this thread. */
} CucpuThread;

/** What modules/ compiles for each kernel: runs one CUDA thread to its end. */
typedef void (*CucpuThreadEntry)(CucpuThread *Thread);

/** What modules/ compiles for each kernel whose barriers and warp functions
    it compiles away: runs one whole block, region by region, each region a
    loop over the block's threads. Threads holds one CucpuThread per thread
    of the block (x fastest), filled by the engine; the compiled code passes
    them to the services below. Frame is the block's per-thread storage:
    KernelEntry::FrameBytes per thread, 64-byte aligned, uninitialized,
    followed by CucpuFrameSlackBytes more that may be read (a shuffle reads
    its source lanes' values as one vector, past the end for the lanes that
    keep their own). Returns CucpuBlockDone, or CucpuBlockDiverged when threads that had not
    exited reached different barriers (the kernel broke CUDA's rule). */
typedef int32_t (*CucpuBlockEntry)(const CucpuBlock *Block,
                                   CucpuThread *Threads, char *Frame);
enum { CucpuBlockDone = 0, CucpuBlockDiverged = 1 };
enum { CucpuFrameSlackBytes = 256 };

/** The per-thread arrays a block function keeps for one warp operation, in
    this order, each with one element per thread of the block: Value (i64),
    Mask, LaneOrDelta, Clamp, Result, Pred (i32). Offsets in bytes from the
    first array, for a block of N threads. */
enum {
  CucpuWarpArraysValue = 0,
  CucpuWarpArraysMask = 8,
  CucpuWarpArraysLaneOrDelta = 12,
  CucpuWarpArraysClamp = 16,
  CucpuWarpArraysResult = 20,
  CucpuWarpArraysPred = 24,
  CucpuWarpArraysBytes = 28 /* per thread */
};
/** What a warp operation of a block function is. */
enum {
  CucpuWarpKindSync = 0,
  CucpuWarpKindVote = 1,
  CucpuWarpKindShuffle = 2,
  CucpuWarpKindMatch = 3
};

/* The engine's services, called by JIT-compiled code. The driver gives their
 * addresses to modules/ (JitOptions::RuntimeSymbols) under these names. */

/** __syncthreads: returns when every non-exited thread of the block has
    arrived; threads that have exited count as arrived, as on NVIDIA. */
void __cucpu_barrier(CucpuThread *T);
/** __syncthreads_count (Op 0), _and (Op 1), _or (Op 2) of Predicate. */
int32_t __cucpu_barrier_reduce(CucpuThread *T, int32_t Predicate, int32_t Op);
/** __syncwarp(Mask). */
void __cucpu_warp_sync(CucpuThread *T, uint32_t Mask);
/** A lockstep point (cucpu-warp-lockstep), before a volatile access of
    shared or global memory: the lanes of the caller's warp that wait at the
    lowest-numbered Point go on together, in lane order, once no lane of the
    warp is running; each runs to its next meeting point. */
void __cucpu_lockstep(CucpuThread *T, int32_t Point);
/** Warp vote over the threads of Mask: Mode 0 all, 1 any, 2 uni, 3 ballot. */
uint32_t __cucpu_warp_vote(CucpuThread *T, uint32_t Mask, int32_t Predicate,
                           int32_t Mode);
/** Warp shuffle of a 32-bit Value with NVVM's shfl.sync semantics: Mode 0
    idx, 1 up, 2 down, 3 bfly; LaneOrDelta and Clamp (the packed c operand
    of PTX, i.e. ((32 - width) << 8) | clamp) as the intrinsic gets them.
    *InRange receives the predicate output. */
uint32_t __cucpu_warp_shfl(CucpuThread *T, uint32_t Mask, uint32_t Value,
                           uint32_t LaneOrDelta, uint32_t Clamp, int32_t Mode,
                           int32_t *InRange);
/** __match_any_sync (Mode 0) / __match_all_sync (Mode 1, *Pred set) of a
    64-bit value (32-bit values are zero-extended). */
uint32_t __cucpu_warp_match(CucpuThread *T, uint32_t Mask, uint64_t Value,
                            int32_t Mode, int32_t *Pred);
/** __activemask(): the lanes of the warp that execute it together. A meeting
    point of the warp: it returns once every lane that has not exited waits
    at a warp operation or at a block barrier. */
uint32_t __cucpu_activemask(CucpuThread *T);
/** Lets other threads of the block run (spin loops on shared state). */
void __cucpu_yield(CucpuThread *T);
/** Device printf, with the NVVM vprintf ABI (arguments packed in a buffer
    with natural alignment, floats promoted to double). */
int32_t __cucpu_vprintf(CucpuThread *T, const char *Format, const char *Args);
/** A failed assert: the launch fails with CUDA_ERROR_ASSERT. Does not return. */
void __cucpu_assert_fail(CucpuThread *T, const char *Message, const char *File,
                         uint32_t Line, const char *Function);
/** Kernels' malloc (JIT symbol "malloc"): Bytes of the launch's device
    heap, 16-byte aligned, or null when the heap is full. */
void *__cucpu_device_malloc(uint64_t Bytes);
/** Kernels' free (JIT symbol "free"): the launch fails with
    CUDA_ERROR_ILLEGAL_ADDRESS unless Ptr is null or a live block of the
    heap. */
void __cucpu_device_free(void *Ptr);

/** trap / __trap(): the launch fails with CUDA_ERROR_LAUNCH_FAILED. Does not
    return. */
void __cucpu_trap(CucpuThread *T);
/** CUCPU_MEMCHECK: checks Size bytes at Address, accessed by T (Kind 0 read,
    1 write, 2 atomic, plus 4 when the address derives from the block's shared
    memory); ends the block if the thread may not reach them. */
void __cucpu_memcheck(CucpuThread *T, const void *Address, uint64_t Size,
                      int32_t Kind);

/** A warp operation of a block function: the lanes [Base, Base + Count) of
    the block whose place is Tag (Places[t] == Tag: they reached the
    operation; the others exited) execute operation Kind (CucpuWarpKind*)
    with Mode as __cucpu_warp_vote/match take it; their operands are in the
    warp arrays at Arrays (a block of NumThreads threads); writes their
    Result and Pred. */
void __cucpu_warp_exchange(char *Arrays, uint32_t NumThreads, uint32_t Base,
                           uint32_t Count, const int32_t *Places, int32_t Tag,
                           int32_t Kind, int32_t Mode);
/** __syncthreads_count (Op 0), _and (Op 1), _or (Op 2) of a block function:
    reduces Pred[t] over the NumThreads threads whose place is Tag and writes
    the result to Result[t] for every thread. */
void __cucpu_block_reduce(const int32_t *Pred, int32_t *Result,
                          const int32_t *Places, int32_t Tag,
                          uint32_t NumThreads, int32_t Op);

#ifdef __cplusplus
} /* extern "C" */

static_assert(offsetof(CucpuBlock, BlockIdx) == 0, "JIT ABI");
static_assert(offsetof(CucpuBlock, BlockDim) == 12, "JIT ABI");
static_assert(offsetof(CucpuBlock, GridDim) == 24, "JIT ABI");
static_assert(offsetof(CucpuBlock, DynamicSharedOffset) == 36, "JIT ABI");
static_assert(offsetof(CucpuBlock, Shared) == 40, "JIT ABI");
static_assert(offsetof(CucpuBlock, Params) == 48, "JIT ABI");
static_assert(offsetof(CucpuBlock, Engine) == 56, "JIT ABI");
static_assert(offsetof(CucpuBlock, TexRefs) == 64, "JIT ABI");
static_assert(offsetof(CucpuBlock, DynamicSharedBytes) == 72, "JIT ABI");
static_assert(offsetof(CucpuThread, ThreadIdx) == 0, "JIT ABI");
static_assert(offsetof(CucpuThread, LaneId) == 12, "JIT ABI");
static_assert(offsetof(CucpuThread, WarpId) == 16, "JIT ABI");
static_assert(offsetof(CucpuThread, Block) == 24, "JIT ABI");
static_assert(offsetof(CucpuThread, EngineThread) == 32, "JIT ABI");
#endif

#endif /* CUCPU_MODULES_JITABI_H */

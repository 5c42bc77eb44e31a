/*===- JitAbi.h - The ABI between the driver and JIT-compiled kernels ------===*
 *
 * The driver's execution engine runs a block of a kernel in one of two ways:
 * by calling its block function (CucpuBlockEntry), which runs every thread
 * of the block, or, on the fiber engine, by calling its thread entry
 * (CucpuThreadEntry) once per CUDA thread. Both get the threads'
 * CucpuThreads; the JIT-compiled code reads the special registers
 * (threadIdx, blockIdx, blockDim, gridDim, laneid, ...) from them and from
 * the CucpuBlock they point to, and calls the engine's services
 * (JitServices.def) for what involves other threads and the engine.
 *
 * Plain C types only: this layout is shared by C++ code and by IR that the
 * lowering passes generate. Any change here must change both together.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CUCPU_MODULES_JITABI_H
#define CUCPU_MODULES_JITABI_H

#include "cucpu/modules/abi/TextureAbi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One thread block being executed. */
typedef struct CucpuBlock {
  uint32_t BlockIdx[3];         /**< %ctaid */
  uint32_t BlockDim[3];         /**< %ntid */
  uint32_t GridDim[3];          /**< %nctaid */
  uint32_t DynamicSharedOffset; /**< Where extern __shared__ arrays start. */
  char *Shared;       /**< The block's shared memory (static, then dynamic). */
  const char *Params; /**< The kernel's parameter buffer, CUDA layout. */
  void *Engine;       /**< The execution engine's state for this block. */
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
  void *EngineThread; /**< The engine's state for this thread. */
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
    keep their own). Returns CucpuBlockDone, or CucpuBlockDiverged when threads
   that had not exited reached different barriers (the kernel broke CUDA's
   rule). */
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

/* The engine's services, called by JIT-compiled code (JitServices.def). The
 * driver gives their addresses to modules/ (JitOptions::RuntimeSymbols)
 * under their symbols. */
#define CUCPU_JIT_SERVICE(Symbol, Name, Return, Parameters)                    \
  Return Name Parameters;
#include "cucpu/modules/abi/JitServices.def"

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

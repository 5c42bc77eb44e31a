//===- BlockRunner.h - Runs thread blocks on one OS thread ------*- C++ -*-===//
//
// One BlockRunner per OS thread that runs blocks (pool workers and calling
// threads). It keeps its fibers, shared memory, frames and per-thread slots
// from block to block and from launch to launch.
//
// A kernel with a block function (JitAbi.h, CucpuBlockEntry) runs it on the
// runner's own stack, several blocks per call of runBlocks(); a failed
// assert or a trap jumps out of it (setjmp/longjmp: JIT-compiled frames own
// nothing).
//
// Otherwise every CUDA thread is a fiber. Scheduling: a FIFO of ready
// fibers; when it is empty, a parked fiber starts the next thread that has
// not started; when none is left, fibers that yielded run again; when nothing
// can run and threads remain, the block is deadlocked and fails.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_BLOCKRUNNER_H
#define CUCPU_DRIVER_CORE_BLOCKRUNNER_H

#include "core/Fiber.h"
#include "core/LaunchConfig.h"
#include "core/WarpResult.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <atomic>
#include <csetjmp>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace cucpu {

/// Runs the blocks of launches on the calling OS thread.
class BlockRunner {
public:
  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &operator=(const BlockRunner &) = delete;

  /// The runner of the calling thread.
  static BlockRunner &forThisThread();

  /// Makes room for blocks of \p Config (stacks, shared memory, slots).
  llvm::Error prepare(const LaunchConfig &Config);
  /// Runs blocks \p First .. \p First + \p Count - 1 (linear, x fastest) of
  /// the prepared launch, in order, until \p Stop is set (the launch failed
  /// elsewhere); device printf output goes to \p Output. Returns false if a
  /// block failed (the rest are not run); then failureCode()/failureMessage()
  /// say why.
  bool runBlocks(uint64_t First, uint64_t Count, const std::atomic<bool> &Stop,
                 std::string &Output);
  /// Why the last block failed.
  CUresult failureCode() const { return FailCode; }
  const std::string &failureMessage() const { return FailMessage; }

  // Services for the __cucpu_* functions; \p T is the calling CUDA thread.
  /// __syncthreads and its reductions; returns the reduction of Op (0 count,
  /// 1 and, 2 or) over the predicates of the arrived threads.
  int32_t barrier(CucpuThread *T, int32_t Predicate, int32_t Op);
  /// Any warp operation: waits until every non-exited thread of the mask has
  /// reached a warp operation, then returns this thread's result.
  uint64_t warp(CucpuThread *T, WarpOp Op, uint32_t Mask, uint64_t Value,
                uint32_t LaneOrDelta, uint32_t Clamp, int32_t Mode,
                int32_t *Pred);
  /// A lockstep point (__cucpu_lockstep): the caller waits until no lane of
  /// its warp is running; then the lanes waiting at the lowest \p Point go
  /// on, in lane order, each to its next meeting point.
  void lockstep(CucpuThread *T, int32_t Point);
  /// The non-exited threads of the caller's warp.
  uint32_t activeMask(CucpuThread *T);
  /// Lets the other threads of the block run.
  void yield(CucpuThread *T);
  /// Device malloc: a block of the launch's heap, or null.
  void *deviceMalloc(uint64_t Bytes);
  /// Device free: fails the block unless \p Ptr is null or a live block of
  /// the launch's heap.
  void deviceFree(void *Ptr);
  /// Appends device printf output.
  int32_t print(const char *Format, const char *Args);
  /// Fails the block with \p Code and the message \p Message followed by
  /// \p Detail, and abandons the calling thread; does not return. (Plain
  /// strings: nothing that owns memory may stay on an abandoned stack.)
  [[noreturn]] void abort(CucpuThread *T, CUresult Code, const char *Message,
                          const char *Detail);

  /// CUCPU_MEMCHECK (__cucpu_memcheck): checks that \p Size bytes at
  /// \p Address, read, written or updated (\p Kind 0, 1, 2) by \p T, lie in
  /// memory the thread may reach: the block's shared memory, its own private
  /// memory, or an allocation. If not, reports the access on stderr and ends
  /// the block with CUDA_ERROR_ILLEGAL_ADDRESS (Memcheck.cpp).
  void checkAccess(CucpuThread *T, uintptr_t Address, uint64_t Size,
                   int32_t Kind);
  /// Finds what checkAccess needs of the calling thread before a kernel
  /// runs on it and may use up its stack.
  static void prepareMemcheck();

  /// CUCPU_SYNCCHECK=1: shared-memory accesses are checked for races and
  /// for reliance on implicit warp synchrony (SyncCheck.cpp).
  static bool syncCheckEnabled();

  /// The runner executing kernel code on this thread, or null. Read by the
  /// fault handler (async-signal-safe).
  static BlockRunner *activeOnThisThread();
  /// Set by the watchdog when the launch ran out of time: the next
  /// interruption of this runner's kernel code ends its block, and so do
  /// the fiber scheduler and memcheck's check, which poll it.
  std::atomic<bool> TimedOut{false};
  /// The message of a block the watchdog ended.
  static constexpr const char *TimedOutMessage =
      "The kernel ran longer than CUCPU_WATCHDOG_MS allows and was stopped.";
  /// Ends the block whose kernel code just faulted on this thread, as a trap
  /// does: the launch fails with \p Code. Does not return, so it owns
  /// nothing when it leaves: \p Message is copied before.
  /// \p AbandonedSp is the stack pointer of the code that failed, when the
  /// caller runs on another stack (the fault handler's).
  [[noreturn]] void abortFromFault(CUresult Code, const char *Message,
                                   uintptr_t AbandonedSp = 0);
  /// The lowest usable address of the fiber running a CUDA thread now;
  /// null when kernel code runs on the thread's own stack.
  const void *fiberStackLow() const;

private:
  struct EngineFiber;
  enum class SlotState : uint8_t {
    Unstarted,
    Running,
    Barrier,
    Warp,
    Lockstep,
    Exited
  };
  /// One CUDA thread of the running block.
  struct Slot {
    SlotState State = SlotState::Unstarted;
    WarpOp Op = WarpOp::Sync;
    int32_t Mode = 0; ///< Also the point of a lane in state Lockstep.
    int32_t Pred = 0;
    uint32_t Mask = 0;
    uint32_t LaneOrDelta = 0;
    uint32_t Clamp = 0;
    uint64_t Value = 0;
    uint64_t Result = 0;
    EngineFiber *Fiber = nullptr;
  };

  static void fiberMain(void *Arg);
  /// Whether \p P points into the stack of \p F.
  static bool fiberOwns(const EngineFiber &F, const void *P);
  bool runBlock(uint64_t Linear);
  bool runBlockFunctions(uint64_t First, uint64_t Count,
                         const std::atomic<bool> &Stop);
  void setUpBlock(uint64_t Linear);
  llvm::Error prepareBlockFunction();
  void startThread(EngineFiber &F, unsigned Index);
  void threadExited(EngineFiber &F);
  void releaseBarrier();
  void resolveWarp(unsigned Warp);
  /// Whether lanes waiting in \p A and \p B can be executing one warp
  /// instruction: the same operation in the same mode. __syncwarp() calls
  /// meet wherever they are (bar.warp.sync at different places may match).
  static bool sameWarpOperation(const Slot &A, const Slot &B);
  /// Lets the lanes of \p Warp at the lowest lockstep point go on, once no
  /// lane of the warp runs.
  void resolveLockstep(unsigned Warp);
  void computeWarpResult(unsigned Lane, unsigned Base, uint32_t Waiting);
  void suspend(EngineFiber &F);
  void fail(CUresult Code, std::string Message);
  std::string describeDeadlock() const;
  std::string blockName() const;
  llvm::Expected<EngineFiber *> takeIdleFiber();

  /// CUCPU_SYNCCHECK: one access of a shared word: the thread + 1 (0:
  /// none), the barrier interval and its warp's warp-operation count.
  struct SharedAccess {
    uint32_t Thread = 0, Epoch = 0, WarpEpoch = 0;
  };
  /// The last write of a shared word, its last read, and the last read by
  /// a warp other than that reader's (so that a write sees a read of
  /// another warp even after its own warp read the word).
  struct SharedWord {
    SharedAccess Write, Read, OtherRead;
  };
  void resetSyncCheck();
  /// Checks \p T's access of \p Size bytes at \p Offset of shared memory
  /// against the block's earlier accesses, then records it.
  void checkSharedOrder(CucpuThread *T, uintptr_t Offset, uint64_t Size,
                        bool Writes);
  void reportOrder(const char *What, unsigned Thread, unsigned Other,
                   uintptr_t Offset);
  static constexpr unsigned MaxSyncReports = 4;
  std::vector<SharedWord> Shadow;
  std::vector<uint32_t> WarpEpochs;
  uint32_t BarrierEpoch = 1;
  unsigned SyncReports = 0;

  FiberContext Scheduler;
  std::vector<std::unique_ptr<EngineFiber>> Fibers;
  std::vector<EngineFiber *> Idle;
  std::deque<EngineFiber *> Ready;
  std::deque<EngineFiber *> Yielded;
  std::vector<Slot> Slots;
  size_t StackBytes = 0;

  char *Shared = nullptr;
  size_t SharedBytes = 0;

  /// Block functions run on the calling thread's stack; a failed assert or
  /// a trap jumps back to AbortTarget (JIT-compiled frames own nothing).
  std::jmp_buf *AbortTarget = nullptr;
  /// The frame of runBlockFunctions, which the jump resumes.
  uintptr_t AbortFrame = 0;
  /// Jumps to AbortTarget, abandoning the frames from \p Sp up.
  [[noreturn]] void leaveBlockFunction(uintptr_t Sp);
  std::vector<CucpuThread> Threads;
  char *Frame = nullptr;
  size_t FrameBytes = 0;

  const LaunchConfig *Config = nullptr;
  CucpuBlock Block{};
  unsigned NumThreads = 0;
  unsigned NextThread = 0;
  unsigned Exited = 0;
  unsigned Arrived = 0;
  int32_t BarrierCount = 0, BarrierAnd = 1, BarrierOr = 0;
  int32_t LastCount = 0, LastAnd = 1, LastOr = 0;
  EngineFiber *Current = nullptr;
  std::string *Output = nullptr;
  bool Failed = false;
  CUresult FailCode = CUDA_SUCCESS;
  std::string FailMessage;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_BLOCKRUNNER_H

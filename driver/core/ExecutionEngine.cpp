//===- ExecutionEngine.cpp - Runs kernels on the CPU's cores --------------===//
#include "core/ExecutionEngine.h"

#include "core/BlockRunner.h"
#include "core/Error.h"
#include "core/FaultHandler.h"
#include "core/ThreadPool.h"

#include "cucpu/modules/runtime/KernelAccess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <pthread.h>

using namespace cucpu;

namespace {
/// Grids with at most this many threads in all run on the calling thread:
/// waking the workers would cost more than it saves.
constexpr uint64_t CallerOnlyThreads = 256;

/// How a block-function launch's blocks are dealt (guided): each take is
/// this fraction of a worker's share of what is left. While much is left a
/// worker sweeps long runs of consecutive blocks, which streams memory
/// better than short interleaved runs; the takes shrink towards the end so
/// that the workers finish together.
constexpr uint64_t TakesPerWorkerShare = 4;

/// The shared state of one launch's workers.
struct LaunchState {
  std::atomic<uint64_t> NextBlock{0};

  /// The next blocks for a worker, [First, First + Count): 1 / \p Divisor of
  /// what is left, at least one (a Divisor of 0: one). False when none are
  /// left.
  bool takeBlocks(uint64_t Total, uint64_t Divisor, uint64_t &First,
                  uint64_t &Count) {
    First = NextBlock.load(std::memory_order_relaxed);
    do {
      if (First >= Total)
        return false;
      Count = Divisor ? std::max<uint64_t>((Total - First) / Divisor, 1) : 1;
    } while (!NextBlock.compare_exchange_weak(First, First + Count,
                                              std::memory_order_relaxed));
    return true;
  }
  std::atomic<bool> Failed{false};
  std::mutex Mutex;
  CUresult FailCode = CUDA_SUCCESS;
  std::string FailMessage;
  std::map<uint64_t, std::string> Output; ///< By linear block index.
  /// The threads running blocks now (for the watchdog), under Mutex.
  std::vector<std::pair<pthread_t, BlockRunner *>> Running;
  bool Finished = false; ///< Under Mutex.
  std::condition_variable FinishedChanged;

  void fail(CUresult Code, const std::string &Message) {
    std::lock_guard Lock(Mutex);
    if (FailCode != CUDA_SUCCESS)
      return;
    FailCode = Code;
    FailMessage = Message;
    Failed = true;
  }
};

BlockRunner &runnerOf(CucpuThread *T) {
  return *static_cast<BlockRunner *>(T->Block->Engine);
}

/// Stops a launch that runs longer than \p Ms: marks it failed (no more
/// blocks start), then interrupts the threads running its blocks until they
/// have left kernel code (FaultHandler.h).
void watch(LaunchState &L, unsigned Ms) {
  std::unique_lock Lock(L.Mutex);
  if (L.FinishedChanged.wait_for(Lock, std::chrono::milliseconds(Ms),
                                 [&] { return L.Finished; }))
    return;
  if (L.FailCode == CUDA_SUCCESS) {
    L.FailCode = CUDA_ERROR_LAUNCH_TIMEOUT;
    L.FailMessage = llvm::formatv("The launch ran longer than "
                                  "CUCPU_WATCHDOG_MS={0} and was stopped.",
                                  Ms);
    L.Failed = true;
  }
  while (!L.Finished) {
    for (auto &[Thread, Runner] : L.Running) {
      Runner->TimedOut = true;
      pthread_kill(Thread, watchdogSignal());
    }
    L.FinishedChanged.wait_for(Lock, std::chrono::milliseconds(10),
                               [&] { return L.Finished; });
  }
}
/// The barrier of a cooperative launch (grid_group::sync()). Every block
/// runs on a thread of its own, so blocks waiting here do not keep others
/// from running; one thread of each block arrives per sync, between two
/// block barriers (cooperative_groups.h). A block that fails, or ends while
/// others wait for it, breaks the barrier: the waiting blocks fail rather
/// than wait forever (on a GPU that program would hang).
class GridBarrier {
public:
  explicit GridBarrier(uint64_t Blocks) : Blocks(Blocks) {}

  /// What nvcc's grid sync reads through %envreg1 and %envreg2 (the layout
  /// of NVIDIA's driver ABI: a size, then the barrier word that the blocks
  /// count on with atomics).
  struct alignas(8) Workspace {
    uint32_t Size = sizeof(Workspace);
    uint32_t Barrier = 0;
  } Space;

  /// Returns true when every block has arrived, false if the barrier broke.
  bool arrive() {
    std::unique_lock Lock(Mutex);
    if (Broken || Ended) {
      breakLocked();
      return false;
    }
    uint64_t Round = Rounds;
    if (++Arrived == Blocks) {
      Arrived = 0;
      ++Rounds;
      Changed.notify_all();
      return true;
    }
    Changed.wait(Lock, [&] { return Rounds != Round || Broken; });
    return Rounds != Round;
  }

  /// The launch cannot start all its blocks: whoever waits stops waiting.
  void abandon() {
    std::lock_guard Lock(Mutex);
    breakLocked();
  }

  /// A block has ended, having failed or not.
  void leave(bool Failed) {
    std::lock_guard Lock(Mutex);
    ++Ended;
    if (Failed || Arrived > 0)
      breakLocked();
  }

private:
  void breakLocked() {
    Broken = true;
    Changed.notify_all();
  }

  const uint64_t Blocks;
  std::mutex Mutex;
  std::condition_variable Changed;
  uint64_t Arrived = 0, Rounds = 0, Ended = 0;
  bool Broken = false;
};

/// The grid barrier of the cooperative launch whose block the calling
/// thread runs, or null.
thread_local GridBarrier *CurrentGrid = nullptr;

} // namespace

llvm::Error ExecutionEngine::run(const LaunchConfig &Config, int DeviceOrdinal,
                                 unsigned Workers, std::string &Output) {
  LaunchState L;
  const uint64_t Total = Config.blocks();
  // A block the fiber engine runs is long enough to be dealt alone, and so
  // is each block of a cooperative launch, which has a thread of its own.
  const uint64_t Divisor =
      Config.BlockEntry && !Config.Cooperative
          ? uint64_t(std::max(Workers, 1u)) * TakesPerWorkerShare
          : 0;
  const unsigned WatchdogMs = Config.WatchdogMs;
  auto Job = [&] {
    BlockRunner &R = BlockRunner::forThisThread();
    // The watchdog needs to know who runs blocks; launches without one skip
    // the bookkeeping.
    if (WatchdogMs) {
      std::lock_guard Lock(L.Mutex);
      L.Running.emplace_back(pthread_self(), &R);
    }
    auto Leave = llvm::make_scope_exit([&] {
      if (!WatchdogMs)
        return;
      std::lock_guard Lock(L.Mutex);
      llvm::erase_if(L.Running,
                     [&](const auto &Entry) { return Entry.second == &R; });
      R.TimedOut = false;
    });
    if (llvm::Error E = R.prepare(Config)) {
      std::string Msg;
      CUresult Code = toResult(std::move(E), Msg);
      L.fail(Code, Msg);
      return;
    }
    std::string Text;
    for (;;) {
      if (L.Failed.load(std::memory_order_relaxed))
        return;
      uint64_t B, Count;
      if (!L.takeBlocks(Total, Divisor, B, Count))
        return;
      bool Ok = R.runBlocks(B, Count, L.Failed, Text);
      if (!Text.empty()) {
        std::lock_guard Lock(L.Mutex);
        L.Output.emplace(B, std::move(Text));
        Text.clear();
      }
      if (!Ok) {
        L.fail(R.failureCode(), R.failureMessage());
        return;
      }
      if (Config.Cooperative)
        return;
    }
  };
  std::thread Watchdog;
  if (WatchdogMs) {
    installWatchdogHandler();
    Watchdog = std::thread(watch, std::ref(L), WatchdogMs);
  }
  if (Config.Cooperative) {
    // Every block on a thread of its own, all at once, so that they can
    // meet at the grid barrier; the launch checked that they are few (no
    // more than the device holds at once).
    GridBarrier Barrier(Total);
    std::vector<std::thread> Blocks;
    Blocks.reserve(Total);
    for (uint64_t I = 0; I < Total; ++I) {
      try {
        Blocks.emplace_back([&] {
          CurrentGrid = &Barrier;
          Job();
          Barrier.leave(L.Failed.load());
          CurrentGrid = nullptr;
        });
      } catch (const std::system_error &E) {
        L.fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
               llvm::formatv("A cooperative launch needs a thread for each "
                             "of its {0} blocks; thread {1} could not start "
                             "({2}).",
                             Total, I, E.what())
                   .str());
        Barrier.abandon();
        break;
      }
    }
    for (std::thread &T : Blocks)
      T.join();
  } else if (Workers <= 1 || Total == 1 ||
             Total * Config.threadsPerBlock() <= CallerOnlyThreads) {
    Job();
  } else {
    ThreadPool::forDevice(DeviceOrdinal, Workers).run(Job);
  }
  if (Watchdog.joinable()) {
    {
      std::lock_guard Lock(L.Mutex);
      L.Finished = true;
    }
    L.FinishedChanged.notify_all();
    Watchdog.join();
  }
  for (auto &[Block, Text] : L.Output)
    Output += Text;
  if (L.FailCode != CUDA_SUCCESS)
    return makeError(L.FailCode, L.FailMessage);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Device output
//===----------------------------------------------------------------------===//

namespace {
struct PendingOutput {
  std::mutex Mutex;
  std::map<uint64_t, std::string> ByContext;
};

/// Never destroyed: work that completes during process exit still queues
/// output, which the exit handler of Context.cpp writes.
PendingOutput &pending() {
  static PendingOutput *P = new PendingOutput;
  return *P;
}
} // namespace

void ExecutionEngine::queueOutput(uint64_t ContextId, std::string Text) {
  if (Text.empty())
    return;
  PendingOutput &P = pending();
  std::lock_guard Lock(P.Mutex);
  P.ByContext[ContextId] += Text;
}

void ExecutionEngine::flushOutput(uint64_t ContextId) {
  std::string Text;
  {
    PendingOutput &P = pending();
    std::lock_guard Lock(P.Mutex);
    auto It = P.ByContext.find(ContextId);
    if (It == P.ByContext.end())
      return;
    Text = std::move(It->second);
    P.ByContext.erase(It);
  }
  std::fwrite(Text.data(), 1, Text.size(), stdout);
  std::fflush(stdout);
}

void ExecutionEngine::flushAllOutput() {
  std::map<uint64_t, std::string> All;
  {
    PendingOutput &P = pending();
    std::lock_guard Lock(P.Mutex);
    All.swap(P.ByContext);
  }
  for (auto &[Id, Text] : All)
    std::fwrite(Text.data(), 1, Text.size(), stdout);
  std::fflush(stdout);
}

//===----------------------------------------------------------------------===//
// The services of JitAbi.h
//===----------------------------------------------------------------------===//

extern "C" {

void __cucpu_barrier(CucpuThread *T) { runnerOf(T).barrier(T, 1, 1); }

int32_t __cucpu_barrier_reduce(CucpuThread *T, int32_t Predicate, int32_t Op) {
  return runnerOf(T).barrier(T, Predicate, Op);
}

void __cucpu_warp_sync(CucpuThread *T, uint32_t Mask) {
  runnerOf(T).warp(T, WarpOp::Sync, Mask, 0, 0, 0, 0, nullptr);
}

void __cucpu_lockstep(CucpuThread *T, int32_t Point) {
  runnerOf(T).lockstep(T, Point);
}

uint32_t __cucpu_warp_vote(CucpuThread *T, uint32_t Mask, int32_t Predicate,
                           int32_t Mode) {
  return static_cast<uint32_t>(runnerOf(T).warp(
      T, WarpOp::Vote, Mask, Predicate != 0, 0, 0, Mode, nullptr));
}

uint32_t __cucpu_warp_shfl(CucpuThread *T, uint32_t Mask, uint32_t Value,
                           uint32_t LaneOrDelta, uint32_t Clamp, int32_t Mode,
                           int32_t *InRange) {
  return static_cast<uint32_t>(runnerOf(T).warp(
      T, WarpOp::Shuffle, Mask, Value, LaneOrDelta, Clamp, Mode, InRange));
}

uint32_t __cucpu_warp_match(CucpuThread *T, uint32_t Mask, uint64_t Value,
                            int32_t Mode, int32_t *Pred) {
  return static_cast<uint32_t>(
      runnerOf(T).warp(T, WarpOp::Match, Mask, Value, 0, 0, Mode, Pred));
}

uint32_t __cucpu_activemask(CucpuThread *T) {
  return runnerOf(T).activeMask(T);
}

void __cucpu_yield(CucpuThread *T) { runnerOf(T).yield(T); }

int32_t __cucpu_vprintf(CucpuThread *T, const char *Format, const char *Args) {
  return runnerOf(T).print(Format, Args);
}

void __cucpu_assert_fail(CucpuThread *T, const char *Message, const char *File,
                         uint32_t Line, const char *Function) {
  {
    // NVIDIA's driver prints this line for the failing thread.
    const CucpuBlock &B = *T->Block;
    std::string Text = llvm::formatv(
        "{0}:{1}: {2}: block: [{3},{4},{5}], thread: [{6},{7},{8}] Assertion "
        "`{9}` failed.\n",
        File ? File : "<unknown>", Line, Function ? Function : "<unknown>",
        B.BlockIdx[0], B.BlockIdx[1], B.BlockIdx[2], T->ThreadIdx[0],
        T->ThreadIdx[1], T->ThreadIdx[2], Message ? Message : "");
    std::fwrite(Text.data(), 1, Text.size(), stderr);
    std::fflush(stderr);
  }
  runnerOf(T).abort(T, CUDA_ERROR_ASSERT,
                    "A device-side assertion failed: ", Message ? Message : "");
}

void __cucpu_warp_exchange(char *Arrays, uint32_t NumThreads, uint32_t Base,
                           uint32_t Count, const int32_t *Places, int32_t Tag,
                           int32_t Kind, int32_t Mode) {
  auto Array32 = [&](unsigned Offset) {
    return reinterpret_cast<uint32_t *>(Arrays + size_t(Offset) * NumThreads) +
           Base;
  };
  const uint64_t *Values = reinterpret_cast<const uint64_t *>(Arrays) + Base;
  const uint32_t *Masks = Array32(CucpuWarpArraysMask);
  const uint32_t *LaneOrDelta = Array32(CucpuWarpArraysLaneOrDelta);
  const uint32_t *Clamps = Array32(CucpuWarpArraysClamp);
  uint32_t *Results = Array32(CucpuWarpArraysResult);
  uint32_t *Preds = Array32(CucpuWarpArraysPred);
  uint32_t Present = 0;
  for (unsigned L = 0; L < Count; ++L)
    if (Places[Base + L] == Tag)
      Present |= 1u << L;
  static constexpr WarpOp Ops[] = {WarpOp::Sync, WarpOp::Vote, WarpOp::Shuffle,
                                   WarpOp::Match};
  WarpOp Op = Ops[Kind & 3];
  uint32_t Res[WarpSize], Pred[WarpSize];
  for (unsigned L = 0; L < Count; ++L) {
    if (!(Present & (1u << L)))
      continue;
    WarpLaneResult R = warpLaneResult(
        Op, Mode, L, {Masks[L], Values[L], LaneOrDelta[L], Clamps[L]}, Present,
        [&](unsigned J) { return Values[J]; });
    Res[L] = static_cast<uint32_t>(R.Result);
    Pred[L] = static_cast<uint32_t>(R.Pred);
  }
  for (unsigned L = 0; L < Count; ++L)
    if (Present & (1u << L)) {
      Results[L] = Res[L];
      Preds[L] = Pred[L];
    }
}

void __cucpu_block_reduce(const int32_t *Pred, int32_t *Result,
                          const int32_t *Places, int32_t Tag,
                          uint32_t NumThreads, int32_t Op) {
  int32_t Count = 0, All = 1, Any = 0;
  for (uint32_t T = 0; T < NumThreads; ++T) {
    if (Places[T] != Tag)
      continue;
    int32_t P = Pred[T] != 0;
    Count += P;
    All &= P;
    Any |= P;
  }
  int32_t Value = Op == 0 ? Count : Op == 1 ? All : Any;
  for (uint32_t T = 0; T < NumThreads; ++T)
    Result[T] = Value;
}

void __cucpu_memcheck(CucpuThread *T, const void *Address, uint64_t Size,
                      int32_t Kind) {
  runnerOf(T).checkAccess(T, reinterpret_cast<uintptr_t>(Address), Size, Kind);
}

/// malloc in a kernel: a block of its context's device heap, or null.
void *__cucpu_device_malloc(uint64_t Bytes) {
  return BlockRunner::activeOnThisThread()->deviceMalloc(Bytes);
}

/// free in a kernel.
void __cucpu_device_free(void *Ptr) {
  BlockRunner::activeOnThisThread()->deviceFree(Ptr);
}

int32_t __cucpu_grid_is_cooperative(void) { return CurrentGrid ? 1 : 0; }

uint64_t __cucpu_grid_workspace(void) {
  return CurrentGrid ? reinterpret_cast<uintptr_t>(&CurrentGrid->Space) : 0;
}

void __cucpu_grid_sync(void) {
  BlockRunner *Runner = BlockRunner::activeOnThisThread();
  if (!CurrentGrid)
    Runner->abortFromFault(CUDA_ERROR_LAUNCH_FAILED,
                           "grid_group::sync() needs a cooperative launch "
                           "(cuLaunchCooperativeKernel, "
                           "cudaLaunchCooperativeKernel).");
  if (!CurrentGrid->arrive())
    Runner->abortFromFault(CUDA_ERROR_LAUNCH_FAILED,
                           "The grid barrier broke: another block failed, or "
                           "ended without reaching the grid_group::sync() "
                           "this block waited at.");
}

void __cucpu_trap(CucpuThread *T) {
  runnerOf(T).abort(T, CUDA_ERROR_LAUNCH_FAILED,
                    "The kernel executed a trap instruction (__trap() or "
                    "asm(\"trap;\")).",
                    "");
}

} // extern "C"

llvm::StringMap<void *> ExecutionEngine::runtimeSymbols() {
  // Runtime-library code that finds a kernel's error ends its block.
  modules::setKernelFailure([](int Code, const char *Message) {
    if (BlockRunner *Runner = BlockRunner::activeOnThisThread())
      Runner->abortFromFault(CUresult(Code), Message);
  });
  llvm::StringMap<void *> S;
#define CUCPU_JIT_SERVICE(Symbol, Name, Return, Parameters)                    \
  S[Symbol] = reinterpret_cast<void *>(&Name);
#include "cucpu/modules/abi/JitServices.def"
  return S;
}

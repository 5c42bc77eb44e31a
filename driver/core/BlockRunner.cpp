//===- BlockRunner.cpp - Runs thread blocks as fibers on one OS thread ----===//
#include "core/BlockRunner.h"

#include "core/AddressSanitizer.h"
#include "core/DeviceHeap.h"
#include "core/DevicePrintf.h"
#include "core/Error.h"
#include "core/FaultHandler.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace cucpu;

/// A fiber of the runner with the CUDA thread it currently runs.
struct BlockRunner::EngineFiber {
  std::unique_ptr<Fiber> F;
  CucpuThread Thread{};
  BlockRunner *Runner = nullptr;
  unsigned Index = 0; ///< The slot of the thread it runs.
  bool Busy = false;  ///< Inside a thread (not parked between threads).
};

namespace {
/// Alignment of the block's shared memory and of its dynamic part.
constexpr size_t SharedAlign = 64;

uint32_t bit(unsigned Lane) { return 1u << Lane; }
} // namespace

// A thread gets its runner before it runs its first block, and its fault
// stacks with it.
BlockRunner::BlockRunner() { prepareFaultStacks(); }

BlockRunner::~BlockRunner() {
  std::free(Shared);
  std::free(Frame);
}

BlockRunner &BlockRunner::forThisThread() {
  thread_local BlockRunner Runner;
  return Runner;
}

llvm::Error BlockRunner::prepare(const LaunchConfig &C) {
  Config = &C;
  prepareMemcheck();
  SyncReports = 0;
  NumThreads = C.threadsPerBlock();
  size_t Stack = std::max(C.StackBytes, MinFiberStack);
  if (Stack > StackBytes) {
    // Parked fibers hold nothing: bigger stacks replace them all.
    Fibers.clear();
    StackBytes = Stack;
  }
  size_t Need = llvm::alignTo(C.StaticShared, 16) + C.DynamicShared;
  Need = std::max<size_t>(llvm::alignTo(Need, SharedAlign), SharedAlign);
  if (Need > SharedBytes) {
    std::free(Shared);
    Shared = static_cast<char *>(std::aligned_alloc(SharedAlign, Need));
    SharedBytes = Shared ? Need : 0;
    CU_INVALID_IF(!Shared, CUDA_ERROR_OUT_OF_MEMORY,
                  "The host could not provide {0} bytes of shared memory.",
                  Need);
  }
  if (C.BlockEntry)
    return prepareBlockFunction();
  if (Slots.size() < NumThreads)
    Slots.resize(NumThreads);
  return llvm::Error::success();
}

llvm::Error BlockRunner::prepareBlockFunction() {
  const LaunchConfig &C = *Config;
  size_t Need = llvm::alignTo(
      size_t(C.FrameBytes) * NumThreads + CucpuFrameSlackBytes, SharedAlign);
  if (Need > FrameBytes) {
    std::free(Frame);
    Frame = static_cast<char *>(std::aligned_alloc(SharedAlign, Need));
    FrameBytes = Frame ? Need : 0;
    CU_INVALID_IF(!Frame, CUDA_ERROR_OUT_OF_MEMORY,
                  "The host could not provide {0} bytes of per-thread "
                  "storage for a block.",
                  Need);
  }
  Threads.resize(NumThreads);
  unsigned Bx = C.Block[0], By = C.Block[1];
  for (unsigned I = 0; I < NumThreads; ++I) {
    CucpuThread &T = Threads[I];
    T.ThreadIdx[0] = I % Bx;
    T.ThreadIdx[1] = (I / Bx) % By;
    T.ThreadIdx[2] = I / (Bx * By);
    T.LaneId = I % WarpSize;
    T.WarpId = I / WarpSize;
    T.Block = &Block;
    T.EngineThread = nullptr; // abort() jumps to AbortTarget instead.
  }
  return llvm::Error::success();
}

llvm::Expected<BlockRunner::EngineFiber *> BlockRunner::takeIdleFiber() {
  if (!Idle.empty()) {
    EngineFiber *F = Idle.back();
    Idle.pop_back();
    return F;
  }
  auto EF = std::make_unique<EngineFiber>();
  EF->Runner = this;
  auto F = Fiber::create(StackBytes, &BlockRunner::fiberMain, EF.get());
  if (!F)
    return F.takeError();
  EF->F = std::move(*F);
  Fibers.push_back(std::move(EF));
  return Fibers.back().get();
}

void BlockRunner::fiberMain(void *Arg) {
  auto &EF = *static_cast<EngineFiber *>(Arg);
  BlockRunner &R = *EF.Runner;
  for (;;) {
    // Run threads one after the other until none is left to start; a thread
    // that waits suspends this fiber inside the service it called.
    while (R.NextThread < R.NumThreads && !R.Failed) {
      R.startThread(EF, R.NextThread++);
      R.Config->Entry(&EF.Thread);
      R.threadExited(EF);
    }
    EF.Busy = false;
    R.Idle.push_back(&EF);
    switchFiber(EF.F->context(), R.Scheduler);
  }
}

void BlockRunner::startThread(EngineFiber &F, unsigned Index) {
  F.Busy = true;
  F.Index = Index;
  unsigned Bx = Block.BlockDim[0], By = Block.BlockDim[1];
  F.Thread.ThreadIdx[0] = Index % Bx;
  F.Thread.ThreadIdx[1] = (Index / Bx) % By;
  F.Thread.ThreadIdx[2] = Index / (Bx * By);
  F.Thread.LaneId = Index % WarpSize;
  F.Thread.WarpId = Index / WarpSize;
  F.Thread.Block = &Block;
  F.Thread.EngineThread = &F;
  Slot &S = Slots[Index];
  S.State = SlotState::Running;
  S.Fiber = &F;
}

void BlockRunner::threadExited(EngineFiber &F) {
  Slot &S = Slots[F.Index];
  S.State = SlotState::Exited;
  S.Fiber = nullptr;
  ++Exited;
  // "Threads that have exited count as arrived" at __syncthreads, and the
  // non-exited threads of a mask are the ones a warp operation waits for.
  if (Arrived > 0 && Arrived + Exited == NumThreads)
    releaseBarrier();
  resolveWarp(F.Index / WarpSize);
  resolveLockstep(F.Index / WarpSize);
}

void BlockRunner::suspend(EngineFiber &F) {
  switchFiber(F.F->context(), Scheduler);
}

void BlockRunner::setUpBlock(uint64_t Linear) {
  const LaunchConfig &C = *Config;
  Block.BlockIdx[0] = static_cast<uint32_t>(Linear % C.Grid[0]);
  Block.BlockIdx[1] = static_cast<uint32_t>((Linear / C.Grid[0]) % C.Grid[1]);
  Block.BlockIdx[2] =
      static_cast<uint32_t>(Linear / (uint64_t(C.Grid[0]) * C.Grid[1]));
  for (int I = 0; I < 3; ++I) {
    Block.BlockDim[I] = C.Block[I];
    Block.GridDim[I] = C.Grid[I];
  }
  Block.DynamicSharedOffset =
      static_cast<uint32_t>(llvm::alignTo(C.StaticShared, 16));
  Block.DynamicSharedBytes = C.DynamicShared;
  Block.Shared = Shared;
  Block.Params = C.Params;
  Block.TexRefs = C.TexRefs;
  Block.Engine = this;
  Failed = false;
  FailCode = CUDA_SUCCESS;
  FailMessage.clear();
}

bool BlockRunner::runBlockFunctions(uint64_t First, uint64_t Count,
                                    const std::atomic<bool> &Stop) {
  std::jmp_buf Abort;
  AbortTarget = &Abort;
  AbortFrame = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  // abort() jumps here; nothing below owns resources, and nothing assigned
  // after setjmp is read after the jump.
  if (setjmp(Abort) != 0) {
    AbortTarget = nullptr;
    return false;
  }
  for (uint64_t Linear = First;
       Linear < First + Count && !Stop.load(std::memory_order_relaxed);
       ++Linear) {
    setUpBlock(Linear);
    int32_t Status = Config->BlockEntry(&Block, Threads.data(), Frame);
    if (Status == CucpuBlockDiverged) {
      fail(CUDA_ERROR_LAUNCH_FAILED,
           llvm::formatv("Kernel {0} broke CUDA's barrier rule in block {1}: "
                         "threads that had not exited reached different "
                         "__syncthreads() or warp operations.",
                         Config->KernelName, blockName()));
      AbortTarget = nullptr;
      return false;
    }
  }
  AbortTarget = nullptr;
  return true;
}

namespace {
/// The runner of this thread while it runs blocks (plain data in
/// initial-exec TLS, so that the fault handler may read it).
thread_local __attribute__((tls_model("initial-exec")))
BlockRunner *ActiveRunner = nullptr;
} // namespace

BlockRunner *BlockRunner::activeOnThisThread() { return ActiveRunner; }

const void *BlockRunner::fiberStackLow() const {
  return Current ? Current->F->stackLow() : nullptr;
}

bool BlockRunner::fiberOwns(const EngineFiber &F, const void *P) {
  return F.F && F.F->owns(P);
}

void BlockRunner::leaveBlockFunction(uintptr_t Sp) {
#ifdef CUCPU_ASAN
  // Instrumented frames between Sp and runBlockFunctions (a runtime function
  // that failed the block) keep their redzones poisoned when left by a
  // jump, and AddressSanitizer's own longjmp handling gives up on threads
  // that have switched stacks.
  constexpr uintptr_t MaxAbandoned = uintptr_t(64) << 20;
  if (Sp < AbortFrame && AbortFrame - Sp < MaxAbandoned)
    __asan_unpoison_memory_region(reinterpret_cast<void *>(Sp),
                                  AbortFrame - Sp);
#else
  (void)Sp;
#endif
  std::longjmp(*AbortTarget, 1);
}

void BlockRunner::abortFromFault(CUresult Code, const char *Message,
                                 uintptr_t AbandonedSp) {
  // Every temporary is gone before the jump below.
  fail(Code, llvm::formatv("Kernel {0}, block {1}: {2}", Config->KernelName,
                           blockName(), Message)
                 .str());
  if (AbortTarget) // Out of a block function.
    leaveBlockFunction(
        AbandonedSp ? AbandonedSp
                    : reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  if (Current)
    suspend(*Current); // Not resumed: the scheduler resets the fiber.
  __builtin_trap();
}

void *BlockRunner::deviceMalloc(uint64_t Bytes) {
  return Config->Heap ? Config->Heap->allocate(Bytes) : nullptr;
}

void BlockRunner::deviceFree(void *Ptr) {
  if (!Ptr)
    return;
  auto Result = Config->Heap ? Config->Heap->release(Ptr)
                             : DeviceHeap::Release::NotInHeap;
  if (Result == DeviceHeap::Release::Freed)
    return;
  // As NVIDIA's codes: a wild pointer is an illegal address, a block freed
  // twice an unspecified launch failure.
  bool Wild = Result == DeviceHeap::Release::NotInHeap;
  char Message[160];
  std::snprintf(Message, sizeof(Message),
                Wild ? "free(%p): the pointer is not in the device heap"
                     : "free(%p): not a live block of the device heap (freed "
                       "already?)",
                Ptr);
  abortFromFault(Wild ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_ERROR_LAUNCH_FAILED,
                 Message);
}

bool BlockRunner::runBlocks(uint64_t First, uint64_t Count,
                            const std::atomic<bool> &Stop, std::string &Out) {
  Output = &Out;
  ActiveRunner = this;
  bool Ok = true;
  if (Config->BlockEntry) {
    Ok = runBlockFunctions(First, Count, Stop);
  } else {
    for (uint64_t Linear = First;
         Ok && Linear < First + Count && !Stop.load(std::memory_order_relaxed);
         ++Linear)
      Ok = runBlock(Linear);
  }
  Output = nullptr;
  ActiveRunner = nullptr;
  return Ok;
}

bool BlockRunner::runBlock(uint64_t Linear) {
  setUpBlock(Linear);
  for (unsigned I = 0; I < NumThreads; ++I)
    Slots[I] = Slot();
  NextThread = Exited = Arrived = 0;
  BarrierCount = BarrierOr = 0;
  BarrierAnd = 1;
  Ready.clear();
  Yielded.clear();
  Idle.clear();
  if (syncCheckEnabled())
    resetSyncCheck();
  for (auto &F : Fibers)
    Idle.push_back(F.get());

  for (;;) {
    if (Failed)
      break;
    // The watchdog's signal ends a block only in kernel code; a kernel that
    // spends its time in the engine's services (a volatile spin loop meets
    // its warp at every access) is ended here.
    if (TimedOut.load(std::memory_order_relaxed)) {
      fail(CUDA_ERROR_LAUNCH_TIMEOUT, TimedOutMessage);
      break;
    }
    EngineFiber *Next = nullptr;
    if (!Ready.empty()) {
      Next = Ready.front();
      Ready.pop_front();
    } else if (NextThread < NumThreads) {
      auto F = takeIdleFiber();
      if (!F) {
        std::string Msg;
        fail(toResult(F.takeError(), Msg), Msg);
        break;
      }
      Next = *F;
    } else if (!Yielded.empty()) {
      Ready.swap(Yielded);
      continue;
    } else if (Exited == NumThreads) {
      break;
    } else {
      fail(CUDA_ERROR_LAUNCH_FAILED, describeDeadlock());
      break;
    }
    Current = Next;
    switchFiber(Scheduler, Next->F->context());
  }
  Current = nullptr;
  if (!Failed)
    return true;
  // Abandon the threads stuck inside the block: their stacks hold only
  // kernel frames and engine frames without resources (see abort()).
  for (auto &F : Fibers)
    if (F->Busy) {
      F->F->reset();
      F->Busy = false;
    }
  return false;
}

void BlockRunner::fail(CUresult Code, std::string Message) {
  if (Failed)
    return;
  Failed = true;
  FailCode = Code;
  FailMessage = std::move(Message);
}

std::string BlockRunner::blockName() const {
  return llvm::formatv("({0},{1},{2})", Block.BlockIdx[0], Block.BlockIdx[1],
                       Block.BlockIdx[2]);
}

void BlockRunner::abort(CucpuThread *T, CUresult Code, const char *Message,
                        const char *Detail) {
  fail(Code, std::string(Message) + Detail);
  if (AbortTarget) // Out of a block function.
    leaveBlockFunction(reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  auto &F = *static_cast<EngineFiber *>(T->EngineThread);
  // Nothing on this fiber's stack owns resources past this point: the
  // scheduler resets it instead of resuming it.
  suspend(F);
  __builtin_trap();
}

//===----------------------------------------------------------------------===//
// __syncthreads
//===----------------------------------------------------------------------===//

int32_t BlockRunner::barrier(CucpuThread *T, int32_t Predicate, int32_t Op) {
  auto &F = *static_cast<EngineFiber *>(T->EngineThread);
  BarrierCount += Predicate != 0;
  BarrierAnd &= Predicate != 0;
  BarrierOr |= Predicate != 0;
  ++Arrived;
  if (Arrived + Exited == NumThreads) {
    releaseBarrier(); // The last thread to arrive goes on at once.
  } else {
    Slots[F.Index].State = SlotState::Barrier;
    // Lanes of this warp waiting in __activemask() or at a lockstep point
    // no longer wait for it.
    resolveWarp(F.Index / WarpSize);
    resolveLockstep(F.Index / WarpSize);
    suspend(F);
  }
  // No barrier can complete again before every waiter has read these.
  switch (Op) {
  case 0:
    return LastCount;
  case 1:
    return LastAnd;
  default:
    return LastOr;
  }
}

void BlockRunner::releaseBarrier() {
  ++BarrierEpoch;
  LastCount = BarrierCount;
  LastAnd = BarrierAnd;
  LastOr = BarrierOr;
  BarrierCount = BarrierOr = 0;
  BarrierAnd = 1;
  Arrived = 0;
  for (unsigned I = 0; I < NumThreads; ++I) {
    Slot &S = Slots[I];
    if (S.State != SlotState::Barrier)
      continue;
    S.State = SlotState::Running;
    Ready.push_back(S.Fiber);
  }
}

//===----------------------------------------------------------------------===//
// Warp operations
//===----------------------------------------------------------------------===//

uint64_t BlockRunner::warp(CucpuThread *T, WarpOp Op, uint32_t Mask,
                           uint64_t Value, uint32_t LaneOrDelta, uint32_t Clamp,
                           int32_t Mode, int32_t *Pred) {
  auto &F = *static_cast<EngineFiber *>(T->EngineThread);
  Slot &S = Slots[F.Index];
  S.Op = Op;
  S.Mask = Mask;
  S.Value = Value;
  S.LaneOrDelta = LaneOrDelta;
  S.Clamp = Clamp;
  S.Mode = Mode;
  S.State = SlotState::Warp;
  resolveWarp(F.Index / WarpSize);
  if (S.State == SlotState::Warp) {
    resolveLockstep(F.Index / WarpSize);
    suspend(F);
  }
  if (Pred)
    *Pred = S.Pred;
  return S.Result;
}

bool BlockRunner::sameWarpOperation(const Slot &A, const Slot &B) {
  if (A.Op != B.Op)
    return false;
  return A.Op == WarpOp::Sync || A.Mode == B.Mode;
}

void BlockRunner::resolveWarp(unsigned Warp) {
  unsigned Base = Warp * WarpSize;
  if (Base >= NumThreads)
    return;
  unsigned Count = std::min(WarpSize, NumThreads - Base);
  uint32_t Waiting = 0;
  uint32_t AtBarrier = 0;
  // Lanes past the end of the block do not exist: like exited ones, they are
  // not waited for.
  uint32_t Gone = Count == WarpSize ? 0 : ~((1u << Count) - 1);
  for (unsigned L = 0; L < Count; ++L) {
    SlotState St = Slots[Base + L].State;
    if (St == SlotState::Warp)
      Waiting |= bit(L);
    else if (St == SlotState::Exited)
      Gone |= bit(L);
    else if (St == SlotState::Barrier)
      AtBarrier |= bit(L);
  }
  if (!Waiting)
    return;
  // PTX: "all non-exited threads in membermask must execute the same
  // [warp] instruction"; a thread goes on once every such thread of its
  // mask waits at an operation of the same kind (lanes that diverged and
  // wait at different operations must not mix their operands).
  uint32_t Released = 0, AtActiveMask = 0;
  uint32_t Peers[WarpSize] = {};
  for (unsigned L = 0; L < Count; ++L)
    if (Waiting & bit(L)) {
      const Slot &S = Slots[Base + L];
      uint32_t Need = (S.Mask | bit(L)) & ~Gone;
      if (S.Op == WarpOp::ActiveMask) {
        // __activemask() waits for the lanes that may still join it; a lane
        // blocked at __syncthreads cannot (it diverged), so it is not
        // waited for, as a lane at another warp operation is not counted in.
        Need &= ~AtBarrier;
        AtActiveMask |= bit(L);
        if ((Need & ~Waiting) == 0)
          Released |= bit(L);
        Peers[L] = Waiting;
        continue;
      }
      for (unsigned J = 0; J < Count; ++J)
        if ((Waiting & bit(J)) && sameWarpOperation(S, Slots[Base + J]))
          Peers[L] |= bit(J);
      if ((Need & ~Peers[L]) == 0)
        Released |= bit(L);
    }
  // A GPU's warp reconverges before __activemask() answers: while lanes at
  // other operations go on (they may come to the same __activemask()), the
  // lanes at __activemask() wait for them.
  if (Released & ~AtActiveMask)
    Released &= ~AtActiveMask;
  if (!Released)
    return;
  if (Warp < WarpEpochs.size())
    ++WarpEpochs[Warp]; // Orders the lanes' accesses (CUCPU_SYNCCHECK).
  for (unsigned L = 0; L < Count; ++L)
    if (Released & bit(L))
      computeWarpResult(L, Base, Peers[L]);
  for (unsigned L = 0; L < Count; ++L)
    if (Released & bit(L)) {
      Slot &S = Slots[Base + L];
      S.State = SlotState::Running;
      if (S.Fiber != Current)
        Ready.push_back(S.Fiber);
    }
}

void BlockRunner::lockstep(CucpuThread *T, int32_t Point) {
  auto &F = *static_cast<EngineFiber *>(T->EngineThread);
  Slot &S = Slots[F.Index];
  S.State = SlotState::Lockstep;
  S.Mode = Point;
  resolveLockstep(F.Index / WarpSize);
  // Released or not, the caller waits: released lanes go on in lane order
  // from the ready queue, the caller among them.
  suspend(F);
}

void BlockRunner::resolveLockstep(unsigned Warp) {
  unsigned Base = Warp * WarpSize;
  if (Base >= NumThreads)
    return;
  unsigned Count = std::min(WarpSize, NumThreads - Base);
  // Lanes converge where a GPU's would: a lane that runs (or has yet to
  // start) may still reach the point, so nobody goes on before it stops.
  int32_t Lowest = INT32_MAX;
  for (unsigned L = 0; L < Count; ++L) {
    const Slot &S = Slots[Base + L];
    if (S.State == SlotState::Running || S.State == SlotState::Unstarted)
      return;
    if (S.State == SlotState::Lockstep)
      Lowest = std::min(Lowest, S.Mode);
  }
  if (Lowest == INT32_MAX)
    return;
  for (unsigned L = 0; L < Count; ++L) {
    Slot &S = Slots[Base + L];
    if (S.State == SlotState::Lockstep && S.Mode == Lowest) {
      S.State = SlotState::Running;
      Ready.push_back(S.Fiber);
    }
  }
}

void BlockRunner::computeWarpResult(unsigned Lane, unsigned Base,
                                    uint32_t Waiting) {
  Slot &S = Slots[Base + Lane];
  if (S.Op == WarpOp::ActiveMask) {
    // The lanes that execute this __activemask() together.
    S.Result = 0;
    S.Pred = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((Waiting & bit(L)) && Slots[Base + L].Op == WarpOp::ActiveMask)
        S.Result |= bit(L);
    return;
  }
  WarpLaneResult R = warpLaneResult(
      S.Op, S.Mode, Lane, {S.Mask, S.Value, S.LaneOrDelta, S.Clamp}, Waiting,
      [&](unsigned L) { return Slots[Base + L].Value; });
  S.Result = R.Result;
  S.Pred = R.Pred;
}

uint32_t BlockRunner::activeMask(CucpuThread *T) {
  // On NVIDIA, __activemask() reports the lanes of the warp that are
  // converged with the caller. Fibers run one after another, so converged
  // lanes are found by making the call a meeting point of the warp: it
  // returns once every lane that has not exited waits at a warp operation
  // (or at a block barrier), and answers the lanes waiting at this one.
  return static_cast<uint32_t>(
      warp(T, WarpOp::ActiveMask, ~0u, 0, 0, 0, 0, nullptr));
}

void BlockRunner::yield(CucpuThread *T) {
  auto &F = *static_cast<EngineFiber *>(T->EngineThread);
  // Yielded threads run again only when nothing else can: a spin loop then
  // lets every other thread, started or not, make progress first.
  Yielded.push_back(&F);
  suspend(F);
}

int32_t BlockRunner::print(const char *Format, const char *Args) {
  if (!Output)
    return -1;
  return formatDevicePrintf(Format, Args, *Output);
}

std::string BlockRunner::describeDeadlock() const {
  unsigned AtBarrier = 0, AtWarp = 0;
  std::string FirstWarp;
  for (unsigned I = 0; I < NumThreads; ++I) {
    const Slot &S = Slots[I];
    if (S.State == SlotState::Barrier)
      ++AtBarrier;
    if (S.State != SlotState::Warp)
      continue;
    if (AtWarp++ == 0) {
      unsigned Bx = Block.BlockDim[0], By = Block.BlockDim[1];
      FirstWarp = llvm::formatv(
          " (thread ({0},{1},{2}) waits with mask {3:x8} for lanes that wait "
          "at __syncthreads or at another warp operation)",
          I % Bx, (I / Bx) % By, I / (Bx * By), S.Mask);
    }
  }
  return llvm::formatv("Kernel {0} deadlocked in block {1}: {2} threads wait "
                       "at __syncthreads and {3} at warp operations{4}, {5} "
                       "have exited, and none can go on.",
                       Config->KernelName, blockName(), AtBarrier, AtWarp,
                       FirstWarp, Exited);
}

//===- Context.cpp - A CUDA context ---------------------------------------===//
#include "core/Context.h"

#include "core/Error.h"
#include "core/ExecutionEngine.h"
#include "core/HandleRegistry.h"
#include "core/HostInfo.h"
#include "core/HostMemory.h"
#include "core/IpcMemory.h"
#include "core/MemoryPool.h"
#include "core/Platform.h"

#include "llvm/Support/MathExtras.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>

using namespace cucpu;

namespace {
std::atomic<uint64_t> NextContextId{1};

/// CUCPU_WATCHDOG_MS: how long a launch may run (0, the default: no limit).
unsigned watchdogFromEnvironment() {
  const char *Value = std::getenv("CUCPU_WATCHDOG_MS");
  if (!Value || !*Value)
    return 0;
  char *End = nullptr;
  unsigned long Ms = std::strtoul(Value, &End, 10);
  return *End ? 0 : unsigned(std::min<unsigned long>(Ms, 1u << 30));
}
std::atomic<uint64_t> NextBufferId{1};
/// Which of the HugePageColors the next huge-page allocation gets.
std::atomic<unsigned> NextHugePageColor{0};

/// Defaults of the settable CUlimit values, as NVIDIA's driver reports them
/// (observed on an H200, tests/api/nvidia-results); the device has no
/// persisting L2 lines. Entries of limits that cannot be set are unused.
constexpr std::array<size_t, LimitCount> DefaultLimits = {
    1024,    // CU_LIMIT_STACK_SIZE
    8650752, // CU_LIMIT_PRINTF_FIFO_SIZE
    8388608, // CU_LIMIT_MALLOC_HEAP_SIZE
    0,       // CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH (unsupported)
    2048,    // CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT
    64,      // CU_LIMIT_MAX_L2_FETCH_GRANULARITY
    0,       // CU_LIMIT_PERSISTING_L2_CACHE_SIZE
    0,       // CU_LIMIT_SHMEM_SIZE (query-only)
    0,       // CU_LIMIT_CIG_ENABLED (query-only)
    0,       // CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED (unsupported)
};

/// Why limit \p Limit cannot be read in a plain context, if it cannot.
llvm::Error checkLimitSupported(int Limit) {
  CU_INVALID_IF(Limit < 0 || Limit >= LimitCount, CUDA_ERROR_INVALID_VALUE,
                "{0} is not a valid CUlimit.", Limit);
  CU_INVALID_IF(Limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH,
                CUDA_ERROR_UNSUPPORTED_LIMIT,
                "Device-side synchronization of dynamic parallelism is not "
                "supported, so CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH does not "
                "apply.");
  CU_INVALID_IF(Limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED,
                CUDA_ERROR_UNSUPPORTED_LIMIT,
                "CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED only applies to graphics "
                "interop (CIG) contexts.");
  return llvm::Error::success();
}
} // namespace

Context::Context(Device &Dev, unsigned Flags, bool Primary)
    : Object(ObjectKind::Context), Dev(Dev), Id(NextContextId++),
      Primary(Primary), WatchdogMs(watchdogFromEnvironment()), Flags(Flags),
      Limits(DefaultLimits), Heap([this] {
        std::lock_guard Lock(LimitsMutex);
        return Limits[CU_LIMIT_MALLOC_HEAP_SIZE];
      }) {}

Context::~Context() = default;

/// At exit, work still queued completes and its device output is written
/// before the process's static objects go away.
static void finishWorkAtExit() {
  for (const std::shared_ptr<Context> &C : Platform::get().liveContexts())
    llvm::consumeError(C->queues().drain());
  ExecutionEngine::flushAllOutput();
}

std::shared_ptr<Context> Context::create(Device &Dev, unsigned Flags,
                                         bool Primary) {
  static const bool AtExitRegistered = [] {
    std::atexit(finishWorkAtExit);
    return true;
  }();
  (void)AtExitRegistered;
  std::shared_ptr<Context> C(new Context(Dev, Flags, Primary));
  HandleRegistry::get().add(C);
  Platform::get().addContext(C);
  return C;
}

llvm::Error Context::checkHealthy() const {
  CUresult Code = Fault.load(std::memory_order_acquire);
  if (Code == CUDA_SUCCESS)
    return llvm::Error::success();
  std::lock_guard Lock(FaultMutex);
  return makeError(Code, "The context is unusable after an earlier fault: " +
                             FaultMessage);
}

void Context::markFaulted(CUresult Code, std::string Message) {
  std::lock_guard Lock(FaultMutex);
  if (Fault.load() != CUDA_SUCCESS)
    return;
  FaultMessage = std::move(Message);
  Fault.store(Code, std::memory_order_release);
}

llvm::Expected<uintptr_t> Context::allocate(size_t Bytes, MemoryKind Kind,
                                            unsigned AllocFlags,
                                            MemoryPool *Pool) {
  bool Charged = Kind == MemoryKind::Device || Kind == MemoryKind::Managed;
  bool Huge = Charged && Bytes >= HugePageBytes;
  // Device memory has pages of its own, so that cuIpcGetMemHandle can move
  // them into shared memory without moving anyone else's data (IpcMemory.h).
  size_t Alignment = Huge                         ? HugePageBytes
                     : Kind == MemoryKind::Device ? host::pageBytes()
                                                  : AllocationAlignment;
  size_t Rounded = llvm::alignTo(Bytes, Alignment);
  CU_INVALID_IF(Rounded < Bytes || Rounded > host::physicalMemory(),
                CUDA_ERROR_OUT_OF_MEMORY,
                "Allocation of {0} bytes is larger than the host's memory.",
                Bytes);
  // A huge-page allocation starts a few alignments into its first page
  // (Device.h, HugePageColors); the budget is charged whole huge pages, the
  // storage runs on by the offset.
  size_t Offset =
      Huge ? NextHugePageColor++ % HugePageColors * AllocationAlignment : 0;
  if (Pool)
    CU_TRY(Pool->take(Bytes));
  if (Charged)
    if (llvm::Error E = Dev.reserveMemory(Rounded)) {
      if (Pool)
        Pool->give(Bytes);
      return E;
    }
  auto Release = [&] {
    if (Charged)
      Dev.releaseMemory(Rounded);
    if (Pool)
      Pool->give(Bytes);
  };
  // The memory is committed now, as a GPU's is: a later touch must not be
  // what finds that the host cannot back it.
  if (llvm::Error E = host::checkHostCanBack(Rounded, "the allocation")) {
    Release();
    return E;
  }
  // posix_memalign: the size need not be a multiple of the alignment.
  void *Storage = nullptr;
  size_t StorageBytes = llvm::alignTo(Rounded + Offset, host::pageBytes());
  if (posix_memalign(&Storage, Alignment, StorageBytes) != 0)
    Storage = nullptr;
  if (!Storage) {
    Release();
    return makeError(
        CUDA_ERROR_OUT_OF_MEMORY,
        llvm::formatv("The host could not provide {0} bytes.", Rounded));
  }
  // Only a hint: without huge pages the memory works the same.
  if (Huge)
    (void)madvise(Storage, StorageBytes, MADV_HUGEPAGE);
  if (llvm::Error E = host::commitPages(Storage, StorageBytes)) {
    std::free(Storage);
    Release();
    return E;
  }
  Allocation A;
  A.Base = reinterpret_cast<uintptr_t>(Storage) + Offset;
  A.Offset = Offset;
  A.Size = Bytes;
  A.Charged = Charged ? Rounded : 0;
  A.Kind = Kind;
  A.Flags = AllocFlags;
  A.BufferId = NextBufferId++;
  A.PoolId = Pool ? Pool->id() : 0;
  Memory.insert(A);
  return A.Base;
}

static void releaseStorage(Device &Dev, const Allocation &A) {
  switch (A.Kind) {
  case MemoryKind::RegisteredHost: // The application's memory.
  case MemoryKind::ModuleGlobal:   // A module's.
  case MemoryKind::Mapped:         // The process's (VirtualMemory.h).
    return;
  case MemoryKind::IpcImported:
    ipc::closeMemory(A);
    return;
  case MemoryKind::Device:
    ipc::unexport(A);
    break;
  case MemoryKind::Managed:
  case MemoryKind::PinnedHost:
    break;
  }
  std::free(reinterpret_cast<void *>(A.Base - A.Offset));
  Dev.releaseMemory(A.Charged);
  if (A.PoolId)
    if (std::shared_ptr<MemoryPool> Pool = MemoryPool::byId(A.PoolId))
      Pool->give(A.Size);
}

llvm::Error Context::free(uintptr_t Address,
                          std::initializer_list<MemoryKind> Kinds) {
  // Queued work may still use the memory (cuMemFree synchronizes on NVIDIA),
  // work queued in another context included.
  CU_TRY(Queues.drain());
  drainOtherContexts();
  return release(Address, Kinds);
}

llvm::Error Context::release(uintptr_t Address,
                             std::initializer_list<MemoryKind> Kinds) {
  std::optional<Allocation> A = Memory.eraseAt(Address, Kinds);
  CU_INVALID_IF(!A, CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not the start of an allocation of this context.",
                Address);
  releaseStorage(Dev, *A);
  return llvm::Error::success();
}

uintptr_t Context::adopt(Allocation A) {
  A.BufferId = NextBufferId++;
  Memory.insert(A);
  return A.Base;
}

llvm::Error Context::registerHost(void *Ptr, size_t Bytes, unsigned RegFlags) {
  uintptr_t Base = reinterpret_cast<uintptr_t>(Ptr);
  CU_INVALID_IF(Base + Bytes < Base, CUDA_ERROR_INVALID_VALUE,
                "The range at {0:x} of {1} bytes wraps around the address "
                "space.",
                Base, Bytes);
  for (const auto &C : Platform::get().liveContexts())
    CU_INVALID_IF(C->Memory.overlaps(Base, Bytes),
                  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                  "The range at {0:x} of {1} bytes overlaps memory that is "
                  "already page-locked or registered.",
                  Base, Bytes);
  Allocation A;
  A.Base = Base;
  A.Size = Bytes;
  A.Kind = MemoryKind::RegisteredHost;
  A.Flags = RegFlags;
  A.BufferId = NextBufferId++;
  Memory.insert(A);
  return llvm::Error::success();
}

llvm::Error Context::unregisterHost(void *Ptr) {
  CU_TRY(Queues.drain());
  drainOtherContexts();
  std::optional<Allocation> A = Memory.eraseAt(reinterpret_cast<uintptr_t>(Ptr),
                                               {MemoryKind::RegisteredHost});
  CU_INVALID_IF(!A, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
                "{0} is not the start of a range registered with "
                "cuMemHostRegister in this context.",
                Ptr);
  return llvm::Error::success();
}

llvm::Expected<size_t> Context::limit(int Limit) const {
  CU_TRY(checkLimitSupported(Limit));
  if (Limit == CU_LIMIT_SHMEM_SIZE)
    return static_cast<size_t>(SharedMemoryPerBlockOptIn);
  std::lock_guard Lock(LimitsMutex);
  return Limits[Limit];
}

llvm::Error Context::setLimit(int Limit, size_t Value) {
  CU_TRY(checkLimitSupported(Limit));
  switch (Limit) {
  case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
    // Only a hint; NVIDIA accepts values from 0 to 128 bytes.
    CU_INVALID_IF(Value > 128, CUDA_ERROR_INVALID_VALUE,
                  "The L2 fetch granularity {0} exceeds 128 bytes.", Value);
    break;
  case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
    CU_INVALID_IF(Value != 0, CUDA_ERROR_UNSUPPORTED_LIMIT,
                  "The device has no persisting L2 cache (asked for {0} "
                  "bytes).",
                  Value);
    break;
  case CU_LIMIT_MALLOC_HEAP_SIZE:
    // As on NVIDIA: fixed once a kernel has allocated.
    CU_INVALID_IF(Heap.inUse(), CUDA_ERROR_INVALID_VALUE,
                  "The device heap's size cannot change once a kernel has "
                  "called malloc in this context.");
    break;
  case CU_LIMIT_SHMEM_SIZE:
  case CU_LIMIT_CIG_ENABLED:
    return makeError(
        CUDA_ERROR_NOT_PERMITTED,
        llvm::formatv("Limit {0} can be queried but not set.", Limit));
  default:
    break;
  }
  std::lock_guard Lock(LimitsMutex);
  Limits[Limit] = Value;
  return llvm::Error::success();
}

void Context::own(std::shared_ptr<Object> O) {
  std::lock_guard Lock(OwnedMutex);
  const Object *Key = O.get();
  Owned.emplace(Key, std::move(O));
}

void Context::disown(const Object *O) {
  std::lock_guard Lock(OwnedMutex);
  Owned.erase(O);
}

llvm::Error Context::enablePeer(const Context &Peer) {
  std::lock_guard Lock(PeersMutex);
  CU_INVALID_IF(!Peers.insert(Peer.id()).second,
                CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
                "Peer access to that context is already enabled.");
  return llvm::Error::success();
}

llvm::Error Context::disablePeer(const Context &Peer) {
  std::lock_guard Lock(PeersMutex);
  CU_INVALID_IF(Peers.erase(Peer.id()) == 0, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
                "Peer access to that context has not been enabled.");
  return llvm::Error::success();
}

llvm::Error Context::synchronize() {
  CU_TRY(Queues.drain());
  return finishSynchronize();
}

llvm::Error Context::finishSynchronize() {
  // Device printf output reaches stdout at a synchronization, as on NVIDIA.
  ExecutionEngine::flushOutput(Id);
  return checkHealthy();
}

void Context::drainOtherContexts() {
  for (const std::shared_ptr<Context> &C : Platform::get().liveContexts())
    if (C.get() != this)
      llvm::consumeError(C->Queues.drain());
}

void Context::destroy() {
  // Work already issued completes first (its memory is about to go); the
  // entry points have checked that this thread may wait.
  llvm::consumeError(Queues.drain());
  Queues.close();
  drainOtherContexts();
  ExecutionEngine::flushOutput(Id);
  std::unordered_map<const Object *, std::shared_ptr<Object>> Objects;
  {
    std::lock_guard Lock(OwnedMutex);
    Objects.swap(Owned);
  }
  for (auto &[Key, O] : Objects)
    HandleRegistry::get().remove(O->handleKey());
  Objects.clear();
  for (const Allocation &A : Memory.takeAll())
    releaseStorage(Dev, A);
  Platform::get().removeContext(this);
}

//===- Context.h - A CUDA context -------------------------------*- C++ -*-===//
//
// "A CUDA context is analogous to a CPU process. All resources and actions
// performed within the compute API are encapsulated inside a CUDA context,
// and the system automatically cleans up these resources when the context is
// destroyed." (Programming Guide 1.1, §4.5.3.3)
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_CONTEXT_H
#define CUCPU_DRIVER_CORE_CONTEXT_H

#include "core/Device.h"
#include "core/DeviceHeap.h"
#include "core/LaunchAttributes.h"
#include "core/MemoryRegistry.h"
#include "core/Object.h"
#include "core/WorkQueue.h"

#include "llvm/Support/Error.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

namespace cucpu {

class MemoryPool;

/// Context creation flags cucpu accepts (scheduling, map-host, local-memory
/// resize, coredump and sync-memops bits).
inline constexpr unsigned ContextFlagsMask = 0xff;

/// Number of CUlimit values (CU_LIMIT_STACK_SIZE ..
/// CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED).
inline constexpr int LimitCount = 10;

/// A context: the owner of memory, streams, events and modules, current to
/// any number of threads.
class Context : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Context;

  /// Creates a live context (registered as a handle) on \p Dev.
  static std::shared_ptr<Context> create(Device &Dev, unsigned Flags,
                                         bool Primary);
  ~Context() override;

  Device &device() const { return Dev; }
  /// Unique over the process's lifetime (cuCtxGetId); never reused.
  uint64_t id() const { return Id; }
  bool isPrimary() const { return Primary; }
  unsigned flags() const { return Flags.load(std::memory_order_relaxed); }
  void setFlags(unsigned NewFlags) { Flags.store(NewFlags); }
  /// The API version cuCtxGetApiVersion reports.
  static constexpr unsigned apiVersion() { return 3020; }

  /// cuCtxAttach: one more user; returns the new usage count.
  unsigned attach() { return ++Usage; }
  /// cuCtxDetach: one user fewer; returns the new usage count.
  unsigned detach() { return --Usage; }

  /// The sticky fault of this context, or success.
  llvm::Error checkHealthy() const;
  /// Makes every later call in this context fail with \p Code.
  void markFaulted(CUresult Code, std::string Message);

  /// The allocations of this context.
  MemoryRegistry &memory() { return Memory; }
  /// The heap of its kernels' malloc and free.
  DeviceHeap &deviceHeap() { return Heap; }
  /// Allocates \p Bytes of \p Kind memory (256-byte aligned), from \p Pool
  /// when given (cuMemAllocAsync).
  llvm::Expected<uintptr_t> allocate(size_t Bytes, MemoryKind Kind,
                                     unsigned Flags,
                                     MemoryPool *Pool = nullptr);
  /// Frees the allocation starting at \p Address if it is of one of \p Kinds,
  /// once the queued work of every context is done (cuMemFree).
  llvm::Error free(uintptr_t Address, std::initializer_list<MemoryKind> Kinds);
  /// As free(), without waiting: for a free that a stream reached
  /// (cuMemFreeAsync).
  llvm::Error release(uintptr_t Address,
                      std::initializer_list<MemoryKind> Kinds);
  /// Records memory mapped from elsewhere (cuIpcOpenMemHandle); free()
  /// releases it. Returns its address.
  uintptr_t adopt(Allocation A);
  /// Records [Ptr, Ptr + Bytes) of application memory as page-locked.
  llvm::Error registerHost(void *Ptr, size_t Bytes, unsigned Flags);
  /// Forgets a range recorded by registerHost().
  llvm::Error unregisterHost(void *Ptr);

  /// cuCtxGetLimit / cuCtxSetLimit.
  llvm::Expected<size_t> limit(int Limit) const;
  llvm::Error setLimit(int Limit, size_t Value);

  /// How long a launch in this context may run (CUCPU_WATCHDOG_MS when the
  /// context was created; 0: no limit).
  unsigned watchdogMs() const { return WatchdogMs; }

  /// cuCtxGetCacheConfig / cuCtxSetCacheConfig (a preference only).
  std::atomic<int> CacheConfig{CU_FUNC_CACHE_PREFER_NONE};
  /// cuCtxGetSharedMemConfig / cuCtxSetSharedMemConfig (a preference only).
  std::atomic<int> SharedMemConfig{CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE};

  /// The attributes of the context's default streams (cuStreamSetAttribute
  /// on a NULL, legacy or per-thread stream handle), priority included.
  std::mutex DefaultStreamAttributesMutex;
  LaunchAttributes DefaultStreamAttributes;

  /// Makes this context the owner of \p O (a stream, event or module); it is
  /// destroyed with the context.
  void own(std::shared_ptr<Object> O);
  /// Ends ownership of \p O (destroyed by the application).
  void disown(const Object *O);

  /// cuCtxEnablePeerAccess: lets this context use \p Peer's memory.
  llvm::Error enablePeer(const Context &Peer);
  /// cuCtxDisablePeerAccess.
  llvm::Error disablePeer(const Context &Peer);

  /// The context's legacy default stream and its streams' queues.
  QueueGroup &queues() { return Queues; }
  /// Waits for all work of this context; reports its sticky fault.
  llvm::Error synchronize();
  /// What a synchronizing call does once its wait is over: device printf
  /// output reaches stdout and the sticky fault is reported.
  llvm::Error finishSynchronize();

  /// Releases everything the context owns: owned objects stop being valid
  /// handles and memory is freed. Called once, when the context is destroyed.
  /// Waits for the work queued in the other contexts: it may use this
  /// context's memory (unified addressing), which is about to be released.
  void drainOtherContexts();
  void destroy();

private:
  Context(Device &Dev, unsigned Flags, bool Primary);

  Device &Dev;
  const uint64_t Id;
  const bool Primary;
  const unsigned WatchdogMs;
  std::atomic<unsigned> Flags;
  std::atomic<unsigned> Usage{1};

  mutable std::mutex FaultMutex;
  std::atomic<CUresult> Fault{CUDA_SUCCESS};
  std::string FaultMessage;

  MemoryRegistry Memory;
  QueueGroup Queues;

  mutable std::mutex LimitsMutex;
  std::array<size_t, LimitCount> Limits;
  DeviceHeap Heap;

  std::mutex PeersMutex;
  std::set<uint64_t> Peers; ///< Ids of contexts with peer access enabled.

  std::mutex OwnedMutex;
  std::unordered_map<const Object *, std::shared_ptr<Object>> Owned;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_CONTEXT_H

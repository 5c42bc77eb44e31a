//===- MemoryRegistry.h - The allocations of one context --------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_MEMORYREGISTRY_H
#define CUCPU_DRIVER_CORE_MEMORYREGISTRY_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace cucpu {

/// What an allocation is, as cuPointerGetAttribute reports it.
enum class MemoryKind {
  Device,         ///< cuMemAlloc / cuMemAllocPitch.
  Managed,        ///< cuMemAllocManaged.
  PinnedHost,     ///< cuMemAllocHost / cuMemHostAlloc.
  RegisteredHost, ///< cuMemHostRegister of the application's memory.
  ModuleGlobal,   ///< A loaded module's __device__/__constant__ variable;
                  ///< the module owns it, cuMemFree does not.
  Mapped,         ///< A cuMemMap mapping (VirtualMemory.h), owned by the
                  ///< process rather than a context.
  IpcImported,    ///< Another process's device memory (IpcMemory.h).
};

/// One range of memory the driver knows about.
struct Allocation {
  uintptr_t Base = 0;
  size_t Offset = 0;  ///< From the start of the storage to Base.
  size_t Size = 0;    ///< Bytes the application asked for.
  size_t Charged = 0; ///< Bytes charged to the device's budget.
  MemoryKind Kind = MemoryKind::Device;
  unsigned Flags = 0;    ///< cuMemHostAlloc / cuMemHostRegister flags.
  uint64_t BufferId = 0; ///< Unique id (CU_POINTER_ATTRIBUTE_BUFFER_ID).
  uint64_t PoolId = 0;   ///< The MemoryPool it came from, or 0.

  bool contains(uintptr_t Address) const {
    return Address >= Base && Address - Base < Size;
  }
  /// Whether [Address, Address + Bytes) lies inside this allocation.
  bool containsRange(uintptr_t Address, size_t Bytes) const {
    return contains(Address) && Bytes <= Size - (Address - Base);
  }
  bool isHost() const {
    return Kind == MemoryKind::PinnedHost || Kind == MemoryKind::RegisteredHost;
  }
};

/// The allocations of one context, ordered by address, safe to use from
/// several threads.
class MemoryRegistry {
public:
  /// Records \p A; its range must not overlap a recorded one.
  void insert(const Allocation &A);
  /// The allocation containing \p Address.
  std::optional<Allocation> find(uintptr_t Address) const;
  /// Whether any recorded range overlaps [Address, Address + Bytes).
  bool overlaps(uintptr_t Address, size_t Bytes) const;
  /// Removes and returns the allocation that starts exactly at \p Base and
  /// is of one of the kinds in \p Kinds.
  std::optional<Allocation> eraseAt(uintptr_t Base,
                                    std::initializer_list<MemoryKind> Kinds);
  /// Removes and returns every allocation (context teardown).
  std::vector<Allocation> takeAll();
  /// Sum of the bytes charged by the allocations.
  size_t chargedBytes() const;

private:
  mutable std::shared_mutex Mutex;
  std::map<uintptr_t, Allocation> ByBase;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_MEMORYREGISTRY_H

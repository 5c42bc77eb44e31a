//===- AddressSpace.h - Pointer lookups across contexts ---------*- C++ -*-===//
//
// With unified addressing a pointer identifies its allocation, whichever
// context made it. These lookups search the registries of all live contexts.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ADDRESSSPACE_H
#define CUCPU_DRIVER_CORE_ADDRESSSPACE_H

#include "core/Context.h"
#include "core/MemoryRegistry.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace cucpu {

/// An allocation and the context that owns it.
struct OwnedAllocation {
  /// For a mapping (MemoryKind::Mapped): a live context of its device, or
  /// null when there is none.
  std::shared_ptr<Context> Owner;
  Allocation Range;
};

/// The allocation that contains \p Address, in any live context.
std::optional<OwnedAllocation> findAllocation(uintptr_t Address);

/// Checks that [Address, Address + Bytes) lies inside one allocation the
/// driver knows (device, managed, page-locked or registered memory) and
/// returns it as a host pointer. \p Role names the operand in messages.
llvm::Expected<void *> checkDeviceRange(uintptr_t Address, size_t Bytes,
                                        const char *Role);

/// For generic copies: an address inside a known allocation must have its
/// whole range inside it; any other address is pageable host memory.
llvm::Expected<void *> checkAnyRange(uintptr_t Address, size_t Bytes,
                                     const char *Role);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_ADDRESSSPACE_H

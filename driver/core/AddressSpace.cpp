//===- AddressSpace.cpp - Pointer lookups across contexts -----------------===//
#include "core/AddressSpace.h"

#include "core/Error.h"
#include "core/Platform.h"
#include "core/VirtualMemory.h"

using namespace cucpu;

std::optional<OwnedAllocation> cucpu::findAllocation(uintptr_t Address) {
  auto Contexts = Platform::get().liveContexts();
  for (auto &C : Contexts)
    if (std::optional<Allocation> A = C->memory().find(Address))
      return OwnedAllocation{C, *A};
  std::optional<MappedRange> Mapped =
      VirtualMemory::get().findAccessible(Address);
  if (!Mapped)
    return std::nullopt;
  // A mapping belongs to the process; a context of its device stands in as
  // its owner for the questions asked of owners (cuPointerGetAttribute).
  for (auto &C : Contexts)
    if (C->device().ordinal() == Mapped->DeviceOrdinal)
      return OwnedAllocation{C, Mapped->Range};
  return OwnedAllocation{nullptr, Mapped->Range};
}

/// The allocation a range starting at \p Address must lie in: for mapped
/// memory, the run of mappings side by side around it.
static std::optional<OwnedAllocation> findRangeHolder(uintptr_t Address) {
  std::optional<OwnedAllocation> Found = findAllocation(Address);
  if (Found && Found->Range.Kind == MemoryKind::Mapped)
    if (std::optional<MappedRange> Run =
            VirtualMemory::get().findAccessible(Address, /*WholeRun=*/true))
      Found->Range = Run->Range;
  return Found;
}

llvm::Expected<void *> cucpu::checkDeviceRange(uintptr_t Address, size_t Bytes,
                                               const char *Role) {
  std::optional<OwnedAllocation> Found = findRangeHolder(Address);
  CU_INVALID_IF(!Found, CUDA_ERROR_INVALID_VALUE,
                "The {0} address {1:x} is not inside any allocation.", Role,
                Address);
  const Allocation &A = Found->Range;
  CU_INVALID_IF(!A.containsRange(Address, Bytes), CUDA_ERROR_INVALID_VALUE,
                "The {0} range of {1} bytes at {2:x} runs past the end of its "
                "allocation ({3} bytes at {4:x}).",
                Role, Bytes, Address, A.Size, A.Base);
  return reinterpret_cast<void *>(Address);
}

llvm::Expected<void *> cucpu::checkAnyRange(uintptr_t Address, size_t Bytes,
                                            const char *Role) {
  std::optional<OwnedAllocation> Found = findRangeHolder(Address);
  if (Found)
    CU_INVALID_IF(!Found->Range.containsRange(Address, Bytes),
                  CUDA_ERROR_INVALID_VALUE,
                  "The {0} range of {1} bytes at {2:x} runs past the end of "
                  "its allocation ({3} bytes at {4:x}).",
                  Role, Bytes, Address, Found->Range.Size, Found->Range.Base);
  CU_INVALID_IF(!Address && Bytes, CUDA_ERROR_INVALID_VALUE,
                "The {0} pointer is NULL.", Role);
  return reinterpret_cast<void *>(Address);
}

//===- AddressSpace.cpp - Pointer lookups across contexts -----------------===//
#include "core/AddressSpace.h"

#include "core/Error.h"
#include "core/Platform.h"

using namespace cucpu;

std::optional<OwnedAllocation> cucpu::findAllocation(uintptr_t Address) {
  for (auto &C : Platform::get().liveContexts())
    if (std::optional<Allocation> A = C->memory().find(Address))
      return OwnedAllocation{C, *A};
  return std::nullopt;
}

llvm::Expected<void *> cucpu::checkDeviceRange(uintptr_t Address, size_t Bytes,
                                               const char *Role) {
  std::optional<OwnedAllocation> Found = findAllocation(Address);
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
  std::optional<OwnedAllocation> Found = findAllocation(Address);
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

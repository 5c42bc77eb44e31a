//===- VirtualMemory.h - cuMemCreate, cuMemMap and friends ------*- C++ -*-===//
//
// The virtual memory management API on the CPU. Physical memory is a memfd
// (shareable with other processes as a file descriptor), an address range
// is a PROT_NONE reservation, and a mapping puts part of a memfd at a
// reserved address with mmap(MAP_FIXED). Access rights are mprotect.
//
// These objects belong to the process, not to a context: a reservation or
// mapping outlives the context current when it was made, as on NVIDIA's
// driver.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_VIRTUALMEMORY_H
#define CUCPU_DRIVER_CORE_VIRTUALMEMORY_H

#include <cuda.h>

#include "core/MemoryRegistry.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace cucpu {

class Device;

/// The granularity of every size, offset and address of the API: 2 MiB, as
/// NVIDIA's driver reports for its GPUs (and a huge page on x86-64).
inline constexpr size_t VmmGranularity = size_t(2) << 20;

/// A mapped range as pointer lookups see it, with the device whose memory
/// it is.
struct MappedRange {
  Allocation Range;
  int DeviceOrdinal = 0;
};

/// The process's physical allocations, reservations and mappings.
class VirtualMemory {
public:
  static VirtualMemory &get();

  /// cuMemCreate: \p Bytes of memory of \p Dev (a multiple of the
  /// granularity; \p Prop already checked), committed and charged to the
  /// device's budget.
  llvm::Expected<CUmemGenericAllocationHandle>
  create(Device &Dev, size_t Bytes, const CUmemAllocationProp &Prop);
  /// cuMemRelease: drops one reference to \p Handle; the memory goes when
  /// no reference and no mapping is left.
  llvm::Error release(CUmemGenericAllocationHandle Handle);
  /// cuMemGetAllocationPropertiesFromHandle.
  llvm::Expected<CUmemAllocationProp>
  properties(CUmemGenericAllocationHandle Handle);
  /// cuMemRetainAllocationHandle: the handle of the memory mapped at
  /// \p Address, with one more reference.
  llvm::Expected<CUmemGenericAllocationHandle> retain(uintptr_t Address);
  /// cuMemExportToShareableHandle for CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR:
  /// a new file descriptor the caller owns.
  llvm::Expected<int> exportFd(CUmemGenericAllocationHandle Handle);
  /// cuMemImportFromShareableHandle: a handle to the memory \p Fd (exported
  /// by this or another process) holds; \p Fd stays the caller's.
  llvm::Expected<CUmemGenericAllocationHandle> importFd(int Fd,
                                                        int DeviceOrdinal);

  /// cuMemAddressReserve: \p Bytes of address space aligned to \p Alignment
  /// (0: the granularity), at \p Hint if that range is free.
  llvm::Expected<uintptr_t> reserve(size_t Bytes, size_t Alignment,
                                    uintptr_t Hint);
  /// cuMemAddressFree: the whole reservation made at \p Base of \p Bytes.
  llvm::Error freeReservation(uintptr_t Base, size_t Bytes);

  /// cuMemMap: all of \p Handle (\p Bytes from \p Offset 0) at \p Address,
  /// inside a reservation and over no other mapping; no access until
  /// setAccess.
  llvm::Error map(uintptr_t Address, size_t Bytes, size_t Offset,
                  CUmemGenericAllocationHandle Handle);
  /// cuMemUnmap: [Address, Address + Bytes) must be whole mappings.
  llvm::Error unmap(uintptr_t Address, size_t Bytes);
  /// cuMemSetAccess for one device: [Address, Address + Bytes) must be
  /// mapped throughout.
  llvm::Error setAccess(uintptr_t Address, size_t Bytes, int DeviceOrdinal,
                        CUmemAccess_flags Flags);
  /// cuMemGetAccess: what \p DeviceOrdinal may do at \p Address.
  llvm::Expected<CUmemAccess_flags> access(uintptr_t Address,
                                           int DeviceOrdinal);

  /// The mapping that contains \p Address, or with \p WholeRun the run of
  /// accessible mappings side by side that does (a copy may span them, as on
  /// NVIDIA's driver). A mapping no device may access is not memory the host
  /// may touch: it is not found.
  std::optional<MappedRange> findAccessible(uintptr_t Address,
                                            bool WholeRun = false);

private:
  struct Physical;
  struct Mapping;
  struct HandleEntry {
    std::shared_ptr<Physical> Memory;
    unsigned References = 0;
  };

  VirtualMemory() = default;
  llvm::Expected<HandleEntry &> lookup(CUmemGenericAllocationHandle Handle);
  CUmemGenericAllocationHandle addHandle(std::shared_ptr<Physical> Memory);
  /// Whether reservations side by side cover [Address, Address + Bytes).
  bool insideReservation(uintptr_t Address, size_t Bytes) const;
  /// The mappings that cover [Address, Address + Bytes) without a gap, or
  /// an error naming the first address that is not mapped.
  llvm::Expected<std::vector<Mapping *>> coveringMappings(uintptr_t Address,
                                                          size_t Bytes);

  std::mutex Mutex;
  std::map<CUmemGenericAllocationHandle, HandleEntry> Handles;
  std::map<uintptr_t, size_t> Reservations; ///< Base -> bytes.
  std::map<uintptr_t, Mapping> Mappings;    ///< Address -> mapping.
  CUmemGenericAllocationHandle NextHandle = 0x6d656d0000000001ULL;
  uint64_t NextBufferId = uint64_t(1) << 48;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_VIRTUALMEMORY_H

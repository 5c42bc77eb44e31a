//===- VirtualMemory.cpp - Virtual memory management entry points ---------===//
//
// cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess and their
// companions (CUDA driver API, "Virtual Memory Management"); the work is in
// core/VirtualMemory.
//
//===----------------------------------------------------------------------===//
#include "core/VirtualMemory.h"
#include "api/Handles.h"
#include "core/CurrentContext.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {

/// Handle types an allocation can be exported as on this platform.
constexpr unsigned ExportableHandleTypes =
    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;

/// Checks that \p Location names a device and returns it.
llvm::Expected<Device &> deviceAt(const CUmemLocation &Location) {
  CU_INVALID_IF(Location.type == CU_MEM_LOCATION_TYPE_HOST ||
                    Location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
                    Location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
                CUDA_ERROR_NOT_SUPPORTED,
                "Memory located on the host (location type {0}) is not "
                "supported; a cucpu device's memory is host memory already.",
                int(Location.type));
  CU_INVALID_IF(Location.type != CU_MEM_LOCATION_TYPE_DEVICE,
                CUDA_ERROR_INVALID_VALUE, "{0} is not a memory location type.",
                int(Location.type));
  CU_INVALID_IF(Location.id < 0 || Location.id >= Platform::get().deviceCount(),
                CUDA_ERROR_INVALID_DEVICE,
                "The location names device {0}; there are {1}.", Location.id,
                Platform::get().deviceCount());
  return lookupDevice(Location.id);
}

/// Checks the properties of a physical allocation and returns its device.
llvm::Expected<Device &> checkProperties(const CUmemAllocationProp *Prop) {
  CU_INVALID_IF(!Prop, CUDA_ERROR_INVALID_VALUE,
                "The allocation properties pointer is NULL.");
  CU_INVALID_IF(Prop->type != CU_MEM_ALLOCATION_TYPE_PINNED,
                CUDA_ERROR_INVALID_VALUE,
                "The allocation type must be CU_MEM_ALLOCATION_TYPE_PINNED "
                "(got {0}).",
                int(Prop->type));
  CU_INVALID_IF(Prop->requestedHandleTypes & ~ExportableHandleTypes,
                CUDA_ERROR_NOT_SUPPORTED,
                "Requested handle types {0:x}: only "
                "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR is supported.",
                unsigned(Prop->requestedHandleTypes));
  CU_INVALID_IF(Prop->allocFlags.usage, CUDA_ERROR_NOT_SUPPORTED,
                "Allocation usage flags {0:x} (tile pools, hardware "
                "decompression) are not supported.",
                unsigned(Prop->allocFlags.usage));
  return deviceAt(Prop->location);
}

/// Checks that \p Value is a multiple of the granularity.
llvm::Error checkGranular(size_t Value, const char *What) {
  CU_INVALID_IF(Value % VmmGranularity != 0, CUDA_ERROR_INVALID_VALUE,
                "The {0} ({1:x}) is not a multiple of the allocation "
                "granularity ({2} bytes).",
                What, Value, VmmGranularity);
  return llvm::Error::success();
}

llvm::Error checkRange(CUdeviceptr Ptr, size_t Size) {
  CU_INVALID_IF(!Size, CUDA_ERROR_INVALID_VALUE, "The size is 0 bytes.");
  CU_TRY(checkGranular(Ptr, "address"));
  return checkGranular(Size, "size");
}

} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuMemGetAllocationGranularity(
    size_t *Granularity, const CUmemAllocationProp *Prop,
    CUmemAllocationGranularity_flags Option) {
  return CU_ENTRY(Granularity, Prop, Option).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Granularity, CUDA_ERROR_INVALID_VALUE,
                  "The granularity pointer is NULL.");
    CU_INVALID_IF(Option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
                      Option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUmemAllocationGranularity_flags value.",
                  int(Option));
    // NVIDIA's driver answers without checking the properties' fields
    // (observed on the H200: an invalid type, location type or device).
    CU_INVALID_IF(!Prop, CUDA_ERROR_INVALID_VALUE,
                  "The allocation properties pointer is NULL.");
    *Granularity = VmmGranularity;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *Handle,
                                          size_t Size,
                                          const CUmemAllocationProp *Prop,
                                          unsigned long long Flags) {
  return CU_ENTRY(Handle, Size, Prop, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Handle, CUDA_ERROR_INVALID_VALUE,
                  "The handle pointer is NULL.");
    CU_INVALID_IF(Flags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemCreate flags must be 0 (got {0:x}).", Flags);
    // Physical memory belongs to a device, not a context: NVIDIA's driver
    // creates it with no context current (cuda-samples' memMapIPCDrv).
    CU_TRY_ASSIGN(Device & Dev, checkProperties(Prop));
    CU_INVALID_IF(!Size, CUDA_ERROR_INVALID_VALUE, "The size is 0 bytes.");
    CU_TRY(checkGranular(Size, "size"));
    CU_TRY_ASSIGN(*Handle, VirtualMemory::get().create(Dev, Size, *Prop));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuMemRelease(CUmemGenericAllocationHandle Handle) {
  return CU_ENTRY(Handle).run(
      [&]() -> llvm::Error { return VirtualMemory::get().release(Handle); });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(
    CUmemAllocationProp *Prop, CUmemGenericAllocationHandle Handle) {
  return CU_ENTRY(Prop, Handle).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Prop, CUDA_ERROR_INVALID_VALUE,
                  "The properties pointer is NULL.");
    CU_TRY_ASSIGN(*Prop, VirtualMemory::get().properties(Handle));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *Handle, void *Addr) {
  return CU_ENTRY(Handle, Addr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Handle, CUDA_ERROR_INVALID_VALUE,
                  "The handle pointer is NULL.");
    CU_TRY_ASSIGN(*Handle, VirtualMemory::get().retain(
                               reinterpret_cast<uintptr_t>(Addr)));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemExportToShareableHandle(
    void *Shareable, CUmemGenericAllocationHandle Handle,
    CUmemAllocationHandleType Type, unsigned long long Flags) {
  return CU_ENTRY(Shareable, Handle, Type, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Shareable, CUDA_ERROR_INVALID_VALUE,
                  "The shareable handle pointer is NULL.");
    CU_INVALID_IF(Flags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemExportToShareableHandle flags must be 0 (got {0:x}).",
                  Flags);
    CU_INVALID_IF(Type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                  CUDA_ERROR_INVALID_VALUE,
                  "Handle type {0} cannot be exported here; "
                  "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR can.",
                  int(Type));
    CU_TRY_ASSIGN(int Fd, VirtualMemory::get().exportFd(Handle));
    *static_cast<int *>(Shareable) = Fd;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *Handle,
                               void *OsHandle, CUmemAllocationHandleType Type) {
  return CU_ENTRY(Handle, OsHandle, Type).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Handle, CUDA_ERROR_INVALID_VALUE,
                  "The handle pointer is NULL.");
    CU_INVALID_IF(Type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                  CUDA_ERROR_INVALID_VALUE,
                  "Handle type {0} cannot be imported here; "
                  "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR can.",
                  int(Type));
    // The descriptor does not say which device exported it: the memory is
    // taken as the current context's device's, or device 0's without one.
    std::shared_ptr<Context> C = current::top();
    int Ordinal = C ? C->device().ordinal() : 0;
    // For a file descriptor, the "OS handle" is the descriptor's value.
    int Fd = static_cast<int>(reinterpret_cast<intptr_t>(OsHandle));
    CU_TRY_ASSIGN(*Handle, VirtualMemory::get().importFd(Fd, Ordinal));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *Ptr, size_t Size,
                                                  size_t Alignment,
                                                  CUdeviceptr Addr,
                                                  unsigned long long Flags) {
  return CU_ENTRY(Ptr, Size, Alignment, Addr, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ptr, CUDA_ERROR_INVALID_VALUE,
                  "The address pointer is NULL.");
    CU_INVALID_IF(Flags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemAddressReserve flags must be 0 (got {0:x}).", Flags);
    CU_TRY(current::require());
    CU_INVALID_IF(!Size, CUDA_ERROR_INVALID_VALUE, "The size is 0 bytes.");
    CU_TRY(checkGranular(Size, "size"));
    CU_INVALID_IF(Alignment & (Alignment - 1), CUDA_ERROR_INVALID_VALUE,
                  "The alignment ({0}) is not a power of two.", Alignment);
    CU_TRY_ASSIGN(*Ptr, VirtualMemory::get().reserve(Size, Alignment, Addr));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAddressFree(CUdeviceptr Ptr, size_t Size) {
  return CU_ENTRY(Ptr, Size).run([&]() -> llvm::Error {
    return VirtualMemory::get().freeReservation(Ptr, Size);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemMap(CUdeviceptr Ptr, size_t Size,
                                       size_t Offset,
                                       CUmemGenericAllocationHandle Handle,
                                       unsigned long long Flags) {
  return CU_ENTRY(Ptr, Size, Offset, Handle, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(Flags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemMap flags must be 0 (got {0:x}).", Flags);
    // "offset ... currently must be zero"; NVIDIA's driver answers
    // CUDA_ERROR_NOT_SUPPORTED to any other, and to an address off the
    // granularity (observed on the H200).
    CU_INVALID_IF(Offset, CUDA_ERROR_NOT_SUPPORTED,
                  "cuMemMap maps an allocation from its start: the offset "
                  "must be 0 (got {0:x}).",
                  Offset);
    CU_INVALID_IF(Ptr % VmmGranularity, CUDA_ERROR_NOT_SUPPORTED,
                  "The address ({0:x}) is not a multiple of the allocation "
                  "granularity ({1} bytes).",
                  Ptr, VmmGranularity);
    CU_TRY(checkRange(Ptr, Size));
    return VirtualMemory::get().map(Ptr, Size, Offset, Handle);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemUnmap(CUdeviceptr Ptr, size_t Size) {
  return CU_ENTRY(Ptr, Size).run([&]() -> llvm::Error {
    CU_TRY(checkRange(Ptr, Size));
    return VirtualMemory::get().unmap(Ptr, Size);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemSetAccess(CUdeviceptr Ptr, size_t Size,
                                             const CUmemAccessDesc *Desc,
                                             size_t Count) {
  return CU_ENTRY(Ptr, Size, Desc, Count).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Desc || !Count, CUDA_ERROR_INVALID_VALUE,
                  "The access descriptors are missing.");
    CU_TRY(checkRange(Ptr, Size));
    for (size_t I = 0; I < Count; ++I) {
      CU_TRY_ASSIGN(Device & Dev, deviceAt(Desc[I].location));
      CUmemAccess_flags Flags = Desc[I].flags;
      CU_INVALID_IF(Flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
                        Flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
                        Flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                    CUDA_ERROR_INVALID_VALUE,
                    "{0} is not a CUmemAccess_flags value.", int(Flags));
      CU_TRY(VirtualMemory::get().setAccess(Ptr, Size, Dev.ordinal(), Flags));
    }
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemGetAccess(unsigned long long *Flags,
                                             const CUmemLocation *Location,
                                             CUdeviceptr Ptr) {
  return CU_ENTRY(Flags, Location, Ptr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags || !Location, CUDA_ERROR_INVALID_VALUE,
                  "The flags or location pointer is NULL.");
    CU_TRY_ASSIGN(Device & Dev, deviceAt(*Location));
    CU_TRY_ASSIGN(CUmemAccess_flags Access,
                  VirtualMemory::get().access(Ptr, Dev.ordinal()));
    *Flags = Access;
    return llvm::Error::success();
  });
}

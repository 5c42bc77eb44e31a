//===- Memory.cpp - Allocation and pointer entry points (E.8) -------------===//
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "core/AddressSpace.h"
#include "core/EntryPoint.h"
#include "core/GraphAllocation.h"
#include "core/HandleRegistry.h"
#include "core/MemoryPool.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {
constexpr unsigned HostAllocFlags = CU_MEMHOSTALLOC_PORTABLE |
                                    CU_MEMHOSTALLOC_DEVICEMAP |
                                    CU_MEMHOSTALLOC_WRITECOMBINED;
constexpr unsigned HostRegisterFlags =
    CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
    CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;

llvm::Error checkAllocationSize(size_t Bytes) {
  CU_INVALID_IF(Bytes == 0, CUDA_ERROR_INVALID_VALUE,
                "The allocation size is 0 bytes.");
  return llvm::Error::success();
}

/// Writes one attribute value of \p A (owned by \p Owner) into \p Data.
/// Boolean attributes are written as a 4-byte int, as NVIDIA's driver does
/// (observed with tools/driver-facts).
llvm::Error writePointerAttribute(void *Data, CUpointer_attribute Attribute,
                                  const OwnedAllocation &Owned,
                                  uintptr_t Address) {
  const Allocation &A = Owned.Range;
  auto Put = [&](auto Value) { std::memcpy(Data, &Value, sizeof(Value)); };
  switch (Attribute) {
  case CU_POINTER_ATTRIBUTE_CONTEXT:
    // A mapping belongs to no context: NULL, as NVIDIA answers for it.
    Put(Owned.Owner && A.Kind != MemoryKind::Mapped ? toHandle(*Owned.Owner)
                                                    : CUcontext{});
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    Put(static_cast<unsigned>(A.isHost() ? CU_MEMORYTYPE_HOST
                                         : CU_MEMORYTYPE_DEVICE));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    // Unified addressing: the device sees host memory at its host address.
    Put(static_cast<CUdeviceptr>(Address));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    CU_INVALID_IF(!A.isHost() && A.Kind != MemoryKind::Managed,
                  CUDA_ERROR_INVALID_VALUE,
                  "Device memory at {0:x} has no host pointer.", Address);
    Put(reinterpret_cast<void *>(Address));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    Put(int{1});
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    Put(static_cast<unsigned long long>(A.BufferId));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    Put(int{A.Kind == MemoryKind::Managed});
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
    Put(Owned.Owner ? Owned.Owner->device().ordinal() : 0);
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    Put(int{A.Kind == MemoryKind::Device}); // cuIpcGetMemHandle takes it.
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
  case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
    Put(int{0});
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
  case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
    Put(reinterpret_cast<void *>(A.Base));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
  case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
    Put(A.Size);
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_MAPPED:
    Put(int{1});
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
    Put(static_cast<unsigned long long>(0));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
    Put(static_cast<unsigned>(CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE));
    return llvm::Error::success();
  case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: {
    std::shared_ptr<MemoryPool> Pool =
        A.PoolId ? MemoryPool::byId(A.PoolId) : nullptr;
    bool Live = Pool && HandleRegistry::get().findAs<MemoryPool>(Pool.get());
    Put(Live ? reinterpret_cast<CUmemoryPool>(Pool.get()) : CUmemoryPool{});
    return llvm::Error::success();
  }
  case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
    Put(static_cast<unsigned long long>(A.BufferId));
    return llvm::Error::success();
  default:
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("{0} is not a pointer attribute cucpu "
                                   "reports.",
                                   static_cast<int>(Attribute)));
  }
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  return CU_ENTRY(Free, Total).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    Device &D = C->device();
    if (Total)
      *Total = D.totalMemory();
    if (Free)
      *Free = D.freeMemory();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *Out, size_t Bytes) {
  return CU_ENTRY(Out, Bytes).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer output is NULL.");
    CU_TRY(checkAllocationSize(Bytes));
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY(checkCaptureSafe("cuMemAlloc"));
    CU_TRY_ASSIGN(*Out, C->allocate(Bytes, MemoryKind::Device, 0));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *Out,
                                                 size_t *Pitch,
                                                 size_t WidthInBytes,
                                                 size_t Height,
                                                 unsigned int ElementSize) {
  return CU_ENTRY(Out, Pitch, WidthInBytes, Height, ElementSize)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(!Out || !Pitch, CUDA_ERROR_INVALID_VALUE,
                      "The device pointer and pitch outputs must not be NULL.");
        CU_INVALID_IF(ElementSize != 4 && ElementSize != 8 && ElementSize != 16,
                      CUDA_ERROR_INVALID_VALUE,
                      "The element size must be 4, 8 or 16 bytes (got {0}).",
                      ElementSize);
        CU_INVALID_IF(WidthInBytes == 0 || Height == 0,
                      CUDA_ERROR_INVALID_VALUE,
                      "A pitched allocation of {0} x {1} bytes is empty.",
                      WidthInBytes, Height);
        CU_INVALID_IF(WidthInBytes > MaxPitch, CUDA_ERROR_INVALID_VALUE,
                      "The row width {0} exceeds the maximum pitch {1}.",
                      WidthInBytes, MaxPitch);
        size_t RowPitch = llvm::alignTo(WidthInBytes, PitchAlignment);
        CU_INVALID_IF(Height > SIZE_MAX / RowPitch, CUDA_ERROR_OUT_OF_MEMORY,
                      "A pitched allocation of {0} rows of {1} bytes is too "
                      "large.",
                      Height, RowPitch);
        CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
        CU_TRY_ASSIGN(*Out,
                      C->allocate(RowPitch * Height, MemoryKind::Device, 0));
        *Pitch = RowPitch;
        return llvm::Error::success();
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemFree_v2(CUdeviceptr Ptr) {
  return CU_ENTRY(Ptr).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    if (!Ptr)
      return llvm::Error::success(); // As free(NULL).
    if (std::shared_ptr<GraphAllocation> A = GraphAllocation::find(Ptr)) {
      // The graph keeps the memory for its next launch (GraphAllocation.h).
      CU_TRY(C->synchronize());
      return A->freeOutsideGraph();
    }
    // With unified addressing the pointer names its allocation whichever
    // context is current, as on NVIDIA's driver.
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(Found && Found->Range.Kind == MemoryKind::Mapped,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0:x} was mapped with cuMemMap; cuMemUnmap unmaps it.", Ptr);
    std::shared_ptr<Context> Owner = Found ? Found->Owner : C;
    return Owner->free(Ptr, {MemoryKind::Device, MemoryKind::Managed});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *Out, size_t Bytes,
                                                unsigned int Flags) {
  return CU_ENTRY(Out, Bytes, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer output is NULL.");
    CU_TRY(checkAllocationSize(Bytes));
    CU_INVALID_IF(Flags != CU_MEM_ATTACH_GLOBAL && Flags != CU_MEM_ATTACH_HOST,
                  CUDA_ERROR_INVALID_VALUE,
                  "Managed memory flags must be CU_MEM_ATTACH_GLOBAL or "
                  "CU_MEM_ATTACH_HOST (got {0}).",
                  Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(*Out, C->allocate(Bytes, MemoryKind::Managed, Flags));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemGetAddressRange_v2(CUdeviceptr *Base,
                                                      size_t *Size,
                                                      CUdeviceptr Ptr) {
  return CU_ENTRY(Base, Size, Ptr).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    if (!Base && !Size)
      return llvm::Error::success(); // Nothing asked, as NVIDIA answers.
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(!Found, CUDA_ERROR_NOT_FOUND,
                  "{0:x} is not inside an allocation of the driver.", Ptr);
    if (Base)
      *Base = Found->Range.Base;
    if (Size)
      *Size = Found->Range.Size;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemHostAlloc(void **Out, size_t Bytes,
                                             unsigned int Flags) {
  return CU_ENTRY(Out, Bytes, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The host pointer output is NULL.");
    CU_INVALID_IF(Flags & ~HostAllocFlags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemHostAlloc flags {0:x} contain unknown bits.", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    if (Bytes == 0) {
      // As NVIDIA's driver: an empty page-locked allocation is NULL.
      *Out = nullptr;
      return llvm::Error::success();
    }
    CU_TRY_ASSIGN(uintptr_t P,
                  C->allocate(Bytes, MemoryKind::PinnedHost, Flags));
    *Out = reinterpret_cast<void *>(P);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAllocHost_v2(void **Out, size_t Bytes) {
  return cuMemHostAlloc(Out, Bytes, 0);
}

CUCPU_EXPORT CUresult CUDAAPI cuMemFreeHost(void *Ptr) {
  return CU_ENTRY(Ptr).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    std::optional<OwnedAllocation> Found =
        findAllocation(reinterpret_cast<uintptr_t>(Ptr));
    CU_INVALID_IF(!Found || Found->Range.Kind != MemoryKind::PinnedHost ||
                      Found->Range.Base != reinterpret_cast<uintptr_t>(Ptr),
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} was not returned by cuMemAllocHost or cuMemHostAlloc.",
                  Ptr);
    return Found->Owner->free(Found->Range.Base, {MemoryKind::PinnedHost});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemHostGetDevicePointer_v2(CUdeviceptr *Out,
                                                           void *Ptr,
                                                           unsigned int Flags) {
  return CU_ENTRY(Out, Ptr, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer output is NULL.");
    CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                  "cuMemHostGetDevicePointer flags must be 0 (got {0}).",
                  Flags);
    CU_TRY(current::require());
    std::optional<OwnedAllocation> Found =
        findAllocation(reinterpret_cast<uintptr_t>(Ptr));
    CU_INVALID_IF(!Found || !Found->Range.isHost(), CUDA_ERROR_INVALID_VALUE,
                  "{0} is not page-locked host memory.", Ptr);
    *Out = reinterpret_cast<CUdeviceptr>(Ptr);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemHostGetFlags(unsigned int *Flags,
                                                void *Ptr) {
  return CU_ENTRY(Flags, Ptr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags, CUDA_ERROR_INVALID_VALUE,
                  "The flags pointer is NULL.");
    CU_TRY(current::require());
    std::optional<OwnedAllocation> Found =
        findAllocation(reinterpret_cast<uintptr_t>(Ptr));
    CU_INVALID_IF(!Found || !Found->Range.isHost(), CUDA_ERROR_INVALID_VALUE,
                  "{0} is not page-locked host memory.", Ptr);
    // Unified addressing maps every page-locked allocation into the device.
    *Flags = Found->Range.Flags | CU_MEMHOSTALLOC_DEVICEMAP;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemHostRegister_v2(void *Ptr, size_t Bytes,
                                                   unsigned int Flags) {
  return CU_ENTRY(Ptr, Bytes, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ptr, CUDA_ERROR_INVALID_VALUE, "The host pointer is NULL.");
    CU_TRY(checkAllocationSize(Bytes));
    CU_INVALID_IF(Flags & ~HostRegisterFlags, CUDA_ERROR_INVALID_VALUE,
                  "cuMemHostRegister flags {0:x} contain unknown bits.", Flags);
    CU_INVALID_IF(Flags & CU_MEMHOSTREGISTER_IOMEMORY, CUDA_ERROR_NOT_SUPPORTED,
                  "Registering I/O memory is not supported by cucpu devices.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    return C->registerHost(Ptr, Bytes, Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *Ptr) {
  return CU_ENTRY(Ptr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ptr, CUDA_ERROR_INVALID_VALUE, "The host pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    return C->unregisterHost(Ptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuPointerGetAttribute(
    void *Data, CUpointer_attribute Attribute, CUdeviceptr Ptr) {
  return CU_ENTRY(Data, Attribute, Ptr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Data, CUDA_ERROR_INVALID_VALUE, "The data pointer is NULL.");
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(!Found, CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not memory allocated or registered with the "
                  "driver.",
                  Ptr);
    if (Attribute == CU_POINTER_ATTRIBUTE_P2P_TOKENS) {
      CU_INVALID_IF(Found->Range.isHost(), CUDA_ERROR_INVALID_VALUE,
                    "Peer-to-peer tokens exist only for device memory.");
      return makeError(CUDA_ERROR_NOT_SUPPORTED,
                       "Peer-to-peer tokens (GPUDirect RDMA) do not exist on "
                       "cucpu devices.");
    }
    return writePointerAttribute(Data, Attribute, *Found, Ptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuPointerGetAttributes(
    unsigned int NumAttributes, CUpointer_attribute *Attributes, void **Data,
    CUdeviceptr Ptr) {
  return CU_ENTRY(NumAttributes, Attributes, Data, Ptr)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(NumAttributes == 0 || !Attributes || !Data,
                      CUDA_ERROR_INVALID_VALUE,
                      "The attribute count must be positive and the arrays "
                      "non-NULL.");
        std::optional<OwnedAllocation> Found = findAllocation(Ptr);
        for (unsigned I = 0; I < NumAttributes; ++I) {
          CU_INVALID_IF(!Data[I], CUDA_ERROR_INVALID_VALUE,
                        "Output {0} of the attribute list is NULL.", I);
          if (Found) {
            // An attribute that does not apply (a device pointer's host
            // address) reads as NULL here instead of failing the whole query.
            if (llvm::Error E = writePointerAttribute(Data[I], Attributes[I],
                                                      *Found, Ptr)) {
              std::string Message;
              if (toResult(std::move(E), Message) != CUDA_ERROR_INVALID_VALUE ||
                  Attributes[I] != CU_POINTER_ATTRIBUTE_HOST_POINTER)
                return makeError(CUDA_ERROR_INVALID_VALUE, Message);
              std::memset(Data[I], 0, sizeof(void *));
            }
            continue;
          }
          // "Unlike cuPointerGetAttribute, this function will not return an
          // error when the ptr encountered is not a valid CUDA pointer": every
          // attribute reads as zero / NULL instead.
          switch (Attributes[I]) {
          case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
            *static_cast<int *>(Data[I]) = -2;
            break;
          case CU_POINTER_ATTRIBUTE_CONTEXT:
          case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
          case CU_POINTER_ATTRIBUTE_HOST_POINTER:
          case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
          case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
          case CU_POINTER_ATTRIBUTE_BUFFER_ID:
          case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
          case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
          case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
          case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
          case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
            std::memset(Data[I], 0, 8);
            break;
          case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
          case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
            std::memset(Data[I], 0, sizeof(unsigned));
            break;
          default:
            std::memset(Data[I], 0, sizeof(int));
            break;
          }
        }
        return llvm::Error::success();
      });
}

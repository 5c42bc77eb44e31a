//===- MemoryPool.cpp - Stream-ordered allocation entry points ------------===//
//
// cuMemAllocAsync, cuMemFreeAsync and memory pools (CUDA driver API,
// "Stream Ordered Memory Allocator"); the pools are core/MemoryPool.
//
//===----------------------------------------------------------------------===//
#include "core/MemoryPool.h"
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/AddressSpace.h"
#include "core/CurrentContext.h"
#include "core/EntryPoint.h"
#include "core/GraphAllocation.h"
#include "core/HandleRegistry.h"
#include "core/Platform.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {

CUmemoryPool poolHandle(MemoryPool &Pool) {
  return reinterpret_cast<CUmemoryPool>(&Pool);
}

llvm::Expected<std::shared_ptr<MemoryPool>> lookupPool(CUmemoryPool H) {
  return lookupHandle<MemoryPool>(H, {"memory pool", CUDA_ERROR_INVALID_VALUE});
}

/// The device a pool location names (only devices have pools here).
llvm::Expected<Device &> poolDevice(const CUmemLocation *Location,
                                    CUmemAllocationType Type) {
  CU_INVALID_IF(!Location, CUDA_ERROR_INVALID_VALUE, "The location is NULL.");
  CU_INVALID_IF(Type != CU_MEM_ALLOCATION_TYPE_PINNED, CUDA_ERROR_INVALID_VALUE,
                "Memory pools hold CU_MEM_ALLOCATION_TYPE_PINNED memory (got "
                "type {0}).",
                int(Type));
  CU_INVALID_IF(Location->type == CU_MEM_LOCATION_TYPE_HOST ||
                    Location->type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
                    Location->type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT,
                CUDA_ERROR_NOT_SUPPORTED,
                "Memory pools located on the host are not supported; a "
                "cucpu device's memory is host memory already.");
  CU_INVALID_IF(Location->type != CU_MEM_LOCATION_TYPE_DEVICE,
                CUDA_ERROR_INVALID_VALUE, "{0} is not a memory location type.",
                int(Location->type));
  // A location that names no device is a bad value, not a bad device
  // (observed on an H200 through cudaMemGetDefaultMemPool).
  CU_INVALID_IF(
      Location->id < 0 || Location->id >= Platform::get().deviceCount(),
      CUDA_ERROR_INVALID_VALUE,
      "The location names device {0}, which does not exist.", Location->id);
  return lookupDevice(Location->id);
}

using FindDevice = llvm::function_ref<llvm::Expected<Device &>()>;
enum class PoolOf { Default, Current };

/// Writes the default or current pool of the device \p Find names to
/// \p Out (cuDeviceGet(Default)MemPool, cuMemGet(Default)MemPool).
llvm::Error writePool(CUmemoryPool *Out, FindDevice Find, PoolOf Which) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The pool pointer is NULL.");
  CU_TRY_ASSIGN(Device & D, Find());
  *Out = poolHandle(Which == PoolOf::Default ? *MemoryPool::defaultOf(D)
                                             : *MemoryPool::currentOf(D));
  return llvm::Error::success();
}

/// Makes pool \p H current for the device \p Find names
/// (cuDeviceSetMemPool, cuMemSetMemPool).
llvm::Error makeCurrent(FindDevice Find, CUmemoryPool H) {
  CU_TRY_ASSIGN(Device & D, Find());
  CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
  CU_INVALID_IF(&Pool->device() != &D, CUDA_ERROR_INVALID_VALUE,
                "The pool belongs to device {0}, not device {1}.",
                Pool->device().ordinal(), D.ordinal());
  MemoryPool::setCurrent(D, Pool);
  return llvm::Error::success();
}

/// Allocates \p Bytes from \p Pool, in the current context, usable by the
/// work issued to \p Stream from now on (and by any other work).
llvm::Error allocateAsync(CUdeviceptr *Out, size_t Bytes, MemoryPool &Pool,
                          CUstream Stream) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                "The device pointer output is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY(checkStream(Stream));
  if (!Bytes) {
    // NVIDIA's driver answers an empty allocation with NULL (observed).
    *Out = 0;
    return llvm::Error::success();
  }
  CU_INVALID_IF(&Pool.device() != &C->device(), CUDA_ERROR_INVALID_VALUE,
                "The pool belongs to device {0}, the current context to "
                "device {1}.",
                Pool.device().ordinal(), C->device().ordinal());
  CU_TRY_ASSIGN(std::shared_ptr<cucpu::Stream> S, lookupStream(Stream));
  if (capturing(S.get())) {
    // Captured, the allocation becomes a graph's allocation node, whose
    // address the program gets now.
    NodeParams P;
    P.Type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    P.AllocProps = Pool.properties();
    CU_TRY_ASSIGN(P.Allocation, GraphAllocation::create(C, Pool, Bytes));
    uintptr_t Address = P.Allocation->address();
    CU_TRY(captureNode(*S, std::move(P)));
    *Out = Address;
    return llvm::Error::success();
  }
  CU_TRY_ASSIGN(*Out, C->allocate(Bytes, MemoryKind::Device, 0, &Pool));
  return llvm::Error::success();
}

/// cuMemFreeAsync of graph allocation \p A: a free node when \p Stream is
/// being captured, else the end of the memory's use until the graph's next
/// launch (GraphAllocation.h).
llvm::Error freeGraphMemory(std::shared_ptr<GraphAllocation> A,
                            CUstream Stream) {
  CU_TRY_ASSIGN(std::shared_ptr<cucpu::Stream> S, lookupStream(Stream));
  if (capturing(S.get())) {
    NodeParams P;
    P.Type = CU_GRAPH_NODE_TYPE_MEM_FREE;
    P.Allocation = std::move(A);
    return captureNode(*S, std::move(P));
  }
  return A->freeOutsideGraph();
}

} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *Pool,
                                                        CUdevice Dev) {
  return CU_ENTRY(Pool, Dev).run([&] {
    return writePool(Pool, [&] { return lookupDevice(Dev); }, PoolOf::Default);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool *Pool,
                                                 CUdevice Dev) {
  return CU_ENTRY(Pool, Dev).run([&] {
    return writePool(Pool, [&] { return lookupDevice(Dev); }, PoolOf::Current);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceSetMemPool(CUdevice Dev, CUmemoryPool H) {
  return CU_ENTRY(Dev, H).run(
      [&] { return makeCurrent([&] { return lookupDevice(Dev); }, H); });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool *Pool,
                                                     CUmemLocation *Location,
                                                     CUmemAllocationType Type) {
  return CU_ENTRY(Pool, Location, Type).run([&] {
    return writePool(
        Pool, [&] { return poolDevice(Location, Type); }, PoolOf::Default);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool *Pool,
                                              CUmemLocation *Location,
                                              CUmemAllocationType Type) {
  return CU_ENTRY(Pool, Location, Type).run([&] {
    return writePool(
        Pool, [&] { return poolDevice(Location, Type); }, PoolOf::Current);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemSetMemPool(CUmemLocation *Location,
                                              CUmemAllocationType Type,
                                              CUmemoryPool H) {
  return CU_ENTRY(Location, Type, H).run([&] {
    return makeCurrent([&] { return poolDevice(Location, Type); }, H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool *Pool,
                                              const CUmemPoolProps *Props) {
  return CU_ENTRY(Pool, Props).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Pool || !Props, CUDA_ERROR_INVALID_VALUE,
                  "The pool or properties pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, poolDevice(&Props->location, Props->allocType));
    CU_INVALID_IF(Props->handleTypes != CU_MEM_HANDLE_TYPE_NONE,
                  CUDA_ERROR_NOT_SUPPORTED,
                  "Pools whose memory can be exported (handle types {0:x}) "
                  "are not supported yet.",
                  unsigned(Props->handleTypes));
    CU_INVALID_IF(Props->usage, CUDA_ERROR_NOT_SUPPORTED,
                  "Pool usage flags {0:x} are not supported.",
                  unsigned(Props->usage));
    *Pool = poolHandle(*MemoryPool::create(D, *Props));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    return MemoryPool::destroy(Pool);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool H,
                                              size_t MinBytesToKeep) {
  return CU_ENTRY(H, MinBytesToKeep).run([&]() -> llvm::Error {
    // A pool keeps no memory in reserve (core/MemoryPool.h): nothing to trim.
    return lookupPool(H).takeError();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool H,
                                                    CUmemPool_attribute Attr,
                                                    void *Value) {
  return CU_ENTRY(H, Attr, Value).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    return Pool->setAttribute(Attr, Value);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool H,
                                                    CUmemPool_attribute Attr,
                                                    void *Value) {
  return CU_ENTRY(H, Attr, Value).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    return Pool->attribute(Attr, Value);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool H,
                                                 const CUmemAccessDesc *Map,
                                                 size_t Count) {
  return CU_ENTRY(H, Map, Count).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    CU_INVALID_IF(!Map && Count, CUDA_ERROR_INVALID_VALUE,
                  "The access descriptors are NULL.");
    for (size_t I = 0; I < Count; ++I) {
      CU_TRY_ASSIGN(Device & D, poolDevice(&Map[I].location,
                                           CU_MEM_ALLOCATION_TYPE_PINNED));
      CUmemAccess_flags Flags = Map[I].flags;
      CU_INVALID_IF(Flags != CU_MEM_ACCESS_FLAGS_PROT_NONE &&
                        Flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
                        Flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
                    CUDA_ERROR_INVALID_VALUE,
                    "{0} is not a CUmemAccess_flags value.", int(Flags));
      Pool->setAccess(D.ordinal(), Flags);
    }
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags *Flags,
                                                 CUmemoryPool H,
                                                 CUmemLocation *Location) {
  return CU_ENTRY(Flags, H, Location).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags, CUDA_ERROR_INVALID_VALUE,
                  "The flags pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    CU_TRY_ASSIGN(Device & D,
                  poolDevice(Location, CU_MEM_ALLOCATION_TYPE_PINNED));
    *Flags = Pool->access(D.ordinal());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *Out, size_t Bytes,
                                              CUstream Stream) {
  return CU_ENTRY(Out, Bytes, Stream).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    return allocateAsync(Out, Bytes, *MemoryPool::currentOf(C->device()),
                         Stream);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *Out,
                                                      size_t Bytes,
                                                      CUmemoryPool H,
                                                      CUstream Stream) {
  return CU_ENTRY(Out, Bytes, H, Stream).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<MemoryPool> Pool, lookupPool(H));
    return allocateAsync(Out, Bytes, *Pool, Stream);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr Ptr, CUstream Stream) {
  return CU_ENTRY(Ptr, Stream).run([&]() -> llvm::Error {
    CU_TRY(checkStream(Stream));
    if (!Ptr)
      return llvm::Error::success(); // As free(NULL), and as NVIDIA answers.
    if (std::shared_ptr<GraphAllocation> A = GraphAllocation::find(Ptr))
      return freeGraphMemory(std::move(A), Stream);
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(!Found || !Found->Owner ||
                      (Found->Range.Kind != MemoryKind::Device &&
                       Found->Range.Kind != MemoryKind::Managed) ||
                      Found->Range.Base != Ptr,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not the start of device memory (cuMemAllocAsync, "
                  "cuMemAlloc).",
                  Ptr);
    std::shared_ptr<Context> Owner = Found->Owner;
    // The memory goes when the stream reaches the free, not before: work
    // issued earlier may still use it.
    return issueWork(
        Stream, /*Async=*/true,
        [Owner, Ptr] {
          llvm::consumeError(
              Owner->release(Ptr, {MemoryKind::Device, MemoryKind::Managed}));
        },
        CU_GRAPH_NODE_TYPE_MEM_FREE);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice Dev) {
  return CU_ENTRY(Dev).run([&]() -> llvm::Error {
    // Graph memory is held by its graphs only: there is none to trim.
    return lookupDevice(Dev).takeError();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetGraphMemAttribute(
    CUdevice Dev, CUgraphMem_attribute Attr, void *Value) {
  return CU_ENTRY(Dev, Attr, Value).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    auto *Out = static_cast<cuuint64_t *>(Value);
    switch (Attr) {
    // Graph memory is reserved as it is used: both counts are the same.
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
      *Out = GraphAllocation::bytesOf(D);
      return llvm::Error::success();
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
      *Out = GraphAllocation::highOf(D);
      return llvm::Error::success();
    }
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("{0} is not a CUgraphMem_attribute.",
                                   static_cast<int>(Attr)));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceSetGraphMemAttribute(
    CUdevice Dev, CUgraphMem_attribute Attr, void *Value) {
  return CU_ENTRY(Dev, Attr, Value).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    CU_INVALID_IF(Attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
                      Attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
                  CUDA_ERROR_INVALID_VALUE,
                  "Only the high-water marks can be set (attribute {0}).",
                  static_cast<int>(Attr));
    CU_INVALID_IF(*static_cast<cuuint64_t *>(Value) != 0,
                  CUDA_ERROR_INVALID_VALUE,
                  "A high-water mark can only be reset, to 0.");
    GraphAllocation::resetHigh(D);
    return llvm::Error::success();
  });
}

//===- Ipc.cpp - Interprocess communication entry points
//-------------------===//
//
// cuIpcGetMemHandle, cuIpcOpenMemHandle, cuIpcCloseMemHandle,
// cuIpcGetEventHandle and cuIpcOpenEventHandle (CUDA C Programming Guide,
// "Interprocess Communication"); the work is in core/IpcMemory and
// core/IpcEvent.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "core/AddressSpace.h"
#include "core/CurrentContext.h"
#include "core/EntryPoint.h"
#include "core/Event.h"
#include "core/HandleRegistry.h"
#include "core/IpcMemory.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

CUCPU_EXPORT CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *Handle,
                                                CUdeviceptr Ptr) {
  return CU_ENTRY(Handle, Ptr).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Handle, CUDA_ERROR_INVALID_VALUE,
                  "The handle pointer is NULL.");
    CU_TRY(current::require());
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(!Found || Found->Range.Kind != MemoryKind::Device,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0:x} is not memory allocated with cuMemAlloc: only that "
                  "can be shared with cuIpcGetMemHandle.",
                  Ptr);
    CU_TRY_ASSIGN(*Handle, ipc::exportMemory(Found->Range));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr *Ptr,
                                                    CUipcMemHandle Handle,
                                                    unsigned int Flags) {
  return CU_ENTRY(Ptr, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ptr, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer output is NULL.");
    CU_INVALID_IF(Flags & ~unsigned(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
                  CUDA_ERROR_INVALID_VALUE,
                  "cuIpcOpenMemHandle flags {0:x} contain unknown bits.",
                  Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(Allocation A, ipc::openMemory(Handle));
    *Ptr = C->adopt(A);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr Ptr) {
  return CU_ENTRY(Ptr).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    std::optional<OwnedAllocation> Found = findAllocation(Ptr);
    CU_INVALID_IF(!Found || Found->Range.Kind != MemoryKind::IpcImported ||
                      Found->Range.Base != Ptr,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0:x} was not returned by cuIpcOpenMemHandle.", Ptr);
    return Found->Owner->free(Ptr, {MemoryKind::IpcImported});
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle *Handle,
                                                  CUevent H) {
  return CU_ENTRY(Handle, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Handle, CUDA_ERROR_INVALID_VALUE,
                  "The handle pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(H));
    // NVIDIA's driver answers CUDA_ERROR_INVALID_HANDLE (observed).
    CU_INVALID_IF(!E->shared(), CUDA_ERROR_INVALID_HANDLE,
                  "The event was not created with CU_EVENT_INTERPROCESS.");
    *Handle = E->shared()->handle();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuIpcOpenEventHandle(CUevent *Out,
                                                   CUipcEventHandle Handle) {
  return CU_ENTRY(Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The event pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<SharedEventState> State,
                  SharedEventState::open(Handle));
    auto E = std::make_shared<Event>(C, CU_EVENT_INTERPROCESS |
                                            CU_EVENT_DISABLE_TIMING);
    E->share(std::move(State));
    HandleRegistry::get().add(E);
    C->own(E);
    *Out = toHandle(*E);
    return llvm::Error::success();
  });
}

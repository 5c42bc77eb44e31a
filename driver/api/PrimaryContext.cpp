//===- PrimaryContext.cpp - Primary context entry points ------------------===//
//
// Each device has one primary context, shared by every user that retains it
// (the CUDA runtime among them). It is created by the first retain and
// destroyed when the last user releases it, or by a reset.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Ends the primary context of \p D, if active. Caller holds PrimaryMutex.
void destroyPrimary(Device &D) {
  if (!D.Primary)
    return;
  std::shared_ptr<Context> C = std::move(D.Primary);
  D.Primary = nullptr;
  HandleRegistry::get().remove(C.get());
  current::forget(*C);
  C->destroy();
}

llvm::Error checkPrimaryFlags(unsigned Flags) {
  CU_INVALID_IF(Flags & ~ContextFlagsMask, CUDA_ERROR_INVALID_VALUE,
                "Primary context flags {0:x} contain unknown bits.", Flags);
  unsigned Sched = Flags & CU_CTX_SCHED_MASK;
  CU_INVALID_IF(Sched == 3 || Sched > CU_CTX_SCHED_BLOCKING_SYNC,
                CUDA_ERROR_INVALID_VALUE,
                "Primary context flags {0:x} name more than one scheduling "
                "policy.",
                Flags);
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *Out,
                                                       CUdevice Dev) {
  return CU_ENTRY(Out, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The context pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::lock_guard Lock(D.PrimaryMutex);
    if (!D.Primary)
      D.Primary = Context::create(D, D.PrimaryFlags, /*Primary=*/true);
    ++D.PrimaryRetains;
    *Out = toHandle(*D.Primary);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice Dev) {
  return CU_ENTRY(Dev).run([&]() -> llvm::Error {
    CU_TRY(WorkQueue::checkMayWait()); // The last release waits for its work.
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::lock_guard Lock(D.PrimaryMutex);
    CU_INVALID_IF(D.PrimaryRetains == 0, CUDA_ERROR_INVALID_CONTEXT,
                  "The primary context of device {0} is not retained.", Dev);
    if (--D.PrimaryRetains == 0)
      destroyPrimary(D);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice Dev) {
  return CU_ENTRY(Dev).run([&]() -> llvm::Error {
    CU_TRY(WorkQueue::checkMayWait()); // Resetting waits for its work.
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::lock_guard Lock(D.PrimaryMutex);
    destroyPrimary(D);
    D.PrimaryRetains = 0;
    D.PrimaryFlags = 0;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice Dev,
                                                         unsigned int *Flags,
                                                         int *Active) {
  return CU_ENTRY(Dev, Flags, Active).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags || !Active, CUDA_ERROR_INVALID_VALUE,
                  "The flags and active pointers must not be NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::lock_guard Lock(D.PrimaryMutex);
    *Flags = D.Primary ? D.Primary->flags() : D.PrimaryFlags;
    *Active = D.Primary != nullptr;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuDevicePrimaryCtxSetFlags_v2(CUdevice Dev, unsigned int Flags) {
  return CU_ENTRY(Dev, Flags).run([&]() -> llvm::Error {
    CU_TRY(checkPrimaryFlags(Flags));
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::lock_guard Lock(D.PrimaryMutex);
    D.PrimaryFlags = Flags;
    if (D.Primary)
      D.Primary->setFlags(Flags);
    return llvm::Error::success();
  });
}

//===- Context.cpp - Context management entry points (E.3) ----------------===//
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Scheduling policies a context may ask for.
constexpr unsigned SchedulingMask = CU_CTX_SCHED_MASK;

llvm::Error checkContextFlags(unsigned Flags) {
  CU_INVALID_IF(Flags & ~ContextFlagsMask, CUDA_ERROR_INVALID_VALUE,
                "Context flags {0:x} contain unknown bits (known: {1:x}).",
                Flags, ContextFlagsMask);
  unsigned Sched = Flags & SchedulingMask;
  CU_INVALID_IF(
      Sched != CU_CTX_SCHED_AUTO && Sched != CU_CTX_SCHED_SPIN &&
          Sched != CU_CTX_SCHED_YIELD && Sched != CU_CTX_SCHED_BLOCKING_SYNC,
      CUDA_ERROR_INVALID_VALUE,
      "Context flags {0:x} name more than one scheduling policy.", Flags);
  return llvm::Error::success();
}

/// Creates a context on \p Dev and makes it current (pushes it).
llvm::Error createContext(CUcontext *Out, unsigned Flags, CUdevice Dev) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The context pointer is NULL.");
  CU_TRY(checkContextFlags(Flags));
  CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
  std::shared_ptr<Context> C = Context::create(D, Flags, /*Primary=*/false);
  current::push(C);
  *Out = toHandle(*C);
  return llvm::Error::success();
}

/// Execution-affinity parameters restrict a context to some SMs; a CPU
/// device has no partitioning to offer.
llvm::Error checkNoAffinity(const CUexecAffinityParam *Params, int Count) {
  CU_INVALID_IF(Count < 0, CUDA_ERROR_INVALID_VALUE,
                "The affinity parameter count is negative ({0}).", Count);
  CU_INVALID_IF(Count > 0 && !Params, CUDA_ERROR_INVALID_VALUE,
                "{0} affinity parameters but the array is NULL.", Count);
  CU_INVALID_IF(Count > 0, CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                "Execution affinity is not supported by cucpu devices.");
  return llvm::Error::success();
}

/// Destroys \p C: ends its handles and frees its resources.
void destroyContext(const std::shared_ptr<Context> &C) {
  HandleRegistry::get().remove(C.get());
  current::forget(*C);
  C->destroy();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuCtxCreate_v2(CUcontext *Out, unsigned int Flags,
                                             CUdevice Dev) {
  return CU_ENTRY(Out, Flags, Dev).run([&]() -> llvm::Error {
    return createContext(Out, Flags, Dev);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxCreate_v3(CUcontext *Out,
                                             CUexecAffinityParam *Params,
                                             int NumParams, unsigned int Flags,
                                             CUdevice Dev) {
  return CU_ENTRY(Out, Params, NumParams, Flags, Dev).run([&]() -> llvm::Error {
    CU_TRY(checkNoAffinity(Params, NumParams));
    return createContext(Out, Flags, Dev);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxCreate_v4(CUcontext *Out,
                                             CUctxCreateParams *Params,
                                             unsigned int Flags, CUdevice Dev) {
  return CU_ENTRY(Out, Params, Flags, Dev).run([&]() -> llvm::Error {
    if (Params) {
      CU_TRY(checkNoAffinity(Params->execAffinityParams,
                             Params->numExecAffinityParams));
      CU_INVALID_IF(Params->cigParams, CUDA_ERROR_NOT_SUPPORTED,
                    "Graphics interop (CIG) contexts are not supported by "
                    "cucpu devices.");
    }
    return createContext(Out, Flags, Dev);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxDestroy_v2(CUcontext Ctx) {
  return CU_ENTRY(Ctx).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ctx, CUDA_ERROR_INVALID_VALUE,
                  "The context handle is NULL.");
    CU_TRY(WorkQueue::checkMayWait()); // Destroying waits for its work.
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, lookupContext(Ctx));
    CU_INVALID_IF(C->isPrimary(), CUDA_ERROR_INVALID_CONTEXT,
                  "A primary context is released with "
                  "cuDevicePrimaryCtxRelease, not destroyed.");
    destroyContext(C);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxAttach(CUcontext *Out, unsigned int Flags) {
  return CU_ENTRY(Out, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The context pointer is NULL.");
    CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                  "cuCtxAttach flags must be 0 (got {0}).", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    C->attach();
    *Out = toHandle(*C);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxDetach(CUcontext Ctx) {
  return CU_ENTRY(Ctx).run([&]() -> llvm::Error {
    CU_TRY(WorkQueue::checkMayWait()); // The last detach waits for its work.
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, lookupContext(Ctx));
    CU_INVALID_IF(current::top() != C, CUDA_ERROR_INVALID_CONTEXT,
                  "cuCtxDetach needs the context to be current to the calling "
                  "thread.");
    // "decrements the usage count of the context, and destroys the context
    // if the usage count goes to 0" (E.3.3).
    if (C->detach() == 0)
      destroyContext(C);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext Ctx) {
  return CU_ENTRY(Ctx).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ctx, CUDA_ERROR_INVALID_VALUE,
                  "The context handle is NULL.");
    CU_TRY(WorkQueue::checkMayWait()); // Destroying waits for its work.
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, lookupContext(Ctx));
    current::push(C);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext *Out) {
  return CU_ENTRY(Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!current::hasEntry(), CUDA_ERROR_INVALID_CONTEXT,
                  "No context is current to the calling thread.");
    std::shared_ptr<Context> C = current::pop();
    if (Out)
      *Out = C ? toHandle(*C) : nullptr;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSetCurrent(CUcontext Ctx) {
  return CU_ENTRY(Ctx).run([&]() -> llvm::Error {
    if (!Ctx) {
      current::replaceTop(nullptr);
      return llvm::Error::success();
    }
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, lookupContext(Ctx));
    current::replaceTop(C);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetCurrent(CUcontext *Out) {
  return CU_ENTRY(Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The context pointer is NULL.");
    std::shared_ptr<Context> C = current::top();
    *Out = C ? toHandle(*C) : nullptr;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetDevice(CUdevice *Out) {
  return CU_ENTRY(Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    *Out = C->device().ordinal();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice *Out, CUcontext Ctx) {
  return CU_ENTRY(Out, Ctx).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, contextOrCurrent(Ctx));
    *Out = C->device().ordinal();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetFlags(unsigned int *Flags) {
  return CU_ENTRY(Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags, CUDA_ERROR_INVALID_VALUE,
                  "The flags pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    *Flags = C->flags();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSetFlags(unsigned int Flags) {
  return CU_ENTRY(Flags).run([&]() -> llvm::Error {
    CU_TRY(checkContextFlags(Flags));
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    C->setFlags(Flags);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetId(CUcontext Ctx,
                                         unsigned long long *Id) {
  return CU_ENTRY(Ctx, Id).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Id, CUDA_ERROR_INVALID_VALUE, "The id pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, contextOrCurrent(Ctx));
    *Id = C->id();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetApiVersion(CUcontext Ctx,
                                                 unsigned int *Version) {
  return CU_ENTRY(Ctx, Version).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Version, CUDA_ERROR_INVALID_VALUE,
                  "The version pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, contextOrCurrent(Ctx));
    *Version = C->apiVersion();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSynchronize() {
  return CU_ENTRY().run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY(checkNoCaptureIn(*C));
    return C->synchronize();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext Ctx) {
  return CU_ENTRY(Ctx).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, contextOrCurrent(Ctx));
    CU_TRY(checkNoCaptureIn(*C));
    return C->synchronize();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSetLimit(CUlimit Limit, size_t Value) {
  return CU_ENTRY(Limit, Value).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    return C->setLimit(Limit, Value);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetLimit(size_t *Value, CUlimit Limit) {
  return CU_ENTRY(Value, Limit).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(*Value, C->limit(Limit));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache *Config) {
  return CU_ENTRY(Config).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Config, CUDA_ERROR_INVALID_VALUE,
                  "The configuration pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    *Config = static_cast<CUfunc_cache>(C->CacheConfig.load());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache Config) {
  return CU_ENTRY(Config).run([&]() -> llvm::Error {
    CU_INVALID_IF(Config < CU_FUNC_CACHE_PREFER_NONE ||
                      Config > CU_FUNC_CACHE_PREFER_EQUAL,
                  CUDA_ERROR_INVALID_VALUE, "{0} is not a valid CUfunc_cache.",
                  static_cast<int>(Config));
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    C->CacheConfig = Config;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetSharedMemConfig(CUsharedconfig *Config) {
  return CU_ENTRY(Config).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Config, CUDA_ERROR_INVALID_VALUE,
                  "The configuration pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    *Config = static_cast<CUsharedconfig>(C->SharedMemConfig.load());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxSetSharedMemConfig(CUsharedconfig Config) {
  return CU_ENTRY(Config).run([&]() -> llvm::Error {
    CU_INVALID_IF(Config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
                      Config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a valid CUsharedconfig.",
                  static_cast<int>(Config));
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    C->SharedMemConfig = Config;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxGetStreamPriorityRange(int *Least,
                                                          int *Greatest) {
  return CU_ENTRY(Least, Greatest).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    if (Least)
      *Least = StreamPriorityLeast;
    if (Greatest)
      *Greatest = StreamPriorityGreatest;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext Peer,
                                                    unsigned int Flags) {
  return CU_ENTRY(Peer, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                  "cuCtxEnablePeerAccess flags must be 0 (got {0}).", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Context> P, lookupContext(Peer));
    CU_INVALID_IF(&C->device() == &P->device(), CUDA_ERROR_INVALID_DEVICE,
                  "Peer access needs contexts on two different devices.");
    return C->enablePeer(*P);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext Peer) {
  return CU_ENTRY(Peer).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Context> P, lookupContext(Peer));
    return C->disablePeer(*P);
  });
}

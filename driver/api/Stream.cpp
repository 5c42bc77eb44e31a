//===- Stream.cpp - Stream management entry points (E.5) ------------------===//
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/EntryPoint.h"

#include <algorithm>

using namespace cucpu;
using namespace cucpu::api;

namespace {
llvm::Error createStream(CUstream *Out, unsigned Flags, int Priority) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The stream pointer is NULL.");
  CU_INVALID_IF(Flags & ~CU_STREAM_NON_BLOCKING, CUDA_ERROR_INVALID_VALUE,
                "Stream flags {0:x} contain unknown bits.", Flags);
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  // As NVIDIA does, priorities outside the range are clamped to it.
  Priority = std::clamp(Priority, StreamPriorityGreatest, StreamPriorityLeast);
  auto S = std::make_shared<Stream>(C, Flags, Priority);
  HandleRegistry::get().add(S);
  C->own(S);
  *Out = toHandle(*S);
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream *Out,
                                             unsigned int Flags) {
  return CU_ENTRY(Out, Flags).run([&] {
    return createStream(Out, Flags, StreamPriorityLeast);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *Out,
                                                         unsigned int Flags,
                                                         int Priority) {
  return CU_ENTRY(Out, Flags, Priority).run([&] {
    return createStream(Out, Flags, Priority);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamDestroy_v2(CUstream H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_INVALID_IF(isDefaultStream(H), CUDA_ERROR_INVALID_HANDLE,
                  "A default stream cannot be destroyed.");
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    forgetStream(*S);
    HandleRegistry::get().remove(S.get());
    if (std::shared_ptr<Context> C = S->context())
      C->disown(S.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamQuery(CUstream H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_TRY(S ? refuseWhileCapturing(S.get(), "Querying") : checkLegacyUse(*C));
    bool Idle = S ? S->queue()->idle() : C->queues().legacyIdle();
    CU_INVALID_IF(!Idle, CUDA_ERROR_NOT_READY,
                  "Work issued to the stream has not completed yet.");
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamSynchronize(CUstream H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_TRY(S ? refuseWhileCapturing(S.get(), "Synchronizing")
             : checkLegacyUse(*C));
    if (!S) {
      CU_TRY(C->queues().waitForLegacy());
      return C->finishSynchronize();
    }
    CU_TRY(WorkQueue::wait(S->queue()->tail()));
    // Synchronizing delivers device printf output and reports the owning
    // context's sticky fault, as cuCtxSynchronize does.
    std::shared_ptr<Context> Owner = S->context();
    CU_INVALID_IF(!Owner, CUDA_ERROR_INVALID_HANDLE,
                  "The stream's context has been destroyed.");
    return Owner->finishSynchronize();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamWaitEvent(CUstream H, CUevent E,
                                                unsigned int Flags) {
  return CU_ENTRY(H, E, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(Flags & ~CU_EVENT_WAIT_EXTERNAL, CUDA_ERROR_INVALID_VALUE,
                  "cuStreamWaitEvent flags {0:x} contain unknown bits.", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_TRY_ASSIGN(std::shared_ptr<Event> Ev, lookupEvent(E));
    CU_TRY_ASSIGN(bool Captured,
                  captureStreamWait(S, Ev, Flags & CU_EVENT_WAIT_EXTERNAL));
    if (Captured)
      return llvm::Error::success();
    CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
    // Work issued to the stream from now on waits for the event's record.
    Ev->orderBefore(Q);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamAddCallback(CUstream H,
                                                  CUstreamCallback Callback,
                                                  void *UserData,
                                                  unsigned int Flags) {
  return CU_ENTRY(H, Callback, UserData, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Callback, CUDA_ERROR_INVALID_VALUE, "The callback is NULL.");
    CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                  "cuStreamAddCallback flags must be 0 (got {0}).", Flags);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_INVALID_IF(capturing(S.get()), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                  "Stream callbacks cannot be captured; use cuLaunchHostFunc.");
    CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
    // The callback learns whether the context has faulted.
    std::weak_ptr<Context> Owner = S ? S->context() : C;
    Q.enqueue(
        [=] {
          runWithContext(Owner, [&](const std::shared_ptr<Context> &Ctx) {
            CUresult Status = CUDA_SUCCESS;
            if (Ctx) {
              std::string Ignored;
              Status = toResult(Ctx->checkHealthy(), Ignored);
            }
            Callback(H, Status, UserData);
          });
        },
        TaskRunner::WorkerOnly);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLaunchHostFunc(CUstream H, CUhostFn Fn,
                                               void *UserData) {
  return CU_ENTRY(H, Fn, UserData).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Fn, CUDA_ERROR_INVALID_VALUE, "The host function is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    if (capturing(S.get())) {
      NodeParams P;
      P.Type = CU_GRAPH_NODE_TYPE_HOST;
      P.Host = {Fn, UserData};
      return captureNode(*S, std::move(P));
    }
    CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
    std::weak_ptr<Context> Owner = S ? S->context() : C;
    Q.enqueue(
        [=] {
          runWithContext(
              Owner, [&](const std::shared_ptr<Context> &) { Fn(UserData); });
        },
        TaskRunner::WorkerOnly);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetFlags(CUstream H,
                                               unsigned int *Flags) {
  return CU_ENTRY(H, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags, CUDA_ERROR_INVALID_VALUE,
                  "The flags pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, usableStream(H));
    *Flags = S ? S->flags() : static_cast<unsigned>(CU_STREAM_DEFAULT);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetPriority(CUstream H, int *Priority) {
  return CU_ENTRY(H, Priority).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Priority, CUDA_ERROR_INVALID_VALUE,
                  "The priority pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, usableStream(H));
    *Priority = S ? S->priority() : StreamPriorityLeast;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetCtx(CUstream H, CUcontext *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The context pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    std::shared_ptr<Context> Owner = S ? S->context() : C;
    CU_INVALID_IF(!Owner, CUDA_ERROR_INVALID_HANDLE,
                  "The stream's context has been destroyed.");
    *Out = toHandle(*Owner);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetId(CUstream H,
                                            unsigned long long *Id) {
  return CU_ENTRY(H, Id).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Id, CUDA_ERROR_INVALID_VALUE, "The id pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, usableStream(H));
    if (S)
      *Id = S->id();
    else
      *Id = H == CU_STREAM_PER_THREAD ? 2 : 1;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetDevice(CUstream H, CUdevice *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    std::shared_ptr<Context> Owner = S ? S->context() : C;
    CU_INVALID_IF(!Owner, CUDA_ERROR_INVALID_HANDLE,
                  "The stream's context has been destroyed.");
    *Out = Owner->device().ordinal();
    return llvm::Error::success();
  });
}

namespace {
/// The attributes of \p H's context's default streams, with the lock that
/// guards them held, for a NULL, legacy or per-thread stream handle.
struct DefaultStreamAttributes {
  std::unique_lock<std::mutex> Lock;
  LaunchAttributes &Values;
};
DefaultStreamAttributes defaultStreamAttributes(Context &C) {
  return {std::unique_lock(C.DefaultStreamAttributesMutex),
          C.DefaultStreamAttributes};
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetAttribute(CUstream H,
                                                   CUstreamAttrID Id,
                                                   CUstreamAttrValue *Out) {
  return CU_ENTRY(H, Id, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_TRY(checkAttributeId(AttributeHolder::Stream, Id));
    if (S) {
      *Out = S->attribute(Id);
    } else {
      auto Defaults = defaultStreamAttributes(*C);
      *Out = Defaults.Values.get(Id);
    }
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamSetAttribute(
    CUstream H, CUstreamAttrID Id, const CUstreamAttrValue *Value) {
  return CU_ENTRY(H, Id, Value).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    CU_TRY(checkAttribute(AttributeHolder::Stream, Id, *Value, C->device()));
    if (S) {
      S->setAttribute(Id, *Value);
    } else {
      auto Defaults = defaultStreamAttributes(*C);
      Defaults.Values.set(Id, *Value);
    }
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamCopyAttributes(CUstream Dst,
                                                     CUstream Src) {
  return CU_ENTRY(Dst, Src).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Stream> To, lookupStream(Dst));
    CU_TRY_ASSIGN(std::shared_ptr<Stream> From, lookupStream(Src));
    CU_INVALID_IF(!To || !From, CUDA_ERROR_INVALID_HANDLE,
                  "Attributes are copied between created streams, not "
                  "default streams.");
    CU_INVALID_IF(To->context() != From->context(), CUDA_ERROR_INVALID_CONTEXT,
                  "The streams belong to different contexts.");
    To->copyAttributes(*From);
    return llvm::Error::success();
  });
}

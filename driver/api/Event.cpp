//===- Event.cpp - Event management entry points (E.6) --------------------===//
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/EntryPoint.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
constexpr unsigned EventFlags =
    CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;

llvm::Error recordEvent(CUevent H, CUstream SH, bool External = false) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(H));
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(SH));
  CU_INVALID_IF(E->context() != C, CUDA_ERROR_INVALID_HANDLE,
                "The event belongs to another context than the current one.");
  CU_INVALID_IF(S && S->context() != C, CUDA_ERROR_INVALID_HANDLE,
                "The stream belongs to another context than the current one.");
  if (capturing(S.get()))
    return captureEventRecord(E, *S, External);
  CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
  Event::record(E, Q);
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuEventCreate(CUevent *Out, unsigned int Flags) {
  return CU_ENTRY(Out, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The event pointer is NULL.");
    CU_INVALID_IF(Flags & ~EventFlags, CUDA_ERROR_INVALID_VALUE,
                  "Event flags {0:x} contain unknown bits.", Flags);
    CU_INVALID_IF((Flags & CU_EVENT_INTERPROCESS) &&
                      !(Flags & CU_EVENT_DISABLE_TIMING),
                  CUDA_ERROR_INVALID_VALUE,
                  "An interprocess event must also disable timing.");
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    auto E = std::make_shared<Event>(C, Flags);
    if (Flags & CU_EVENT_INTERPROCESS) {
      CU_TRY_ASSIGN(std::shared_ptr<SharedEventState> State,
                    SharedEventState::create());
      E->share(std::move(State));
    }
    HandleRegistry::get().add(E);
    C->own(E);
    *Out = toHandle(*E);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventRecord(CUevent H, CUstream S) {
  return CU_ENTRY(H, S).run([&] { return recordEvent(H, S); });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventRecordWithFlags(CUevent H, CUstream S,
                                                     unsigned int Flags) {
  return CU_ENTRY(H, S, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(Flags & ~CU_EVENT_RECORD_EXTERNAL, CUDA_ERROR_INVALID_VALUE,
                  "cuEventRecordWithFlags flags {0:x} contain unknown bits.",
                  Flags);
    return recordEvent(H, S, Flags & CU_EVENT_RECORD_EXTERNAL);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventQuery(CUevent H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(H));
    // A never-recorded event counts as completed, as on NVIDIA.
    CU_INVALID_IF(!E->completed(), CUDA_ERROR_NOT_READY,
                  "The event's work has not completed yet.");
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventSynchronize(CUevent H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(H));
    CU_TRY(E->synchronize());
    // As cuStreamSynchronize: printf output arrives, faults are reported.
    std::shared_ptr<Context> Owner = E->context();
    CU_INVALID_IF(!Owner, CUDA_ERROR_INVALID_HANDLE,
                  "The event's context has been destroyed.");
    return Owner->finishSynchronize();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventDestroy_v2(CUevent H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(H));
    HandleRegistry::get().remove(E.get());
    if (std::shared_ptr<Context> C = E->context())
      C->disown(E.get());
    return llvm::Error::success();
  });
}

static llvm::Error elapsedTime(float *Ms, CUevent Start, CUevent End) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Event> S, lookupEvent(Start));
  CU_TRY_ASSIGN(std::shared_ptr<Event> E, lookupEvent(End));
  // NVIDIA's driver answers a NULL result pointer with INVALID_HANDLE.
  CU_INVALID_IF(!Ms, CUDA_ERROR_INVALID_HANDLE, "The result pointer is NULL.");
  CU_TRY_ASSIGN(*Ms, Event::elapsed(*S, *E));
  return llvm::Error::success();
}

CUCPU_EXPORT CUresult CUDAAPI cuEventElapsedTime(float *Ms, CUevent Start,
                                                 CUevent End) {
  return CU_ENTRY(Ms, Start, End).run([&] {
    return elapsedTime(Ms, Start, End);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuEventElapsedTime_v2(float *Ms, CUevent Start,
                                                    CUevent End) {
  return CU_ENTRY(Ms, Start, End).run([&] {
    return elapsedTime(Ms, Start, End);
  });
}

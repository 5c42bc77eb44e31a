//===- StreamCapture.cpp - Stream capture entry points --------------------===//
#include "api/StreamCapture.h"

#include "api/Handles.h"
#include "core/EntryPoint.h"
#include "core/Graph.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_set>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// A stream's part in a capture.
struct CapturePart {
  std::weak_ptr<Stream> S;
  /// What the stream's next captured node depends on.
  std::vector<GraphNode *> Tips;
  /// The array cuStreamGetCaptureInfo hands out (valid until the next call
  /// that changes the stream's capture).
  std::vector<CUgraphNode> TipHandles;
};

/// An event recorded in a capture: it stands for the recording stream's
/// tips at that point.
struct CapturedRecord {
  std::weak_ptr<Event> E;
  std::vector<GraphNode *> Tips;
};

/// One capture, from cuStreamBeginCapture to cuStreamEndCapture.
struct CaptureSession {
  std::shared_ptr<Graph> G;
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  unsigned long long Id = 0;
  std::thread::id Thread;
  bool Invalidated = false;
  /// The streams taking part; the origin first.
  std::vector<CapturePart> Parts;
  std::vector<CapturedRecord> Records;

  CapturePart *part(const Stream *S) {
    for (CapturePart &P : Parts)
      if (P.S.lock().get() == S)
        return &P;
    return nullptr;
  }
};

/// Every capture in progress, under one mutex; Active counts them so that
/// the hooks cost one load when none is.
std::mutex CaptureMutex;
std::vector<std::shared_ptr<CaptureSession>> Sessions;
std::atomic<unsigned> Active{0};
std::atomic<unsigned long long> NextCaptureId{1};

/// The calling thread's capture mode (cuThreadExchangeStreamCaptureMode).
thread_local CUstreamCaptureMode ThreadMode = CU_STREAM_CAPTURE_MODE_GLOBAL;

/// The capture \p S takes part in (under CaptureMutex).
std::shared_ptr<CaptureSession> sessionOf(const Stream *S) {
  if (!S)
    return nullptr;
  for (const auto &Session : Sessions)
    if (Session->part(S))
      return Session;
  return nullptr;
}

/// Ends \p Session: its streams stop capturing (under CaptureMutex).
void endSession(const std::shared_ptr<CaptureSession> &Session) {
  std::erase(Sessions, Session);
  Active.store(Sessions.size(), std::memory_order_release);
}

/// Whether stream \p S of context \p C synchronizes with the legacy stream.
bool blockingStreamOf(const Stream *S, const Context &C) {
  return S && !(S->flags() & CU_STREAM_NON_BLOCKING) &&
         S->context().get() == &C;
}

void setTips(CapturePart &P, std::vector<GraphNode *> Tips) {
  P.Tips = std::move(Tips);
  P.TipHandles.clear();
  for (GraphNode *T : P.Tips)
    P.TipHandles.push_back(reinterpret_cast<CUgraphNode>(T));
}

llvm::Error beginCapture(CUstream H, CUstreamCaptureMode Mode) {
  CU_TRY(current::require());
  CU_INVALID_IF(Mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
                    Mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
                    Mode != CU_STREAM_CAPTURE_MODE_RELAXED,
                CUDA_ERROR_INVALID_VALUE, "{0} is not a CUstreamCaptureMode.",
                static_cast<int>(Mode));
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  CU_INVALID_IF(!S, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                "A default stream cannot be captured; capture a stream made "
                "with cuStreamCreate.");
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  CU_INVALID_IF(sessionOf(S.get()), CUDA_ERROR_ILLEGAL_STATE,
                "The stream is already capturing.");
  auto Session = std::make_shared<CaptureSession>();
  Session->G = std::make_shared<Graph>();
  // The graph can be queried while the capture goes on.
  HandleRegistry::get().add(Session->G);
  Session->Mode = Mode;
  Session->Id = NextCaptureId++;
  Session->Thread = std::this_thread::get_id();
  CapturePart Origin;
  Origin.S = S;
  Session->Parts.push_back(std::move(Origin));
  Sessions.push_back(std::move(Session));
  Active.store(Sessions.size(), std::memory_order_release);
  return llvm::Error::success();
}

/// Whether every node in \p Tips is in \p Joined or one of its ancestors.
bool joinedBy(const std::vector<GraphNode *> &Tips,
              const std::vector<GraphNode *> &Joined) {
  std::unordered_set<const GraphNode *> Seen;
  std::vector<const GraphNode *> Work(Joined.begin(), Joined.end());
  while (!Work.empty()) {
    const GraphNode *N = Work.back();
    Work.pop_back();
    if (!Seen.insert(N).second)
      continue;
    Work.insert(Work.end(), N->Dependencies.begin(), N->Dependencies.end());
  }
  return std::all_of(Tips.begin(), Tips.end(),
                     [&](const GraphNode *T) { return Seen.count(T) != 0; });
}

llvm::Error endCapture(CUstream H, CUgraph *Out) {
  CU_TRY(current::require());
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(S.get());
  CU_INVALID_IF(!Session, CUDA_ERROR_ILLEGAL_STATE,
                "The stream is not capturing.");
  CU_INVALID_IF(Session->Parts.front().S.lock() != S,
                CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                "The capture must end in the stream that began it.");
  CU_INVALID_IF(Session->Mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
                    Session->Thread != std::this_thread::get_id(),
                CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                "A capture in global or thread-local mode must end on the "
                "thread that began it.");
  endSession(Session);
  if (Out)
    *Out = nullptr;
  auto Discard = [&] {
    std::lock_guard<std::mutex> GraphLock(Session->G->Mutex);
    Session->G->releaseHandles();
  };
  if (Session->Invalidated) {
    Discard();
    return makeError(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                     "The capture was invalidated by an operation it does "
                     "not allow; no graph was made.");
  }
  const std::vector<GraphNode *> &Joined = Session->Parts.front().Tips;
  for (size_t I = 1; I < Session->Parts.size(); ++I)
    if (Session->Parts[I].S.lock() &&
        !joinedBy(Session->Parts[I].Tips, Joined)) {
      Discard();
      return makeError(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
                       "A stream that joined the capture was not joined back "
                       "into the capturing stream (record an event in it and "
                       "wait for that event in the capturing stream).");
    }
  if (!Out) {
    // NVIDIA accepts a NULL graph pointer: the capture ends, its graph is
    // dropped.
    Discard();
    return llvm::Error::success();
  }
  *Out = reinterpret_cast<CUgraph>(Session->G.get());
  return llvm::Error::success();
}

llvm::Error captureInfo(CUstream H, CUstreamCaptureStatus *Status,
                        cuuint64_t *Id, CUgraph *GraphOut,
                        const CUgraphNode **Dependencies,
                        const CUgraphEdgeData **EdgeData, size_t *Count) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_INVALID_IF(!Status, CUDA_ERROR_INVALID_VALUE,
                "The capture status pointer is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  if (!S)
    CU_TRY(checkLegacyUse(*C, /*Invalidate=*/false));
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(S.get());
  if (!Session) {
    *Status = CU_STREAM_CAPTURE_STATUS_NONE;
    return llvm::Error::success();
  }
  *Status = Session->Invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                 : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  if (Id)
    *Id = Session->Id;
  if (GraphOut)
    *GraphOut = reinterpret_cast<CUgraph>(Session->G.get());
  CapturePart *P = Session->part(S.get());
  if (Dependencies)
    *Dependencies = P->TipHandles.empty() ? nullptr : P->TipHandles.data();
  if (EdgeData)
    *EdgeData = nullptr;
  if (Count)
    *Count = P->TipHandles.size();
  return llvm::Error::success();
}
} // namespace

bool api::capturing(const Stream *S) {
  if (!S || Active.load(std::memory_order_acquire) == 0)
    return false;
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  return sessionOf(S) != nullptr;
}

llvm::Error api::captureNode(Stream &S, NodeParams P) {
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(&S);
  CU_INVALID_IF(!Session, CUDA_ERROR_ILLEGAL_STATE,
                "The stream stopped capturing.");
  CU_INVALID_IF(Session->Invalidated, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                "The stream's capture was invalidated; end it with "
                "cuStreamEndCapture.");
  CapturePart *Part = Session->part(&S);
  std::lock_guard<std::mutex> GraphLock(Session->G->Mutex);
  GraphNode &N = Session->G->add(std::move(P), Part->Tips);
  setTips(*Part, {&N});
  return llvm::Error::success();
}

llvm::Error api::checkLegacyUse(const Context &C, bool Invalidate) {
  if (Active.load(std::memory_order_acquire) == 0)
    return llvm::Error::success();
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  bool Implicit = false;
  for (const auto &Session : Sessions)
    for (const CapturePart &P : Session->Parts)
      if (blockingStreamOf(P.S.lock().get(), C)) {
        Session->Invalidated |= Invalidate;
        Implicit = true;
      }
  CU_INVALID_IF(Implicit, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                "The legacy default stream was used while a blocking stream "
                "of its context captures; the legacy stream would "
                "synchronize with it.");
  return llvm::Error::success();
}

llvm::Error api::refuseWhileCapturing(const Stream *S, const char *What) {
  if (Active.load(std::memory_order_acquire) == 0)
    return llvm::Error::success();
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(S);
  if (!Session)
    return llvm::Error::success();
  Session->Invalidated = true;
  return makeError(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                   llvm::formatv("{0} a capturing stream is not allowed; the "
                                 "capture is invalidated.",
                                 What)
                       .str());
}

llvm::Error api::checkCaptureSafe(const char *What) {
  if (Active.load(std::memory_order_acquire) == 0 ||
      ThreadMode == CU_STREAM_CAPTURE_MODE_RELAXED)
    return llvm::Error::success();
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  bool Unsafe = false;
  for (const auto &Session : Sessions)
    if (Session->Mode == CU_STREAM_CAPTURE_MODE_GLOBAL ||
        (Session->Mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
         Session->Thread == std::this_thread::get_id())) {
      Session->Invalidated = true;
      Unsafe = true;
    }
  CU_INVALID_IF(Unsafe, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                "{0} is not allowed while a stream capture is in progress "
                "(in global mode, or thread-local on this thread); the "
                "capture is invalidated.",
                What);
  return llvm::Error::success();
}

llvm::Error api::checkNoCaptureIn(const Context &C) {
  if (Active.load(std::memory_order_acquire) == 0)
    return llvm::Error::success();
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  for (const auto &Session : Sessions)
    for (const CapturePart &P : Session->Parts)
      if (std::shared_ptr<Stream> S = P.S.lock();
          S && S->context().get() == &C) {
        Session->Invalidated = true;
        return makeError(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                         "The context cannot be synchronized while one of "
                         "its streams captures; the capture is invalidated.");
      }
  return llvm::Error::success();
}

void api::forgetStream(const Stream &S) {
  if (Active.load(std::memory_order_acquire) == 0)
    return;
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(&S);
  if (!Session)
    return;
  if (Session->Parts.front().S.lock().get() == &S) {
    endSession(Session);
    std::lock_guard<std::mutex> GraphLock(Session->G->Mutex);
    Session->G->releaseHandles();
    return;
  }
  std::erase_if(Session->Parts,
                [&](const CapturePart &P) { return P.S.lock().get() == &S; });
}

llvm::Error api::captureEventRecord(const std::shared_ptr<Event> &E, Stream &S,
                                    bool External) {
  if (External) {
    NodeParams P;
    P.Type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
    P.Ev = E;
    return captureNode(S, std::move(P));
  }
  std::lock_guard<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Session = sessionOf(&S);
  CU_INVALID_IF(!Session, CUDA_ERROR_ILLEGAL_STATE,
                "The stream stopped capturing.");
  std::erase_if(Session->Records,
                [&](const CapturedRecord &R) { return R.E.lock() == E; });
  Session->Records.push_back({E, Session->part(&S)->Tips});
  return llvm::Error::success();
}

llvm::Expected<bool> api::captureStreamWait(const std::shared_ptr<Stream> &S,
                                            const std::shared_ptr<Event> &E,
                                            bool External) {
  if (Active.load(std::memory_order_acquire) == 0)
    return false;
  std::unique_lock<std::mutex> Lock(CaptureMutex);
  std::shared_ptr<CaptureSession> Mine = sessionOf(S.get());
  for (const auto &Session : Sessions)
    for (const CapturedRecord &R : Session->Records) {
      if (R.E.lock() != E)
        continue;
      CU_INVALID_IF(!S, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                    "The legacy default stream cannot join a capture.");
      CU_INVALID_IF(Mine && Mine != Session,
                    CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                    "The stream captures into another graph than the one the "
                    "event was recorded in.");
      if (!Mine) {
        CapturePart P;
        P.S = S;
        setTips(P, R.Tips);
        Session->Parts.push_back(std::move(P));
        return true;
      }
      CapturePart *P = Session->part(S.get());
      std::vector<GraphNode *> Tips = P->Tips;
      for (GraphNode *T : R.Tips)
        if (std::find(Tips.begin(), Tips.end(), T) == Tips.end())
          Tips.push_back(T);
      setTips(*P, std::move(Tips));
      return true;
    }
  if (!Mine)
    return false;
  // An event recorded outside the capture.
  CU_INVALID_IF(!External, CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                "A capturing stream can only wait for events recorded in its "
                "capture (or, with CU_EVENT_WAIT_EXTERNAL, for any event).");
  Lock.unlock();
  NodeParams P;
  P.Type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
  P.Ev = E;
  CU_TRY(captureNode(*S, std::move(P)));
  return true;
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamBeginCapture(CUstream H) {
  return CU_ENTRY(H).run(
      [&] { return beginCapture(H, CU_STREAM_CAPTURE_MODE_GLOBAL); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuStreamBeginCapture_v2(CUstream H, CUstreamCaptureMode Mode) {
  return CU_ENTRY(H, Mode).run([&] { return beginCapture(H, Mode); });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamEndCapture(CUstream H, CUgraph *Out) {
  return CU_ENTRY(H, Out).run([&] { return endCapture(H, Out); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuStreamIsCapturing(CUstream H, CUstreamCaptureStatus *Status) {
  return CU_ENTRY(H, Status).run([&] {
    return captureInfo(H, Status, nullptr, nullptr, nullptr, nullptr, nullptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetCaptureInfo(
    CUstream H, CUstreamCaptureStatus *Status, cuuint64_t *Id) {
  return CU_ENTRY(H, Status, Id).run([&] {
    return captureInfo(H, Status, Id, nullptr, nullptr, nullptr, nullptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetCaptureInfo_v2(
    CUstream H, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *G,
    const CUgraphNode **Dependencies, size_t *Count) {
  return CU_ENTRY(H, Status, Id, G, Dependencies, Count).run([&] {
    return captureInfo(H, Status, Id, G, Dependencies, nullptr, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuStreamGetCaptureInfo_v3(
    CUstream H, CUstreamCaptureStatus *Status, cuuint64_t *Id, CUgraph *G,
    const CUgraphNode **Dependencies, const CUgraphEdgeData **EdgeData,
    size_t *Count) {
  return CU_ENTRY(H, Status, Id, G, Dependencies, EdgeData, Count).run([&] {
    return captureInfo(H, Status, Id, G, Dependencies, EdgeData, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *Mode) {
  return CU_ENTRY(Mode).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Mode, CUDA_ERROR_INVALID_VALUE, "The mode pointer is NULL.");
    CU_INVALID_IF(*Mode != CU_STREAM_CAPTURE_MODE_GLOBAL &&
                      *Mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
                      *Mode != CU_STREAM_CAPTURE_MODE_RELAXED,
                  CUDA_ERROR_INVALID_VALUE, "{0} is not a CUstreamCaptureMode.",
                  static_cast<int>(*Mode));
    std::swap(*Mode, ThreadMode);
    return llvm::Error::success();
  });
}

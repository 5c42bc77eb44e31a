//===- StreamWork.cpp - Issuing operations to streams ---------------------===//
#include "api/StreamWork.h"

#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "core/AddressSpace.h"
#include "core/Error.h"
#include "core/Launcher.h"

using namespace cucpu;

llvm::Expected<std::shared_ptr<WorkQueue>> api::queueOf(CUstream H) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  CU_TRY(queueFor(S.get(), *C).takeError());
  return S ? S->queue() : C->queues().legacy();
}

llvm::Expected<WorkQueue &> api::queueFor(Stream *S, Context &C) {
  if (S)
    return *S->queue();
  CU_TRY(checkLegacyUse(C));
  return *C.queues().legacy();
}

llvm::Expected<api::Mover> api::currentMover() {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  return Mover{C->device().ordinal(), C->device().workers()};
}

bool api::isPageLocked(const void *P, size_t Bytes) {
  uintptr_t Address = reinterpret_cast<uintptr_t>(P);
  std::optional<OwnedAllocation> Found = findAllocation(Address);
  return Found && Found->Range.containsRange(Address, Bytes);
}

namespace {
thread_local api::WorkRecorder *ActiveRecorder = nullptr;
} // namespace

api::WorkRecorder::WorkRecorder() : Outer(ActiveRecorder) {
  ActiveRecorder = this;
}
api::WorkRecorder::~WorkRecorder() { ActiveRecorder = Outer; }
api::WorkRecorder *api::WorkRecorder::active() { return ActiveRecorder; }

bool api::workIsDeferred(CUstream H) {
  if (WorkRecorder::active())
    return true;
  llvm::Expected<std::shared_ptr<Stream>> S = lookupStream(H);
  if (!S) {
    llvm::consumeError(S.takeError());
    return false;
  }
  return capturing(S->get());
}

llvm::Error api::issueWork(CUstream H, bool Async, WorkQueue::Task Work,
                           CUgraphNodeType Kind) {
  if (WorkRecorder *R = WorkRecorder::active()) {
    R->Work = std::move(Work);
    return llvm::Error::success();
  }
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  if (capturing(S.get())) {
    CU_INVALID_IF(Kind != CU_GRAPH_NODE_TYPE_MEMCPY &&
                      Kind != CU_GRAPH_NODE_TYPE_MEMSET,
                  CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                  "cucpu does not capture this operation into a graph.");
    NodeParams P;
    P.Type = Kind;
    P.Recorded =
        std::make_shared<llvm::unique_function<void()>>(std::move(Work));
    return captureNode(*S, std::move(P));
  }
  CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *C));
  if (!Async || launchBlocking())
    return Q.runInOrder(Work);
  Q.enqueue(std::move(Work));
  return llvm::Error::success();
}

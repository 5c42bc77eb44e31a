//===- StreamWork.cpp - Issuing operations to streams ---------------------===//
#include "api/StreamWork.h"

#include "api/Handles.h"
#include "core/AddressSpace.h"
#include "core/Error.h"
#include "core/Launcher.h"

using namespace cucpu;

llvm::Expected<std::shared_ptr<WorkQueue>> api::queueOf(CUstream H) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
  if (S)
    return S->queue();
  return C->queues().legacy();
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

llvm::Error api::issueWork(CUstream H, bool Async, WorkQueue::Task Work) {
  CU_TRY_ASSIGN(std::shared_ptr<WorkQueue> Q, queueOf(H));
  if (!Async || launchBlocking())
    return Q->runInOrder(Work);
  Q->enqueue(std::move(Work));
  return llvm::Error::success();
}

//===- Event.cpp - A CUDA event -------------------------------------------===//
#include "core/Event.h"

#include "core/Context.h"
#include "core/Error.h"

using namespace cucpu;

Event::Event(std::shared_ptr<Context> Owner, unsigned Flags)
    : Object(ObjectKind::Event), Owner(Owner), Flags(Flags) {}

void Event::record(const std::shared_ptr<Event> &E, WorkQueue &Queue) {
  uint64_t Seq;
  {
    std::lock_guard Lock(E->Mutex);
    Seq = ++E->Records;
    E->CompletedAt.reset();
  }
  uint64_t SharedRecord = E->Shared ? E->Shared->beginRecord() : 0;
  QueuePoint P = Queue.enqueueOrRun([E, Seq, SharedRecord] {
    Clock::time_point Now = Clock::now();
    if (E->Shared)
      E->Shared->complete(SharedRecord);
    std::lock_guard Lock(E->Mutex);
    if (E->Records == Seq)
      E->CompletedAt = Now;
  });
  std::lock_guard Lock(E->Mutex);
  if (E->Records == Seq)
    E->Last = std::move(P);
}

QueuePoint Event::point() const {
  std::lock_guard Lock(Mutex);
  return Last;
}

bool Event::completed() const {
  return point().reached() && (!Shared || Shared->reached(Shared->latest()));
}

llvm::Error Event::synchronize() const {
  CU_TRY(WorkQueue::wait(point()));
  if (Shared)
    Shared->wait(Shared->latest());
  return llvm::Error::success();
}

void Event::orderBefore(WorkQueue &Queue) const {
  QueuePoint Recorded = point();
  if (!Recorded.reached())
    Queue.enqueue([] {}, TaskRunner::Anyone, &Recorded);
  // A record made by another process is waited for by a task of its own.
  if (Shared && !Shared->reached(Shared->latest()))
    Queue.enqueue(
        [State = Shared, Record = Shared->latest()] { State->wait(Record); });
}

llvm::Expected<float> Event::elapsed(const Event &Start, const Event &End) {
  CU_INVALID_IF(Start.timingDisabled() || End.timingDisabled(),
                CUDA_ERROR_INVALID_HANDLE,
                "An event created with CU_EVENT_DISABLE_TIMING cannot be "
                "timed.");
  auto Completion = [](const Event &E,
                       const char *Role) -> llvm::Expected<Clock::time_point> {
    std::lock_guard Lock(E.Mutex);
    CU_INVALID_IF(E.Records == 0, CUDA_ERROR_INVALID_HANDLE,
                  "The {0} event has never been recorded.", Role);
    CU_INVALID_IF(!E.CompletedAt, CUDA_ERROR_NOT_READY,
                  "The {0} event's work has not completed yet.", Role);
    return *E.CompletedAt;
  };
  CU_TRY_ASSIGN(Clock::time_point From, Completion(Start, "start"));
  CU_TRY_ASSIGN(Clock::time_point To, Completion(End, "end"));
  std::chrono::duration<float, std::milli> Ms = To - From;
  return Ms.count();
}

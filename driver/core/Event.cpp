//===- Event.cpp - A CUDA event -------------------------------------------===//
#include "core/Event.h"

#include "core/Context.h"
#include "core/Error.h"

using namespace cucpu;

Event::Event(std::shared_ptr<Context> Owner, unsigned Flags)
    : Object(ObjectKind::Event), Owner(Owner), Flags(Flags) {}

void Event::record() {
  std::lock_guard Lock(Mutex);
  RecordedAt = Clock::now();
}

std::optional<Event::Clock::time_point> Event::recordedAt() const {
  std::lock_guard Lock(Mutex);
  return RecordedAt;
}

llvm::Expected<float> Event::elapsed(const Event &Start, const Event &End) {
  CU_INVALID_IF(Start.timingDisabled() || End.timingDisabled(),
                CUDA_ERROR_INVALID_HANDLE,
                "An event created with CU_EVENT_DISABLE_TIMING cannot be "
                "timed.");
  auto From = Start.recordedAt();
  auto To = End.recordedAt();
  CU_INVALID_IF(!From || !To, CUDA_ERROR_INVALID_HANDLE,
                "The {0} event has never been recorded.",
                !From ? "start" : "end");
  std::chrono::duration<float, std::milli> Ms = *To - *From;
  return Ms.count();
}

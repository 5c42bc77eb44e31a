//===- Stream.cpp - A CUDA stream -----------------------------------------===//
#include "core/Stream.h"

#include "core/Context.h"

#include <algorithm>
#include <atomic>

using namespace cucpu;

namespace {
// Ids 0-2 name the NULL, legacy and per-thread default streams.
std::atomic<unsigned long long> NextStreamId{3};
} // namespace

Stream::Stream(std::shared_ptr<Context> Owner, unsigned Flags, int Priority)
    : Object(ObjectKind::Stream), Owner(Owner), Flags(Flags),
      Priority(Priority), Id(NextStreamId++),
      Queue(Owner->queues().create(Flags & CU_STREAM_NON_BLOCKING
                                       ? QueueKind::NonBlocking
                                       : QueueKind::Blocking)) {}

Stream::~Stream() { Queue->close(); }

void Stream::setPriority(int P) {
  Priority.store(std::clamp(P, StreamPriorityGreatest, StreamPriorityLeast),
                 std::memory_order_relaxed);
}

CUlaunchAttributeValue Stream::attribute(CUlaunchAttributeID Id) const {
  if (Id == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
    CUlaunchAttributeValue V{};
    V.priority = priority();
    return V;
  }
  std::lock_guard Lock(AttributesMutex);
  return Attributes.get(Id);
}

void Stream::setAttribute(CUlaunchAttributeID Id,
                          const CUlaunchAttributeValue &V) {
  if (Id == CU_LAUNCH_ATTRIBUTE_PRIORITY) {
    setPriority(V.priority);
    return;
  }
  std::lock_guard Lock(AttributesMutex);
  Attributes.set(Id, V);
}

void Stream::copyAttributes(const Stream &From) {
  if (&From == this)
    return;
  LaunchAttributes Copy;
  {
    std::lock_guard Lock(From.AttributesMutex);
    Copy = From.Attributes;
  }
  setPriority(From.priority());
  std::lock_guard Lock(AttributesMutex);
  Attributes = std::move(Copy);
}

//===- Stream.cpp - A CUDA stream -----------------------------------------===//
#include "core/Stream.h"

#include "core/Context.h"

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

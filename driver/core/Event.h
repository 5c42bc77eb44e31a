//===- Event.h - A CUDA event -------------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_EVENT_H
#define CUCPU_DRIVER_CORE_EVENT_H

#include "core/Object.h"
#include "core/WorkQueue.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>

namespace cucpu {

class Context;

/// A marker in a stream that records when the stream reached it.
class Event : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Event;
  using Clock = std::chrono::steady_clock;

  Event(std::shared_ptr<Context> Owner, unsigned Flags);

  /// The context the event belongs to (null once it was destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }
  unsigned flags() const { return Flags; }
  bool timingDisabled() const { return Flags & CU_EVENT_DISABLE_TIMING; }

  /// Records \p E in \p Queue: it completes, and takes its time, when the
  /// queue has done everything issued to it before.
  static void record(const std::shared_ptr<Event> &E, WorkQueue &Queue);
  /// Where the last record waits in its queue (reached at once if the event
  /// was never recorded).
  QueuePoint point() const;

  /// Milliseconds from \p Start to \p End: CUDA_ERROR_INVALID_HANDLE if
  /// either was never recorded or has timing disabled, CUDA_ERROR_NOT_READY
  /// if either has not completed.
  static llvm::Expected<float> elapsed(const Event &Start, const Event &End);

private:
  std::weak_ptr<Context> Owner;
  unsigned Flags;
  mutable std::mutex Mutex;
  uint64_t Records = 0; ///< How often the event was recorded.
  QueuePoint Last;      ///< The last record's place.
  std::optional<Clock::time_point> CompletedAt; ///< Of the last record.
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_EVENT_H

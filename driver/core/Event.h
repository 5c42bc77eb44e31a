//===- Event.h - A CUDA event -----------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_EVENT_H
#define CUCPU_DRIVER_CORE_EVENT_H

#include "core/IpcEvent.h"
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

  /// Whether the last record has completed (true if never recorded), in
  /// this process and, for an interprocess event, in every other.
  bool completed() const;
  /// Waits until the last record as of now has completed.
  llvm::Error synchronize() const;
  /// Makes work issued to \p Queue from now on wait for the last record.
  void orderBefore(WorkQueue &Queue) const;

  /// The state an interprocess event shares with other processes (null for
  /// other events); set at creation or when opened from a handle.
  const std::shared_ptr<SharedEventState> &shared() const { return Shared; }
  void share(std::shared_ptr<SharedEventState> State) {
    Shared = std::move(State);
  }

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
  std::shared_ptr<SharedEventState> Shared;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_EVENT_H

//===- Event.h - A CUDA event -------------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_EVENT_H
#define CUCPU_DRIVER_CORE_EVENT_H

#include "core/Object.h"

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

  /// Records the event: the stream has reached it now.
  void record();
  /// When the event was last recorded, if ever.
  std::optional<Clock::time_point> recordedAt() const;

  /// Milliseconds from \p Start to \p End, or CUDA_ERROR_INVALID_HANDLE if
  /// either was never recorded or has timing disabled.
  static llvm::Expected<float> elapsed(const Event &Start, const Event &End);

private:
  std::weak_ptr<Context> Owner;
  unsigned Flags;
  mutable std::mutex Mutex;
  std::optional<Clock::time_point> RecordedAt;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_EVENT_H

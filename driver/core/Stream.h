//===- Stream.h - A CUDA stream ---------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_STREAM_H
#define CUCPU_DRIVER_CORE_STREAM_H

#include "core/Object.h"
#include "core/WorkQueue.h"

#include <cuda.h>

#include <cstdint>
#include <memory>

namespace cucpu {

class Context;

/// Stream priorities cucpu reports: [Greatest, Least] = [-5, 0], as NVIDIA.
inline constexpr int StreamPriorityLeast = 0;
inline constexpr int StreamPriorityGreatest = -5;

/// A sequence of operations that execute in order, asynchronously to the
/// host (its WorkQueue).
class Stream : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Stream;

  Stream(std::shared_ptr<Context> Owner, unsigned Flags, int Priority);
  /// Work still queued completes; then the queue's worker ends.
  ~Stream() override;

  /// The context the stream belongs to (null once it was destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }
  unsigned flags() const { return Flags; }
  int priority() const { return Priority; }
  /// Unique over the process's lifetime (cuStreamGetId).
  unsigned long long id() const { return Id; }
  /// Where the stream's operations wait their turn.
  const std::shared_ptr<WorkQueue> &queue() const { return Queue; }

private:
  std::weak_ptr<Context> Owner;
  unsigned Flags;
  int Priority;
  unsigned long long Id;
  std::shared_ptr<WorkQueue> Queue;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_STREAM_H

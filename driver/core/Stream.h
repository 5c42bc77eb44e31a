//===- Stream.h - A CUDA stream ---------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_STREAM_H
#define CUCPU_DRIVER_CORE_STREAM_H

#include "core/LaunchAttributes.h"
#include "core/Object.h"
#include "core/WorkQueue.h"

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

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
  int priority() const { return Priority.load(std::memory_order_relaxed); }
  /// Sets the priority (cuStreamSetAttribute), clamped into the range
  /// cuCtxGetStreamPriorityRange reports, as creation clamps it.
  void setPriority(int P);
  /// The attribute \p Id (cuStreamGetAttribute); the priority is the
  /// stream's.
  CUlaunchAttributeValue attribute(CUlaunchAttributeID Id) const;
  /// Sets attribute \p Id, already checked (cuStreamSetAttribute).
  void setAttribute(CUlaunchAttributeID Id, const CUlaunchAttributeValue &V);
  /// Takes every attribute of \p From (cuStreamCopyAttributes).
  void copyAttributes(const Stream &From);
  /// Unique over the process's lifetime (cuStreamGetId).
  unsigned long long id() const { return Id; }
  /// Where the stream's operations wait their turn.
  const std::shared_ptr<WorkQueue> &queue() const { return Queue; }

private:
  std::weak_ptr<Context> Owner;
  unsigned Flags;
  std::atomic<int> Priority;
  mutable std::mutex AttributesMutex; ///< Guards Attributes.
  LaunchAttributes Attributes;
  unsigned long long Id;
  std::shared_ptr<WorkQueue> Queue;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_STREAM_H

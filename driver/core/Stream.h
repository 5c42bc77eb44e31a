//===- Stream.h - A CUDA stream -----------------------------------*- C++ -*-===//
#ifndef CUCPU_DRIVER_CORE_STREAM_H
#define CUCPU_DRIVER_CORE_STREAM_H

#include "core/Object.h"

#include <cuda.h>

#include <cstdint>
#include <memory>

namespace cucpu {

class Context;

/// Stream priorities cucpu reports: [Greatest, Least] = [-5, 0], as NVIDIA.
inline constexpr int StreamPriorityLeast = 0;
inline constexpr int StreamPriorityGreatest = -5;

/// A sequence of operations that execute in order. Operations issued to a
/// stream currently complete before the issuing call returns.
class Stream : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::Stream;

  Stream(std::shared_ptr<Context> Owner, unsigned Flags, int Priority);

  /// The context the stream belongs to (null once it was destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }
  unsigned flags() const { return Flags; }
  int priority() const { return Priority; }
  /// Unique over the process's lifetime (cuStreamGetId).
  unsigned long long id() const { return Id; }

private:
  std::weak_ptr<Context> Owner;
  unsigned Flags;
  int Priority;
  unsigned long long Id;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_STREAM_H

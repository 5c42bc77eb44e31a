//===- StreamWork.h - Issuing operations to streams -------------*- C++ -*-===//
//
// Copies, memsets, launches and markers go to a stream's WorkQueue. Work on
// driver memory (device, page-locked or registered) issued by an *Async call
// is queued and the call returns at once; everything else, and all work when
// CUDA_LAUNCH_BLOCKING=1, runs on the calling thread in the stream's order,
// so a synchronous copy from pageable memory behaves as on NVIDIA's driver.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_API_STREAMWORK_H
#define CUCPU_DRIVER_API_STREAMWORK_H

#include "core/CopyEngine.h"
#include "core/CurrentContext.h"
#include "core/WorkQueue.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu {
class Context;
class Stream;
} // namespace cucpu

namespace cucpu::api {

/// The queue work issued to stream \p H waits in: the stream's own, or for
/// the default streams (0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD) the
/// current context's legacy stream. Needs a current context.
llvm::Expected<std::shared_ptr<WorkQueue>> queueOf(CUstream H);

/// queueOf() for a stream already looked up: \p S's queue, or for a default
/// stream (null) \p C's legacy one, which a capture may forbid
/// (checkLegacyUse, api/StreamCapture.h).
llvm::Expected<WorkQueue &> queueFor(Stream *S, Context &C);

/// Runs a host function with \p Owner current on the stream's worker, as
/// NVIDIA's driver does for its callback thread; \p Body gets the context
/// (null once it is destroyed).
template <typename Fn>
void runWithContext(const std::weak_ptr<Context> &Owner, Fn &&Body) {
  std::shared_ptr<Context> C = Owner.lock();
  if (C)
    current::push(C);
  Body(C);
  if (C)
    current::pop();
}

/// Whether [P, P + Bytes) lies in memory the driver allocated or registered
/// (device, managed, page-locked or registered host memory): copies to and
/// from it can be asynchronous.
bool isPageLocked(const void *P, size_t Bytes);

/// Moves memory the way a copy's stream task does: memmove, split among the
/// workers of a device when large (core/CopyEngine.h).
struct Mover {
  int DeviceOrdinal = 0;
  unsigned Workers = 1;
  void operator()(void *To, const void *From, size_t Bytes) const {
    moveMemory(To, From, Bytes, DeviceOrdinal, Workers);
  }
};

/// The mover of the current context's device. Needs a current context.
llvm::Expected<Mover> currentMover();

/// Issues \p Work to stream \p H: queued when \p Async (and
/// CUDA_LAUNCH_BLOCKING is not set), else run on the calling thread once the
/// stream reaches it. On a capturing stream it becomes a graph node of type
/// \p Kind; with a WorkRecorder on the thread, the recorder takes it.
llvm::Error issueWork(CUstream H, bool Async, WorkQueue::Task Work,
                      CUgraphNodeType Kind = CU_GRAPH_NODE_TYPE_MEMCPY);

/// Whether work issued to stream \p H is captured or recorded rather than
/// run (so a copy must read its source when the work runs, not now).
bool workIsDeferred(CUstream H);

/// While one lives on a thread, the work an entry point's own code issues
/// goes to it instead of a stream: a graph's copy and memset nodes are
/// checked, and their work made, by the code cuMemcpy3D and cuMemsetD2D*
/// run.
class WorkRecorder {
public:
  WorkRecorder();
  ~WorkRecorder();
  WorkRecorder(const WorkRecorder &) = delete;
  WorkRecorder &operator=(const WorkRecorder &) = delete;

  /// The recorder of the calling thread, if any.
  static WorkRecorder *active();
  /// The work recorded: empty when the operation had nothing to do.
  WorkQueue::Task Work;

private:
  WorkRecorder *Outer;
};

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_STREAMWORK_H

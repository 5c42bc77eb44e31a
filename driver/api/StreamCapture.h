//===- StreamCapture.h - Work issued to capturing streams -------*- C++ -*-===//
//
// Between cuStreamBeginCapture and cuStreamEndCapture a stream's work is not
// run but added to a graph: each operation becomes a node that depends on
// what the stream last captured. Other streams join a capture by waiting for
// an event recorded in it, and must be joined back before it ends. These
// are the hooks the other entry points call; all answer at once when no
// capture is in progress.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_API_STREAMCAPTURE_H
#define CUCPU_DRIVER_API_STREAMCAPTURE_H

#include "core/Graph.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu {
class Context;
class Event;
class Stream;
} // namespace cucpu

namespace cucpu::api {

/// Whether work issued to \p S (null: a default stream) is captured.
bool capturing(const Stream *S);

/// Adds a node doing \p P to \p S's capture, after what \p S captured last.
llvm::Error captureNode(Stream &S, NodeParams P);

/// Work on \p C's legacy stream synchronizes with its blocking streams, so
/// while one of them captures it is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT and
/// (when \p Invalidate: work, not a query) invalidates that capture.
llvm::Error checkLegacyUse(const Context &C, bool Invalidate = true);

/// For operations a capturing stream cannot do (\p What: synchronizing or
/// querying it): CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, and the capture is
/// invalidated.
llvm::Error refuseWhileCapturing(const Stream *S, const char *What);

/// Calls that are unsafe during a capture (allocations): while a capture in
/// global mode is in progress on any thread, or one in thread-local mode on
/// this one, they are CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidate
/// it, unless this thread's mode is relaxed
/// (cuThreadExchangeStreamCaptureMode), as on NVIDIA.
llvm::Error checkCaptureSafe(const char *What);

/// cuCtxSynchronize while any stream of \p C captures:
/// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, as NVIDIA.
llvm::Error checkNoCaptureIn(const Context &C);

/// cuStreamDestroy of \p S: it leaves any capture; a capture it began ends,
/// and its graph is dropped.
void forgetStream(const Stream &S);

/// cuEventRecord into capturing stream \p S: the event stands for what \p S
/// captured so far (an external record becomes an event record node).
llvm::Error captureEventRecord(const std::shared_ptr<Event> &E, Stream &S,
                               bool External);

/// cuStreamWaitEvent: true when the wait was a capture's (\p S joins the
/// capture \p E was recorded in, or, capturing, depends on it); false when
/// it is an ordinary wait for the caller to issue.
llvm::Expected<bool> captureStreamWait(const std::shared_ptr<Stream> &S,
                                       const std::shared_ptr<Event> &E,
                                       bool External);

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_STREAMCAPTURE_H

//===- StreamCapture.cpp - Building graphs from stream work ---------------===//
//
// "A call to cudaStreamBeginCapture() places a stream in capture mode. When
// a stream is being captured, work launched into the stream is not enqueued
// for execution. It is instead appended to an internal graph" (CUDA 11
// Programming Guide, 3.2.5.6.3, Creating a Graph Using Stream Capture).
// The driver captures: every runtime call that queues work does so through
// a cu* call on the same stream, so the runtime only passes capture's own
// calls through. The runtime's capture statuses and modes are the driver's.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"

using namespace cucpu;
using namespace cucpu::rt;

static_assert(int(cudaStreamCaptureStatusInvalidated) ==
              int(CU_STREAM_CAPTURE_STATUS_INVALIDATED));
static_assert(int(cudaStreamCaptureModeRelaxed) ==
              int(CU_STREAM_CAPTURE_MODE_RELAXED));
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));

extern "C" {

cudaError_t CUDARTAPI cudaStreamBeginCapture(cudaStream_t Stream,
                                             enum cudaStreamCaptureMode Mode) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuStreamBeginCapture(Stream, static_cast<CUstreamCaptureMode>(Mode)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamEndCapture(cudaStream_t Stream,
                                           cudaGraph_t *Graph) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamEndCapture(Stream, Graph));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamIsCapturing(
    cudaStream_t Stream, enum cudaStreamCaptureStatus *Status) {
  CUDART_FAIL_IF(!Status, cudaErrorInvalidValue, "The status pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUstreamCaptureStatus S;
  CUDART_DRIVER(cuStreamIsCapturing(Stream, &S));
  *Status = static_cast<cudaStreamCaptureStatus>(S);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetCaptureInfo(
    cudaStream_t Stream, enum cudaStreamCaptureStatus *Status,
    unsigned long long *Id, cudaGraph_t *Graph,
    const cudaGraphNode_t **Dependencies, const cudaGraphEdgeData **EdgeData,
    size_t *NumDependencies) {
  CUDART_FAIL_IF(!Status, cudaErrorInvalidValue, "The status pointer is null.");
  CUDART_CONTEXT(Ctx);
  // Only the outputs asked for are passed on: the driver fills in what it
  // is given, and the capture's id is a cuuint64_t.
  CUstreamCaptureStatus S;
  cuuint64_t CaptureId = 0;
  CUDART_DRIVER(cuStreamGetCaptureInfo(
      Stream, &S, Id ? &CaptureId : nullptr, Graph, Dependencies,
      reinterpret_cast<const CUgraphEdgeData **>(EdgeData), NumDependencies));
  *Status = static_cast<cudaStreamCaptureStatus>(S);
  if (Id)
    *Id = CaptureId;
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *Mode) {
  CUDART_FAIL_IF(!Mode, cudaErrorInvalidValue, "The mode pointer is null.");
  CUDART_CONTEXT(Ctx);
  auto M = static_cast<CUstreamCaptureMode>(*Mode);
  CUDART_DRIVER(cuThreadExchangeStreamCaptureMode(&M));
  *Mode = static_cast<cudaStreamCaptureMode>(M);
  return cudaSuccess;
}

} // extern "C"

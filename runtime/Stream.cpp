//===- Stream.cpp - Streams, events and host callbacks --------------------===//
//
// cudaStream_t and cudaEvent_t are the driver's CUstream and CUevent, and
// the runtime's stream and event flags are the driver's, so these calls
// pass their handles through.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"

#include <new>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

/// A cudaStreamAddCallback callback, called from the driver's with the
/// runtime's error code.
struct StreamCallback {
  cudaStreamCallback_t Callback;
  void *UserData;
};

void CUDA_CB runStreamCallback(CUstream Stream, CUresult Status, void *Data) {
  auto *C = static_cast<StreamCallback *>(Data);
  StreamCallback Copy = *C;
  delete C;
  Copy.Callback(Stream, fromDriver(Status), Copy.UserData);
}

/// The result of a query: cudaErrorNotReady is an answer, not a failure,
/// and does not become the last error.
cudaError_t answer(const char *Function, CUresult R) {
  if (R == CUDA_ERROR_NOT_READY)
    return cudaErrorNotReady;
  CUDART_DRIVER_FOR(Function, R);
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t *Stream) {
  CUDART_FAIL_IF(!Stream, cudaErrorInvalidValue, "The stream pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamCreate(Stream, CU_STREAM_DEFAULT));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t *Stream,
                                                unsigned int Flags) {
  CUDART_FAIL_IF(!Stream, cudaErrorInvalidValue, "The stream pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamCreate(Stream, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t *Stream,
                                                   unsigned int Flags,
                                                   int Priority) {
  CUDART_FAIL_IF(!Stream, cudaErrorInvalidValue, "The stream pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamCreateWithPriority(Stream, Flags, Priority));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamDestroy(Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamSynchronize(Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  return answer(__func__, cuStreamQuery(Stream));
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t Stream,
                                          cudaEvent_t Event,
                                          unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamWaitEvent(Stream, Event, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetPriority(cudaStream_t Stream,
                                            int *Priority) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamGetPriority(Stream, Priority));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetFlags(cudaStream_t Stream,
                                         unsigned int *Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamGetFlags(Stream, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetId(cudaStream_t Stream,
                                      unsigned long long *StreamId) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamGetId(Stream, StreamId));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamGetDevice(cudaStream_t Stream, int *Device) {
  CUDART_FAIL_IF(!Device, cudaErrorInvalidValue, "The device pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdevice D;
  CUDART_DRIVER(cuStreamGetDevice(Stream, &D));
  *Device = D;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamAddCallback(cudaStream_t Stream,
                                            cudaStreamCallback_t Callback,
                                            void *UserData,
                                            unsigned int Flags) {
  CUDART_FAIL_IF(!Callback, cudaErrorInvalidValue, "The callback is null.");
  CUDART_CONTEXT(Ctx);
  auto *C = new (std::nothrow) StreamCallback{Callback, UserData};
  CUDART_FAIL_IF(!C, cudaErrorMemoryAllocation,
                 "No memory for the callback's record.");
  if (CUresult R = cuStreamAddCallback(Stream, runStreamCallback, C, Flags)) {
    delete C;
    return failDriver(__func__, R);
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                                         void *UserData) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuLaunchHostFunc(Stream, Fn, UserData));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *Event) {
  CUDART_FAIL_IF(!Event, cudaErrorInvalidValue, "The event pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventCreate(Event, CU_EVENT_DEFAULT));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t *Event,
                                               unsigned int Flags) {
  CUDART_FAIL_IF(!Event, cudaErrorInvalidValue, "The event pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventCreate(Event, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventDestroy(Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t Event, cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventRecord(Event, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t Event,
                                               cudaStream_t Stream,
                                               unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventRecordWithFlags(Event, Stream, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  return answer(__func__, cuEventQuery(Event));
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuEventSynchronize(Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float *Ms, cudaEvent_t Start,
                                           cudaEvent_t End) {
  CUDART_FAIL_IF(!Ms, cudaErrorInvalidValue, "The time pointer is null.");
  CUDART_CONTEXT(Ctx);
  return answer(__func__, cuEventElapsedTime(Ms, Start, End));
}

// cudaLaunchAttributeValue has CUlaunchAttributeValue's layout and
// cudaLaunchAttributeID its values, so attributes pass through.
static_assert(sizeof(cudaLaunchAttributeValue) ==
              sizeof(CUlaunchAttributeValue));

cudaError_t CUDARTAPI cudaStreamGetAttribute(cudaStream_t Stream,
                                             cudaStreamAttrID Id,
                                             cudaStreamAttrValue *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuStreamGetAttribute(Stream, static_cast<CUstreamAttrID>(Id),
                           reinterpret_cast<CUstreamAttrValue *>(Value)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamSetAttribute(cudaStream_t Stream,
                                             cudaStreamAttrID Id,
                                             const cudaStreamAttrValue *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuStreamSetAttribute(Stream, static_cast<CUstreamAttrID>(Id),
                           reinterpret_cast<const CUstreamAttrValue *>(Value)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCopyAttributes(cudaStream_t Dst,
                                               cudaStream_t Src) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuStreamCopyAttributes(Dst, Src));
  return cudaSuccess;
}

} // extern "C"

//===- Context.cpp - Primary contexts, initialised on demand --------------===//
#include "Context.h"
#include "Errors.h"

#include <mutex>

using namespace cucpu;

namespace {
/// The thread's device: 0 until cudaSetDevice (CUDA Programming Guide:
/// "device 0 is used by default").
thread_local int ThreadDevice = 0;

CUresult InitResult = CUDA_SUCCESS;
std::once_flag InitOnce;
} // namespace

cudaError_t rt::initialize(const char *Function) {
  std::call_once(InitOnce, [] { InitResult = cuInit(0); });
  if (InitResult == CUDA_SUCCESS)
    return cudaSuccess;
  // cuInit's CUDA_ERROR_NO_DEVICE is the runtime's cudaErrorNoDevice; any
  // other failure means the driver could not start.
  return failDriverAs(Function, InitResult,
                      InitResult == CUDA_ERROR_NO_DEVICE
                          ? cudaErrorNoDevice
                          : cudaErrorInitializationError);
}

cudaError_t rt::checkDevice(const char *Function, int Device) {
  CUDART_TRY(initialize(Function));
  int Count = 0;
  CUDART_DRIVER(cuDeviceGetCount(&Count));
  CUDART_FAIL_IF(Device < 0 || Device >= Count, cudaErrorInvalidDevice,
                 "Device %d does not exist: there are %d devices.", Device,
                 Count);
  return cudaSuccess;
}

int rt::threadDevice() {
  CUcontext Current = nullptr;
  CUdevice D;
  if (cuCtxGetCurrent(&Current) == CUDA_SUCCESS && Current &&
      cuCtxGetDevice(&D) == CUDA_SUCCESS)
    ThreadDevice = D;
  return ThreadDevice;
}

cudaError_t rt::selectDevice(const char *Function, int Device) {
  CUDART_TRY(checkDevice(Function, Device));
  CUcontext Primary = nullptr;
  // Retaining once per call is harmless: the runtime holds the primary
  // context until the process ends or cudaDeviceReset destroys it.
  if (CUresult R = cuDevicePrimaryCtxRetain(&Primary, Device))
    return failDriver(Function, R);
  if (CUresult R = cuCtxSetCurrent(Primary))
    return failDriver(Function, R);
  ThreadDevice = Device;
  return cudaSuccess;
}

cudaError_t rt::currentContext(const char *Function, CurrentContext &Out) {
  CUDART_TRY(initialize(Function));
  // One driver call when a context is current (every call after the
  // first): its id (cuCtxGetId of NULL is the current context's).
  unsigned long long Id = 0;
  CUresult R = cuCtxGetId(nullptr, &Id);
  if (R == CUDA_ERROR_INVALID_CONTEXT) {
    CUDART_TRY(selectDevice(Function, ThreadDevice));
    R = cuCtxGetId(nullptr, &Id);
  }
  if (R != CUDA_SUCCESS)
    return failDriver(Function, R);
  Out.Id = Id;
  return cudaSuccess;
}

//===- Context.h - The runtime's implicit contexts ------------*- C++ -*-===//
//
// The runtime has no contexts of its own: "the runtime API ... uses the
// primary context of the device" (CUDA Programming Guide, Interoperability
// between Runtime and Driver APIs). A thread's runtime calls run in the
// context current to it: one a driver-API user made current, else the
// primary context of the thread's device (cudaSetDevice, default 0),
// retained and made current on the first call that needs it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_RUNTIME_CONTEXT_H
#define CUCPU_RUNTIME_CONTEXT_H

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace cucpu::rt {

/// The context a runtime call runs in, named by its never-reused id
/// (cuCtxGetId), which keys what the runtime loads into it.
struct CurrentContext {
  uint64_t Id = 0;
};

/// Initialises the driver once per process (cuInit). On failure records
/// the error for \p Function and returns it.
cudaError_t initialize(const char *Function);

/// Makes sure the calling thread has a current context (see above) and
/// describes it in \p Out. On failure records the error for \p Function.
cudaError_t currentContext(const char *Function, CurrentContext &Out);

/// The device of the calling thread's runtime calls (cudaGetDevice): that of
/// the current context if a driver-API user made one current, else the one
/// cudaSetDevice chose (default 0).
int threadDevice();

/// Makes \p Device the calling thread's device: its primary context becomes
/// current (cudaSetDevice).
cudaError_t selectDevice(const char *Function, int Device);

/// Checks that \p Device names a device; records cudaErrorInvalidDevice.
cudaError_t checkDevice(const char *Function, int Device);

} // namespace cucpu::rt

/// Makes sure the calling thread has a current context, described in
/// \p Var; failures are recorded for entry point \p Name.
#define CUDART_CONTEXT_FOR(Name, Var)                                          \
  ::cucpu::rt::CurrentContext Var;                                             \
  CUDART_TRY(::cucpu::rt::currentContext(Name, Var))
/// CUDART_CONTEXT_FOR in the entry point itself.
#define CUDART_CONTEXT(Var) CUDART_CONTEXT_FOR(__func__, Var)

#endif // CUCPU_RUNTIME_CONTEXT_H

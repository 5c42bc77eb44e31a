//===- ErrorStrings.cpp - cuGetErrorName and cuGetErrorString -------------===//
//
// Every value of CUresult in CUDA 13.0 with its enumerator name, which
// programs compare against and so must be exact, and a one-sentence
// description in cucpu's own words.
//
//===----------------------------------------------------------------------===//
#include "api/ErrorStrings.h"

#include "core/Entry.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

using namespace cucpu;

namespace {

struct ErrorText {
  CUresult Code;
  const char *Name;
  const char *Description;
};

#define CUCPU_ERROR(Code, Description) {Code, #Code, Description}

// Sorted by code (checked below), for binary search.
constexpr ErrorText Errors[] = {
    CUCPU_ERROR(CUDA_SUCCESS, "The call completed successfully."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_VALUE,
                "An argument is outside the range of values the function "
                "accepts."),
    CUCPU_ERROR(CUDA_ERROR_OUT_OF_MEMORY,
                "There is not enough memory to complete the operation."),
    CUCPU_ERROR(CUDA_ERROR_NOT_INITIALIZED,
                "The driver has not been initialized; call cuInit first."),
    CUCPU_ERROR(CUDA_ERROR_DEINITIALIZED,
                "The driver is shutting down and accepts no more calls."),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_DISABLED,
                "Profiling is disabled for this process."),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_NOT_INITIALIZED,
                "The profiler was not initialized (a deprecated code)."),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STARTED,
                "Profiling was already started (a deprecated code)."),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STOPPED,
                "Profiling was already stopped (a deprecated code)."),
    CUCPU_ERROR(CUDA_ERROR_STUB_LIBRARY,
                "The loaded driver library is a stub with no real driver "
                "behind it."),
    CUCPU_ERROR(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER,
                "The function needs a newer driver than the one installed."),
    CUCPU_ERROR(CUDA_ERROR_DEVICE_UNAVAILABLE,
                "The device cannot be used right now, for example because "
                "another process holds it exclusively."),
    CUCPU_ERROR(CUDA_ERROR_NO_DEVICE, "No CUDA-capable device was found."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_DEVICE,
                "The device ordinal or handle does not name a device."),
    CUCPU_ERROR(CUDA_ERROR_DEVICE_NOT_LICENSED,
                "The device lacks the license this operation requires."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_IMAGE,
                "The module image is malformed or is not a kernel image."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_CONTEXT,
                "There is no usable context for this call: none is current, "
                "or the handle does not name a live context."),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT,
                "The context was already current (a deprecated code)."),
    CUCPU_ERROR(CUDA_ERROR_MAP_FAILED, "A mapping operation failed."),
    CUCPU_ERROR(CUDA_ERROR_UNMAP_FAILED, "An unmapping operation failed."),
    CUCPU_ERROR(CUDA_ERROR_ARRAY_IS_MAPPED,
                "The array cannot be destroyed while it is mapped."),
    CUCPU_ERROR(CUDA_ERROR_ALREADY_MAPPED, "The resource is already mapped."),
    CUCPU_ERROR(CUDA_ERROR_NO_BINARY_FOR_GPU,
                "The module holds no code that can run on this device."),
    CUCPU_ERROR(CUDA_ERROR_ALREADY_ACQUIRED,
                "The resource has already been acquired."),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED, "The resource is not mapped."),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
                "The mapped resource cannot be accessed as an array."),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_POINTER,
                "The mapped resource cannot be accessed through a pointer."),
    CUCPU_ERROR(CUDA_ERROR_ECC_UNCORRECTABLE,
                "Device memory reported an error that ECC could not "
                "correct."),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_LIMIT,
                "This device does not support that context limit."),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE,
                "The context is already in use by another thread."),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                "Peer access between these devices is not supported."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_PTX, "The PTX code failed to compile."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
                "The graphics API context is not valid."),
    CUCPU_ERROR(CUDA_ERROR_NVLINK_UNCORRECTABLE,
                "An NVLink error that could not be corrected was detected."),
    CUCPU_ERROR(CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
                "The library of the PTX JIT compiler could not be found."),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
                "The PTX code has a version this driver does not support."),
    CUCPU_ERROR(CUDA_ERROR_JIT_COMPILATION_DISABLED,
                "JIT compilation of device code is disabled."),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                "The requested kind of execution affinity is not supported."),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC,
                "The code synchronizes on the device side, which this "
                "device does not support."),
    CUCPU_ERROR(CUDA_ERROR_CONTAINED,
                "An error on the device was contained; the CUDA state of "
                "this process can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_SOURCE,
                "The device code source is not valid."),
    CUCPU_ERROR(CUDA_ERROR_FILE_NOT_FOUND, "The file does not exist."),
    CUCPU_ERROR(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND,
                "A symbol of a shared object could not be resolved."),
    CUCPU_ERROR(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED,
                "A shared object failed to initialize."),
    CUCPU_ERROR(CUDA_ERROR_OPERATING_SYSTEM,
                "A call to the operating system failed."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_HANDLE,
                "A handle does not name a live object of the expected "
                "kind."),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_STATE,
                "The resource is not in a state that allows this "
                "operation."),
    CUCPU_ERROR(CUDA_ERROR_LOSSY_QUERY,
                "The answer to the query would not be exact."),
    CUCPU_ERROR(CUDA_ERROR_NOT_FOUND,
                "The named symbol, function, variable or texture does not "
                "exist."),
    CUCPU_ERROR(CUDA_ERROR_NOT_READY,
                "The asynchronous work has not finished yet."),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_ADDRESS,
                "A kernel accessed an invalid memory address; the context "
                "can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                "The launch needs more threads, registers or shared memory "
                "than the device can give it."),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_TIMEOUT,
                "The kernel ran past the time limit and was stopped; the "
                "context can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
                "The launch uses a texture in a way it does not support."),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
                "Peer access to that context is already enabled."),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
                "Peer access to that context has not been enabled."),
    CUCPU_ERROR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
                "The primary context of the device is already active."),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_IS_DESTROYED,
                "The context current to this thread has been destroyed or "
                "was never set up."),
    CUCPU_ERROR(CUDA_ERROR_ASSERT,
                "A device-side assertion failed; the context can no longer "
                "be used."),
    CUCPU_ERROR(CUDA_ERROR_TOO_MANY_PEERS,
                "No more peer connections can be enabled."),
    CUCPU_ERROR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                "The host memory range is already registered."),
    CUCPU_ERROR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
                "The host memory range is not registered."),
    CUCPU_ERROR(CUDA_ERROR_HARDWARE_STACK_ERROR,
                "A kernel overflowed or corrupted its call stack; the "
                "context can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_INSTRUCTION,
                "A kernel executed an illegal instruction; the context can "
                "no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_MISALIGNED_ADDRESS,
                "A kernel accessed a misaligned address; the context can no "
                "longer be used."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_ADDRESS_SPACE,
                "A kernel used an address in the wrong memory space; the "
                "context can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_PC,
                "A kernel jumped to an invalid instruction address; the "
                "context can no longer be used."),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_FAILED,
                "A kernel failed while running; the context can no longer "
                "be used."),
    CUCPU_ERROR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                "The cooperative launch has more blocks than can be "
                "resident at the same time."),
    CUCPU_ERROR(CUDA_ERROR_TENSOR_MEMORY_LEAK,
                "A kernel finished without releasing its tensor memory."),
    CUCPU_ERROR(CUDA_ERROR_NOT_PERMITTED, "The operation is not permitted."),
    CUCPU_ERROR(CUDA_ERROR_NOT_SUPPORTED,
                "This driver or device does not support the operation."),
    CUCPU_ERROR(CUDA_ERROR_SYSTEM_NOT_READY,
                "The system is not yet ready to run CUDA work."),
    CUCPU_ERROR(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
                "The driver library and the kernel-mode driver have "
                "different versions."),
    CUCPU_ERROR(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                "This device does not support running with a forward "
                "compatibility driver."),
    CUCPU_ERROR(CUDA_ERROR_MPS_CONNECTION_FAILED,
                "Connecting to the MPS server failed."),
    CUCPU_ERROR(CUDA_ERROR_MPS_RPC_FAILURE,
                "A remote call to the MPS server failed."),
    CUCPU_ERROR(CUDA_ERROR_MPS_SERVER_NOT_READY,
                "The MPS server is not ready for clients."),
    CUCPU_ERROR(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,
                "The MPS server already has its maximum number of "
                "clients."),
    CUCPU_ERROR(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
                "The MPS server already has its maximum number of device "
                "connections."),
    CUCPU_ERROR(CUDA_ERROR_MPS_CLIENT_TERMINATED,
                "The MPS server terminated this client."),
    CUCPU_ERROR(CUDA_ERROR_CDP_NOT_SUPPORTED,
                "Launching kernels from the device is not supported here."),
    CUCPU_ERROR(CUDA_ERROR_CDP_VERSION_MISMATCH,
                "The code mixes incompatible versions of device-side "
                "launches."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                "The operation is not allowed while the stream is being "
                "captured."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                "The stream capture was invalidated by an earlier error."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_MERGE,
                "The operation would merge two separate stream captures."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                "The capture was not started in this stream."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
                "The capture forked into another stream that was never "
                "joined back."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                "The operation would add a dependency that crosses the "
                "boundary of a capture."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                "The operation would wait on the legacy default stream "
                "during a capture."),
    CUCPU_ERROR(CUDA_ERROR_CAPTURED_EVENT,
                "The operation is not allowed on an event recorded during a "
                "capture."),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                "A relaxed-mode capture must be ended by the thread that "
                "began it."),
    CUCPU_ERROR(CUDA_ERROR_TIMEOUT,
                "The wait ran out of time before the operation finished."),
    CUCPU_ERROR(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                "The executable graph could not be updated in place."),
    CUCPU_ERROR(CUDA_ERROR_EXTERNAL_DEVICE,
                "An external device reported an asynchronous error."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_CLUSTER_SIZE,
                "The thread block cluster size is not valid."),
    CUCPU_ERROR(CUDA_ERROR_FUNCTION_NOT_LOADED,
                "The function or kernel is not loaded yet."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_RESOURCE_TYPE,
                "The device resource is of the wrong type for this "
                "operation."),
    CUCPU_ERROR(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION,
                "The device resources are not set up the way this "
                "operation needs."),
    CUCPU_ERROR(CUDA_ERROR_KEY_ROTATION,
                "Rotating the encryption keys failed."),
    CUCPU_ERROR(CUDA_ERROR_UNKNOWN, "An unexpected internal error occurred."),
};

#undef CUCPU_ERROR

static_assert(std::is_sorted(std::begin(Errors), std::end(Errors),
                             [](const ErrorText &A, const ErrorText &B) {
                               return A.Code < B.Code;
                             }),
              "Errors must be sorted by code");

const ErrorText *find(CUresult Code) {
  const ErrorText *It = std::lower_bound(
      std::begin(Errors), std::end(Errors), Code,
      [](const ErrorText &E, CUresult C) { return E.Code < C; });
  return It != std::end(Errors) && It->Code == Code ? It : nullptr;
}

} // namespace

const char *cucpu::knownErrorName(CUresult Code) {
  const ErrorText *E = find(Code);
  return E ? E->Name : nullptr;
}

const char *cucpu::errorDescription(CUresult Code) {
  const ErrorText *E = find(Code);
  return E ? E->Description : nullptr;
}

const char *cucpu::errorName(CUresult Code) {
  if (const char *Name = knownErrorName(Code))
    return Name;
  // Enough for "CUDA_ERROR_UNKNOWN_CODE(" + a 32-bit value + ")".
  thread_local char Buffer[48];
  std::snprintf(Buffer, sizeof(Buffer), "CUDA_ERROR_UNKNOWN_CODE(%d)",
                static_cast<int>(Code));
  return Buffer;
}

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult Error,
                                             const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&]() -> llvm::Error {
    CU_INVALID_IF(!PStr, CUDA_ERROR_INVALID_VALUE,
                  "The string pointer is NULL.");
    *PStr = knownErrorName(Error);
    CU_INVALID_IF(!*PStr, CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUresult value.", static_cast<int>(Error));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult Error,
                                               const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&]() -> llvm::Error {
    CU_INVALID_IF(!PStr, CUDA_ERROR_INVALID_VALUE,
                  "The string pointer is NULL.");
    *PStr = errorDescription(Error);
    CU_INVALID_IF(!*PStr, CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUresult value.", static_cast<int>(Error));
    return llvm::Error::success();
  });
}

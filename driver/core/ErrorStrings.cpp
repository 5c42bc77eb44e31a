//===- ErrorStrings.cpp - Names and descriptions of CUresult codes --------===//
//
// Every value of CUresult in CUDA 13.0 with its enumerator name and the text
// cuGetErrorString returns. Both are exactly what NVIDIA's driver answers
// (recorded from driver 580 with tools/driver-facts), because programs and
// frameworks compare against them: matching "out of memory" in an error
// message is a common way to detect an out-of-memory failure.
//
//===----------------------------------------------------------------------===//
#include "core/ErrorStrings.h"

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
    CUCPU_ERROR(CUDA_SUCCESS, "no error"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
    CUCPU_ERROR(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
    CUCPU_ERROR(CUDA_ERROR_NOT_INITIALIZED, "initialization error"),
    CUCPU_ERROR(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_DISABLED,
                "profiler disabled while using external profiling tool"),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_NOT_INITIALIZED,
                "profiler not initialized: call cudaProfilerInitialize()"),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STARTED,
                "profiler already started"),
    CUCPU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STOPPED,
                "profiler already stopped"),
    CUCPU_ERROR(CUDA_ERROR_STUB_LIBRARY, "CUDA driver is a stub library"),
    CUCPU_ERROR(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER,
                "API call is not supported in the installed CUDA driver"),
    CUCPU_ERROR(CUDA_ERROR_DEVICE_UNAVAILABLE,
                "CUDA-capable device(s) is/are busy or unavailable"),
    CUCPU_ERROR(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
    CUCPU_ERROR(CUDA_ERROR_DEVICE_NOT_LICENSED,
                "device doesn't have valid Grid license"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current"),
    CUCPU_ERROR(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed"),
    CUCPU_ERROR(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed"),
    CUCPU_ERROR(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped"),
    CUCPU_ERROR(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped"),
    CUCPU_ERROR(CUDA_ERROR_NO_BINARY_FOR_GPU,
                "no kernel image is available for execution on the device"),
    CUCPU_ERROR(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired"),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED, "resource not mapped"),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array"),
    CUCPU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_POINTER,
                "resource not mapped as pointer"),
    CUCPU_ERROR(CUDA_ERROR_ECC_UNCORRECTABLE,
                "uncorrectable ECC error encountered"),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_LIMIT,
                "limit is not supported on this architecture"),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE,
                "exclusive-thread device already in use by a different thread"),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                "peer access is not supported between these two devices"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
                "invalid OpenGL or DirectX context"),
    CUCPU_ERROR(CUDA_ERROR_NVLINK_UNCORRECTABLE,
                "uncorrectable NVLink error detected during the execution"),
    CUCPU_ERROR(CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
                "PTX JIT compiler library not found"),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
                "the provided PTX was compiled with an unsupported toolchain."),
    CUCPU_ERROR(CUDA_ERROR_JIT_COMPILATION_DISABLED,
                "PTX JIT compilation was disabled"),
    CUCPU_ERROR(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                "the provided execution affinity is not supported"),
    CUCPU_ERROR(
        CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC,
        "the provided PTX contains unsupported call to cudaDeviceSynchronize"),
    CUCPU_ERROR(
        CUDA_ERROR_CONTAINED,
        "Invalid access of peer GPU memory over nvlink or a hardware error"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid"),
    CUCPU_ERROR(CUDA_ERROR_FILE_NOT_FOUND, "file not found"),
    CUCPU_ERROR(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND,
                "shared object symbol not found"),
    CUCPU_ERROR(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED,
                "shared object initialization failed"),
    CUCPU_ERROR(CUDA_ERROR_OPERATING_SYSTEM,
                "OS call failed or operation not supported on this OS"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_STATE,
                "the operation cannot be performed in the present state"),
    CUCPU_ERROR(CUDA_ERROR_LOSSY_QUERY,
                "attempted introspection would be semantically lossy"),
    CUCPU_ERROR(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
    CUCPU_ERROR(CUDA_ERROR_NOT_READY, "device not ready"),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_ADDRESS,
                "an illegal memory access was encountered"),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                "too many resources requested for launch"),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_TIMEOUT,
                "the launch timed out and was terminated"),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
                "launch uses incompatible texturing mode"),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
                "peer access is already enabled"),
    CUCPU_ERROR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
                "peer access has not been enabled"),
    CUCPU_ERROR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
                "cannot set while device is active in this process"),
    CUCPU_ERROR(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed"),
    CUCPU_ERROR(CUDA_ERROR_ASSERT, "device-side assert triggered"),
    CUCPU_ERROR(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted"),
    CUCPU_ERROR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                "part or all of the requested memory range is already mapped"),
    CUCPU_ERROR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
                "pointer does not correspond to a registered memory region"),
    CUCPU_ERROR(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error"),
    CUCPU_ERROR(CUDA_ERROR_ILLEGAL_INSTRUCTION,
                "an illegal instruction was encountered"),
    CUCPU_ERROR(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_ADDRESS_SPACE,
                "operation not supported on global/shared address space"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_PC, "invalid program counter"),
    CUCPU_ERROR(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure"),
    CUCPU_ERROR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                "too many blocks in cooperative launch"),
    CUCPU_ERROR(CUDA_ERROR_TENSOR_MEMORY_LEAK,
                "tensor memory not completely freed"),
    CUCPU_ERROR(CUDA_ERROR_NOT_PERMITTED, "operation not permitted"),
    CUCPU_ERROR(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
    CUCPU_ERROR(CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized"),
    CUCPU_ERROR(
        CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
        "system has unsupported display driver / cuda driver combination"),
    CUCPU_ERROR(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                "forward compatibility was attempted on non supported HW"),
    CUCPU_ERROR(CUDA_ERROR_MPS_CONNECTION_FAILED,
                "MPS client failed to connect to the MPS control daemon or the "
                "MPS server"),
    CUCPU_ERROR(CUDA_ERROR_MPS_RPC_FAILURE,
                "the remote procedural call between the MPS server and the MPS "
                "client failed"),
    CUCPU_ERROR(CUDA_ERROR_MPS_SERVER_NOT_READY,
                "MPS server is not ready to accept new MPS client requests"),
    CUCPU_ERROR(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,
                "the hardware resources required to create MPS client have "
                "been exhausted"),
    CUCPU_ERROR(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
                "the hardware resources required to support device connections "
                "have been exhausted"),
    CUCPU_ERROR(CUDA_ERROR_MPS_CLIENT_TERMINATED,
                "the MPS client has been terminated by the server"),
    CUCPU_ERROR(CUDA_ERROR_CDP_NOT_SUPPORTED,
                "is using CUDA Dynamic Parallelism, but the current "
                "configuration, like MPS, does not support it"),
    CUCPU_ERROR(CUDA_ERROR_CDP_VERSION_MISMATCH,
                "unsupported interaction between different versions of CUDA "
                "Dynamic Parallelism"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                "operation not permitted when stream is capturing"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                "operation failed due to a previous error during capture"),
    CUCPU_ERROR(
        CUDA_ERROR_STREAM_CAPTURE_MERGE,
        "operation would result in a merge of separate capture sequences"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                "capture was not ended in the same stream as it began"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
                "capturing stream has unjoined work"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                "dependency created on uncaptured work in another stream"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                "operation would make the legacy stream depend on a capturing "
                "blocking stream"),
    CUCPU_ERROR(CUDA_ERROR_CAPTURED_EVENT,
                "operation not permitted on an event last recorded in a "
                "capturing stream"),
    CUCPU_ERROR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                "attempt to terminate a thread-local capture sequence from "
                "another thread"),
    CUCPU_ERROR(CUDA_ERROR_TIMEOUT, "wait operation timed out"),
    CUCPU_ERROR(
        CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
        "the graph update was not performed because it included changes which "
        "violated constraints specific to instantiated graph update"),
    CUCPU_ERROR(
        CUDA_ERROR_EXTERNAL_DEVICE,
        "an async error has occured in external entity outside of CUDA"),
    CUCPU_ERROR(
        CUDA_ERROR_INVALID_CLUSTER_SIZE,
        "a kernel launch error has occurred due to cluster misconfiguration"),
    CUCPU_ERROR(CUDA_ERROR_FUNCTION_NOT_LOADED,
                "the function handle is not loaded when calling an API that "
                "requires a loaded function"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_RESOURCE_TYPE,
                "one or more resources passed in are not valid resource types "
                "for the operation"),
    CUCPU_ERROR(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION,
                "one or more resources are insufficient or non-applicable for "
                "the operation"),
    CUCPU_ERROR(CUDA_ERROR_KEY_ROTATION,
                "an error happened during the key rotation sequence"),
    CUCPU_ERROR(CUDA_ERROR_UNKNOWN, "unknown error"),
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

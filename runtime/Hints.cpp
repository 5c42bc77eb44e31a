//===- Hints.cpp - Managed-memory hints and driver entry points -----------===//
//
// On the CPU every managed allocation is resident where every processor can
// reach it, so prefetches, advice and stream attachment only have their
// arguments checked: "this is only a performance hint" (CUDA 11 guide,
// Appendix N, Performance Tuning).
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"
#include "Registry.h"

using namespace cucpu;
using namespace cucpu::rt;

namespace {
/// Checks that [Ptr, Ptr + Count) lies in one allocation the driver knows.
cudaError_t checkRange(const char *Function, const void *Ptr, size_t Count) {
  CUDART_CONTEXT_FOR(Function, Ctx);
  CUdeviceptr Base = 0;
  size_t Size = 0;
  CUresult R =
      cuMemGetAddressRange(&Base, &Size, reinterpret_cast<CUdeviceptr>(Ptr));
  CUDART_FAIL_IF_FOR(Function, R != CUDA_SUCCESS, cudaErrorInvalidValue,
                     "%p is not in an allocation of this process.", Ptr);
  auto Start = reinterpret_cast<CUdeviceptr>(Ptr);
  CUDART_FAIL_IF_FOR(Function, Count > Size - (Start - Base),
                     cudaErrorInvalidValue,
                     "%zu bytes at %p run past the end of their "
                     "%zu-byte allocation.",
                     Count, Ptr, Size);
  return cudaSuccess;
}
} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMemPrefetchAsync(const void *DevPtr, size_t Count,
                                           struct cudaMemLocation, unsigned int,
                                           cudaStream_t) {
  return checkRange(__func__, DevPtr, Count);
}

cudaError_t CUDARTAPI cudaMemAdvise(const void *DevPtr, size_t Count,
                                    enum cudaMemoryAdvise,
                                    struct cudaMemLocation) {
  return checkRange(__func__, DevPtr, Count);
}

cudaError_t CUDARTAPI cudaStreamAttachMemAsync(cudaStream_t, void *DevPtr,
                                               size_t Length, unsigned int) {
  return checkRange(__func__, DevPtr, Length);
}

cudaError_t CUDARTAPI cudaGetDriverEntryPointByVersion(
    const char *Symbol, void **FuncPtr, unsigned int Version,
    unsigned long long Flags,
    enum cudaDriverEntryPointQueryResult *DriverStatus) {
  CUDART_FAIL_IF(!Symbol || !FuncPtr, cudaErrorInvalidValue,
                 "The symbol and result pointers must not be null.");
  CUDART_TRY(initialize(__func__));
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SUCCESS;
  CUresult R = cuGetProcAddress(Symbol, FuncPtr, static_cast<int>(Version),
                                Flags, &Status);
  if (DriverStatus)
    *DriverStatus = static_cast<cudaDriverEntryPointQueryResult>(Status);
  if (R == CUDA_ERROR_NOT_FOUND)
    return cudaSuccess; // Reported through DriverStatus, as NVIDIA does.
  CUDART_DRIVER(R);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDriverEntryPoint(
    const char *Symbol, void **FuncPtr, unsigned long long Flags,
    enum cudaDriverEntryPointQueryResult *DriverStatus) {
  return cudaGetDriverEntryPointByVersion(Symbol, FuncPtr, CUDART_VERSION,
                                          Flags, DriverStatus);
}

cudaError_t CUDARTAPI cudaFuncGetName(const char **Name, const void *Func) {
  CUDART_FAIL_IF(!Name, cudaErrorInvalidValue, "The name pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUfunction F;
  CUDART_TRY(findFunction(__func__, Func, Ctx, F));
  CUDART_DRIVER(cuFuncGetName(Name, F));
  return cudaSuccess;
}

} // extern "C"

//===- Library.cpp - Context-independent loading (cudaLibrary*) -----------===//
//
// cudaLibrary_t is the driver's CUlibrary and cudaKernel_t its CUkernel, so
// these calls pass the handles through. A cudaKernel_t is launched and
// queried wherever a kernel's host function is expected (Registry.h), and
// cudaGetKernel gives the kernel of a registered host function from the
// library the runtime loaded its fat binary as.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"
#include "Registry.h"

using namespace cucpu;
using namespace cucpu::rt;

// The runtime's JIT and library options are the driver's, value for value.
static_assert(static_cast<int>(cudaJitMaxRegisters) == CU_JIT_MAX_REGISTERS);
static_assert(static_cast<int>(cudaJitOptimizationLevel) ==
              CU_JIT_OPTIMIZATION_LEVEL);
static_assert(static_cast<int>(cudaLibraryBinaryIsPreserved) ==
              CU_LIBRARY_BINARY_IS_PRESERVED);

namespace {

cudaError_t loadLibrary(const char *Function, cudaLibrary_t *Library,
                        const void *Code, const char *FileName,
                        cudaJitOption *JitOptions, void **JitValues,
                        unsigned NumJit, cudaLibraryOption *LibraryOptions,
                        void **LibraryValues, unsigned NumLibrary) {
  // With the primary context current, the driver loads the library into it
  // at once, so an image it cannot compile fails here.
  CUDART_CONTEXT_FOR(Function, Ctx);
  auto *Jit = reinterpret_cast<CUjit_option *>(JitOptions);
  auto *Lib = reinterpret_cast<CUlibraryOption *>(LibraryOptions);
  CUresult R =
      FileName ? cuLibraryLoadFromFile(Library, FileName, Jit, JitValues,
                                       NumJit, Lib, LibraryValues, NumLibrary)
               : cuLibraryLoadData(Library, Code, Jit, JitValues, NumJit, Lib,
                                   LibraryValues, NumLibrary);
  if (R != CUDA_SUCCESS)
    return failDriver(Function, R);
  return cudaSuccess;
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI
cudaLibraryLoadData(cudaLibrary_t *Library, const void *Code,
                    enum cudaJitOption *JitOptions, void **JitValues,
                    unsigned int NumJit, enum cudaLibraryOption *LibraryOptions,
                    void **LibraryValues, unsigned int NumLibrary) {
  CUDART_FAIL_IF(!Library || !Code, cudaErrorInvalidValue,
                 "The library and image pointers must not be null.");
  return loadLibrary(__func__, Library, Code, nullptr, JitOptions, JitValues,
                     NumJit, LibraryOptions, LibraryValues, NumLibrary);
}

cudaError_t CUDARTAPI cudaLibraryLoadFromFile(
    cudaLibrary_t *Library, const char *FileName,
    enum cudaJitOption *JitOptions, void **JitValues, unsigned int NumJit,
    enum cudaLibraryOption *LibraryOptions, void **LibraryValues,
    unsigned int NumLibrary) {
  CUDART_FAIL_IF(!Library || !FileName, cudaErrorInvalidValue,
                 "The library and file name pointers must not be null.");
  return loadLibrary(__func__, Library, nullptr, FileName, JitOptions,
                     JitValues, NumJit, LibraryOptions, LibraryValues,
                     NumLibrary);
}

cudaError_t CUDARTAPI cudaLibraryUnload(cudaLibrary_t Library) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuLibraryUnload(Library));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryGetKernel(cudaKernel_t *Kernel,
                                           cudaLibrary_t Library,
                                           const char *Name) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuLibraryGetKernel(Kernel, Library, Name));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryGetKernelCount(unsigned int *Count,
                                                cudaLibrary_t Library) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuLibraryGetKernelCount(Count, Library));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryEnumerateKernels(cudaKernel_t *Kernels,
                                                  unsigned int NumKernels,
                                                  cudaLibrary_t Library) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuLibraryEnumerateKernels(Kernels, NumKernels, Library));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryGetGlobal(void **Address, size_t *Bytes,
                                           cudaLibrary_t Library,
                                           const char *Name) {
  // The variable's address in the current context's copy of the library.
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuLibraryGetGlobal(reinterpret_cast<CUdeviceptr *>(Address),
                                   Bytes, Library, Name));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryGetManaged(void **Address, size_t *Bytes,
                                            cudaLibrary_t Library,
                                            const char *Name) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuLibraryGetManaged(reinterpret_cast<CUdeviceptr *>(Address),
                                    Bytes, Library, Name));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaLibraryGetUnifiedFunction(void **Function,
                                                    cudaLibrary_t Library,
                                                    const char *Symbol) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuLibraryGetUnifiedFunction(Function, Library, Symbol));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaKernelSetAttributeForDevice(
    cudaKernel_t Kernel, enum cudaFuncAttribute Attr, int Value, int Device) {
  CUDART_TRY(checkDevice(__func__, Device));
  // cudaFuncAttribute's values are those of CUfunction_attribute's settable
  // members (8: maximum dynamic shared size, 9: carveout, ...).
  CUDART_DRIVER(cuKernelSetAttribute(static_cast<CUfunction_attribute>(Attr),
                                     Value, Kernel, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetKernel(cudaKernel_t *Kernel,
                                    const void *EntryFunction) {
  CUDART_FAIL_IF(!Kernel, cudaErrorInvalidValue, "The kernel pointer is null.");
  CUDART_CONTEXT(Ctx);
  return findKernel(__func__, EntryFunction, Ctx, *Kernel);
}

} // extern "C"

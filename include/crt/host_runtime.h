/*
 * crt/host_runtime.h - the runtime functions a CUDA compiler's host code
 * calls.
 *
 * cucpu's own text. The names, parameter and return types are those that
 * NVIDIA's libcudart exports for nvcc's generated code (crt/host_runtime.h,
 * crt/device_functions.h) and that clang 19 calls from the host side of a
 * CUDA compilation (clang/lib/CodeGen/CGCUDANV.cpp): a translation unit's
 * constructor registers its device image and, for each kernel, __device__,
 * __constant__ and __managed__ variable and texture or surface reference,
 * the host-side address that stands for it; a kernel launch a<<<g, b, s,
 * st>>>(...) pushes its configuration, and the kernel's host stub pops it
 * and calls cudaLaunchKernel. Programs do not call these functions.
 *
 * cuda_runtime.h includes this header, so that every CUDA C++ compilation
 * (cucc's host and device passes included) sees __cudaPushCallConfiguration,
 * which clang looks up by name for the <<<>>> syntax. The header is valid C
 * too, without default arguments.
 */
#ifndef __CUCPU_CRT_HOST_RUNTIME_H__
#define __CUCPU_CRT_HOST_RUNTIME_H__

#include "builtin_types.h"
#include "crt/host_defines.h"

#include <stddef.h>

struct textureReference;
struct surfaceReference;

#if defined(__cplusplus)
extern "C" {
#endif

/// Registers a translation unit's device image (clang passes the address of
/// its __cuda_fatbin_wrapper); returns the handle the other calls take.
extern void **CUDARTAPI __cudaRegisterFatBinary(void *fatCubin);

/// Ends a registration begun by __cudaRegisterFatBinary, after the kernels
/// and variables of the image have been registered.
extern void CUDARTAPI __cudaRegisterFatBinaryEnd(void **fatCubinHandle);

/// Forgets an image and everything registered with it (at exit).
extern void CUDARTAPI __cudaUnregisterFatBinary(void **fatCubinHandle);

/// Registers a kernel: hostFun is the address of its host stub, which
/// cudaLaunchKernel and friends receive; deviceFun and deviceName are its
/// (mangled) name in the image. threadLimit is -1 and the pointers are NULL
/// in clang's and nvcc's calls.
extern void CUDARTAPI __cudaRegisterFunction(
    void **fatCubinHandle, const char *hostFun, char *deviceFun,
    const char *deviceName, int threadLimit, uint3 *tid, uint3 *bid, dim3 *bDim,
    dim3 *gDim, int *wSize);

/// Registers a __device__ or __constant__ variable: hostVar is the address of
/// its host shadow, which cudaMemcpyToSymbol and friends receive; ext is
/// nonzero for an extern declaration, constant for __constant__.
extern void CUDARTAPI __cudaRegisterVar(void **fatCubinHandle, char *hostVar,
                                        char *deviceAddress,
                                        const char *deviceName, int ext,
                                        size_t size, int constant, int global);

/// Registers a __managed__ variable: *hostVarPtrAddress is set to the
/// variable's managed address once the image is loaded.
extern void CUDARTAPI __cudaRegisterManagedVar(
    void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
    const char *deviceName, int ext, size_t size, int constant, int global);

/// Registers a texture reference (a texture<> variable) of dimension dim;
/// norm is nonzero for normalized coordinates.
extern void CUDARTAPI __cudaRegisterTexture(
    void **fatCubinHandle, const struct textureReference *hostVar,
    const void **deviceAddress, const char *deviceName, int dim, int norm,
    int ext);

/// Registers a surface reference (a surface<> variable) of dimension dim.
extern void CUDARTAPI __cudaRegisterSurface(
    void **fatCubinHandle, const struct surfaceReference *hostVar,
    const void **deviceAddress, const char *deviceName, int dim, int ext);

/// What a<<<gridDim, blockDim, sharedMem, stream>>>(...) calls before the
/// kernel's host stub: saves the configuration for the calling thread.
/// Returns 0 if the launch may go on, nonzero to skip the stub call.
#if defined(__cplusplus)
extern __host__ unsigned CUDARTAPI __cudaPushCallConfiguration(
    dim3 gridDim, dim3 blockDim = 1, size_t sharedMem = 0,
    struct CUstream_st *stream = 0);
#else
extern __host__ unsigned CUDARTAPI __cudaPushCallConfiguration(
    dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st *stream);
#endif

/// What a kernel's host stub calls first: takes back the configuration the
/// last __cudaPushCallConfiguration of the calling thread saved. stream
/// points to a cudaStream_t.
extern cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3 *gridDim,
                                                        dim3 *blockDim,
                                                        size_t *sharedMem,
                                                        void *stream);

/// clang's device pass checks a <<<>>> in host code against
/// cudaConfigureCall, the launch API of CUDA 9.1 and older, whatever the
/// CUDA version; only its host pass emits calls (of
/// __cudaPushCallConfiguration). Declared for that check alone: the runtime
/// does not define it.
#if defined(__cplusplus) && defined(__clang__) && defined(__CUDA_ARCH__)
extern __host__ cudaError_t CUDARTAPI
cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                  struct CUstream_st *stream = 0);
#endif

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* __CUCPU_CRT_HOST_RUNTIME_H__ */

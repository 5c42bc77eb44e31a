/*
 * cuda_device_runtime_api.h - the device runtime API, declared.
 *
 * cucpu's own text. CUDA's dynamic parallelism lets kernels launch kernels
 * through these functions (the CUDA 11 guide's Appendix D, "CUDA Dynamic
 * Parallelism"). cucpu runs no launches from device code; the functions are
 * declared, with the names and types of NVIDIA's CUDA 13.0 header, so that
 * code which names them in functions it only runs on the host, or only when
 * compiled with -rdc for a device that has them (Thrust's and CUB's launch
 * and synchronize helpers), compiles. A kernel that does call one fails to
 * load, naming the function.
 */
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__

#include "crt/host_defines.h"
#include "driver_types.h"
#include "vector_types.h"

#if defined(__CUDACC__) && defined(__cplusplus)

extern "C" {
/// cudaDeviceSynchronize in device code, as CUDA 11.6 and later spell it.
__device__ cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void);
/// A buffer for the arguments of a launch from device code.
__device__ void *cudaGetParameterBuffer(size_t alignment, size_t size);
/// The same for a launch of func with the given shape.
__device__ void *cudaGetParameterBufferV2(void *func, dim3 gridDimension,
                                          dim3 blockDimension,
                                          unsigned int sharedMemSize);
/// Launches func from device code with the arguments in parameterBuffer.
__device__ cudaError_t cudaLaunchDevice(void *func, void *parameterBuffer,
                                        dim3 gridDimension, dim3 blockDimension,
                                        unsigned int sharedMemSize,
                                        cudaStream_t stream);
/// The same, for a buffer from cudaGetParameterBufferV2.
__device__ cudaError_t cudaLaunchDeviceV2(void *parameterBuffer,
                                          cudaStream_t stream);
}

#endif /* __CUDACC__ && __cplusplus */

#endif /* __CUDA_DEVICE_RUNTIME_API_H__ */

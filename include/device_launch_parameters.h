/*
 * device_launch_parameters.h - the built-in variables of kernel code.
 *
 * cucpu's own text. threadIdx, blockIdx, blockDim, gridDim and warpSize, with
 * the types of NVIDIA's CUDA 13.0 header. Only kernel code can read them:
 * host code sees declarations without definitions, so that headers written
 * for nvcc can name them. Kernel code compiled by cucc (__CUCPU__ defined)
 * gets them from cucc's prelude (clang's __clang_cuda_builtin_vars.h); there
 * this header adds nothing.
 */
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "vector_types.h"

#if !defined(__CUCPU__)

#if defined(__cplusplus)
extern "C" {
#endif

/// The thread's index in its block.
extern const uint3 threadIdx;
/// The block's index in the grid.
extern const uint3 blockIdx;
/// The block's dimensions.
extern const dim3 blockDim;
/// The grid's dimensions.
extern const dim3 gridDim;
/// Threads per warp.
extern const int warpSize;

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* !__CUCPU__ */

#endif /* __DEVICE_LAUNCH_PARAMETERS_H__ */

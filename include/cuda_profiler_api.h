/*
 * cuda_profiler_api.h - the runtime API's profiler control.
 *
 * cucpu's own text, with the declarations of NVIDIA's CUDA 13.0
 * cuda_profiler_api.h (C linkage, valid C99 and C++).
 */
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

#include "driver_types.h"

#if defined(__cplusplus)
extern "C" {
#endif

/// Starts collecting profile data for the current context (nested calls
/// count).
extern __host__ cudaError_t CUDARTAPI cudaProfilerStart(void);

/// Stops collecting profile data and flushes what was collected.
extern __host__ cudaError_t CUDARTAPI cudaProfilerStop(void);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* __CUDA_PROFILER_API_H__ */

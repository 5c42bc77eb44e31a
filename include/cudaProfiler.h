/*
 * cudaProfiler.h - profiler control of the CUDA driver API.
 *
 * cucpu declares CUoutput_mode, cuProfilerInitialize, cuProfilerStart and
 * cuProfilerStop in cuda.h; this header exists so that programs which include
 * it, as they do with NVIDIA's toolkit, compile unchanged. A cucpu device has
 * no hardware profiler: the calls succeed and have no effect.
 */
/* NVIDIA's include guard, which programs may test. */
#ifndef cuda_profiler_H
#define cuda_profiler_H

#include <cuda.h>

#endif /* cuda_profiler_H */

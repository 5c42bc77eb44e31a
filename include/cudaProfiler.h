/*
 * cudaProfiler.h - profiler control of the CUDA driver API, as provided by
 * cucpu. A cucpu device has no hardware profiler: these calls succeed and
 * have no effect.
 */
#ifndef CUCPU_CUDAPROFILER_H
#define CUCPU_CUDAPROFILER_H

#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Output format of the (legacy) command-line profiler. */
typedef enum CUoutput_mode_enum {
  CU_OUT_KEY_VALUE_PAIR = 0x00, /**< key-value pairs */
  CU_OUT_CSV = 0x01             /**< comma-separated values */
} CUoutput_mode;

/** Configures the legacy profiler (deprecated since CUDA 11). */
CUresult CUDAAPI cuProfilerInitialize(const char *configFile,
                                      const char *outputFile,
                                      CUoutput_mode outputMode);
/** Starts profile collection in the current context. */
CUresult CUDAAPI cuProfilerStart(void);
/** Stops profile collection in the current context. */
CUresult CUDAAPI cuProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif /* CUCPU_CUDAPROFILER_H */

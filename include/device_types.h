/*
 * device_types.h - rounding modes of the CUDA runtime API.
 *
 * cucpu's own text; names and values are those of NVIDIA's CUDA 13.0
 * device_types.h.
 */
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__

#include "crt/host_defines.h"

/// Rounding modes of the conversion intrinsics.
enum cudaRoundMode {
  cudaRoundNearest = 0, ///< to nearest, ties to even
  cudaRoundZero = 1,    ///< towards zero
  cudaRoundPosInf = 2,  ///< towards positive infinity
  cudaRoundMinInf = 3   ///< towards negative infinity
};

#endif /* __DEVICE_TYPES_H__ */

/*
 * surface_types.h - surface types of the CUDA runtime API.
 *
 * cucpu's own text; names and values are those of NVIDIA's CUDA 13.0
 * surface_types.h (which, since CUDA 12, no longer has surface references).
 * Kernel code compiled by cucc (__CUCPU__ defined) gets the enumerations and
 * cudaSurfaceObject_t from cucc's prelude
 * (include/cucpu/device/detail/surfaces.h); this header leaves those out
 * there.
 */
#ifndef __SURFACE_TYPES_H__
#define __SURFACE_TYPES_H__

#include "driver_types.h"

/* Surface types (the surface template's second argument). */
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

#if !defined(__CUCPU__)
/// What a surface access out of bounds does.
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};

/// Whether surface accesses convert formats.
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

/// A surface object: a 64-bit handle.
typedef unsigned long long cudaSurfaceObject_t;
#endif /* !__CUCPU__ */

#endif /* __SURFACE_TYPES_H__ */

/*
 * driver_functions.h - constructors of the runtime's 3D copy structures.
 *
 * cucpu's own text, with the names and parameters of NVIDIA's CUDA 13.0
 * driver_functions.h: make_cudaPitchedPtr, make_cudaPos and make_cudaExtent
 * (C and C++).
 */
#ifndef __DRIVER_FUNCTIONS_H__
#define __DRIVER_FUNCTIONS_H__

#include "builtin_types.h"
#include "crt/host_defines.h"
#include "driver_types.h"

/// A pitched pointer: d points to rows of xsz bytes (of which the logical
/// width is used) that start p bytes apart, ysz rows in all.
static __inline__ __host__ struct cudaPitchedPtr
make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
  struct cudaPitchedPtr s;
  s.ptr = d;
  s.pitch = p;
  s.xsize = xsz;
  s.ysize = ysz;
  return s;
}

/// A position in a 3D copy: x in bytes for linear memory, in elements for
/// arrays.
static __inline__ __host__ struct cudaPos make_cudaPos(size_t x, size_t y,
                                                       size_t z) {
  struct cudaPos p;
  p.x = x;
  p.y = y;
  p.z = z;
  return p;
}

/// An extent: width in bytes for linear memory, in elements for arrays.
static __inline__ __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h,
                                                             size_t d) {
  struct cudaExtent e;
  e.width = w;
  e.height = h;
  e.depth = d;
  return e;
}

#endif /* __DRIVER_FUNCTIONS_H__ */

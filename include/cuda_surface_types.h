/*
 * cuda_surface_types.h - the surface<> template of surface references.
 *
 * cucpu's own text. surface<T, dim> as CUDA 11 declared it, on struct
 * surfaceReference (a channel format); NVIDIA's CUDA 12 and 13 headers no
 * longer have either. C++ host code only: cucc's kernels get surface<> from
 * cucc's prelude (include/cucpu/device/detail/surfaces.h), so with __CUCPU__
 * defined this header adds nothing.
 */
#ifndef __CUDA_SURFACE_TYPES_H__
#define __CUDA_SURFACE_TYPES_H__

#include "surface_types.h"

#if defined(__cplusplus) && !defined(__CUCPU__)

#include "channel_descriptor.h"

/// The host-side state of a surface reference: its channel format.
struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

/// A surface reference with elements of type T and dimension dim.
template <class T, int dim = 1>
struct __device_builtin_surface_type__ surface : public surfaceReference {
  /// The channel format of T.
  __host__ surface(void) { channelDesc = cudaCreateChannelDesc<T>(); }
  /// An explicit channel format.
  __host__ surface(struct cudaChannelFormatDesc desc) { channelDesc = desc; }
};

/// A surface reference whose element type is given when it is bound.
template <int dim>
struct __device_builtin_surface_type__ surface<void, dim>
    : public surfaceReference {
  /// No channel format yet.
  __host__ surface(void) { channelDesc = cudaCreateChannelDesc<void>(); }
};

#endif /* __cplusplus && !__CUCPU__ */

#endif /* __CUDA_SURFACE_TYPES_H__ */

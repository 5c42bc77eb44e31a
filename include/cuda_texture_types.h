/*
 * cuda_texture_types.h - the texture<> template of texture references.
 *
 * cucpu's own text. texture<T, dim, readMode> as CUDA 11 declared it: a
 * texture reference variable derived from struct textureReference, whose
 * constructors set the normalization, filter and address modes and the
 * channel format of T. NVIDIA's CUDA 12 and 13 headers no longer have it.
 * C++ only. Host code binds such a variable with the texture reference API,
 * declared when CUDA_ENABLE_DEPRECATED is defined
 * (cuda_runtime_api.h, cuda_runtime.h).
 *
 * Kernel code compiled by cucc (__CUCPU__ defined) gets texture<> and its
 * fetch functions from cucc's prelude (include/cucpu/device/detail/
 * textures.h); there this header adds nothing.
 */
#ifndef __CUDA_TEXTURE_TYPES_H__
#define __CUDA_TEXTURE_TYPES_H__

#if defined(__cplusplus) && !defined(__CUCPU__)

#include "channel_descriptor.h"
#include "texture_types.h"

/// A texture reference with texels of type T, of dimension dim
/// (cudaTextureType1D, 2D, 3D, ...), read as elements or normalized floats.
template <class T, int dim = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __device_builtin_texture_type__ texture : public textureReference {
  /// Unnormalized coordinates, point filtering and clamping unless told.
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    init(norm, fMode, aMode, cudaCreateChannelDesc<T>());
  }

  /// As above, with an explicit channel format.
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    init(norm, fMode, aMode, desc);
  }

private:
  __host__ void init(int norm, enum cudaTextureFilterMode fMode,
                     enum cudaTextureAddressMode aMode,
                     struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = aMode;
    addressMode[1] = aMode;
    addressMode[2] = aMode;
    channelDesc = desc;
    sRGB = 0;
    maxAnisotropy = 0;
    mipmapFilterMode = cudaFilterModePoint;
    mipmapLevelBias = 0.0f;
    minMipmapLevelClamp = 0.0f;
    maxMipmapLevelClamp = 0.0f;
    disableTrilinearOptimization = 0;
    for (int i = 0; i < 14; ++i)
      __cudaReserved[i] = 0;
  }
};

#endif /* __cplusplus && !__CUCPU__ */

#endif /* __CUDA_TEXTURE_TYPES_H__ */

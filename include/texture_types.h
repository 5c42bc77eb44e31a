/*
 * texture_types.h - texture types of the CUDA runtime API.
 *
 * cucpu's own text; names, values and the layout of cudaTextureDesc are those
 * of NVIDIA's CUDA 13.0 texture_types.h (which, since CUDA 12, no longer has
 * texture references; this header keeps CUDA 11's struct textureReference).
 * Kernel code compiled by cucc (__CUCPU__ defined) gets
 * the enumerations, the texture type numbers and cudaTextureObject_t from
 * cucc's prelude (include/cucpu/device/detail/textures.h); this header leaves
 * those out there.
 */
#ifndef __TEXTURE_TYPES_H__
#define __TEXTURE_TYPES_H__

#include "driver_types.h"

/* Texture types (the texture template's second argument). */
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

#if !defined(__CUCPU__)
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03

/// What texture fetches out of bounds read.
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};

/// Point sampling or linear interpolation.
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};

/// Whether integer texels are read as they are or as normalized floats.
enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};

/// A texture object: a 64-bit handle.
typedef unsigned long long cudaTextureObject_t;

/// The host-side state of a texture reference (a texture<> variable), with
/// CUDA 11's layout. NVIDIA's CUDA 12 and 13 headers no longer have it;
/// cucpu keeps it for the texture<> template (cuda_texture_types.h) and the
/// opt-in texture reference API (CUDA_ENABLE_DEPRECATED).
struct textureReference {
  int normalized; ///< nonzero: coordinates in [0, 1)
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
#endif /* !__CUCPU__ */

/// How a texture object samples its resource.
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

#endif /* __TEXTURE_TYPES_H__ */

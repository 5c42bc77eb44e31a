//===- TextureQuery.cpp - A texture's or surface's size, as txq/suq ask ---===//
//
// PTX's txq.width/height/depth (and their .level forms) and suq.width/
// height/depth read the size of the texture or surface behind a handle. What
// each geometry answers was measured on an H200 (driver 580, tests/ptx
// TexturesTest and SurfacesTest): a 1D texture is 1 texel high and a 1D
// surface 0 rows high; a 1D layered array reports its layers as its height;
// 2D layered arrays their layers as depth; a cubemap texture depth 0 and a
// layered one its cubes, where surfaces report faces; a level a texture does
// not have, and handle 0, read 0.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/KernelAccess.h"
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include "cucpu/modules/abi/SurfaceAbi.h"
#include "cucpu/modules/abi/TextureAbi.h"

#include <cuda.h>

#include <cstdint>
#include <cstdio>

namespace {

/// The description at \p Handle if its magic word is \p Magic; otherwise the
/// launch fails. Handle 0 is null.
CUCPU_KERNEL_ACCESS const CucpuTexture *
checkedHandle(uint64_t Handle, uint32_t Magic, const char *What) {
  if (Handle == 0)
    return nullptr;
  const auto *T = reinterpret_cast<const CucpuTexture *>(Handle);
  if (Handle % alignof(CucpuTexture) == 0) {
    (void)*reinterpret_cast<const volatile uint64_t *>(T);
    if (*static_cast<const volatile uint32_t *>(&T->Magic) == Magic)
      return T;
  }
  char Message[128];
  std::snprintf(Message, sizeof(Message),
                "The kernel queried %s handle %#llx, which is no %s object or "
                "reference.",
                What, static_cast<unsigned long long>(Handle), What);
  cucpu::modules::failKernel(CUDA_ERROR_ILLEGAL_ADDRESS, Message);
}

/// Width, height and depth of \p Level (of a texture of shape \p Shape and
/// kind \p Kind), as txq answers them.
uint32_t textureSize(const CucpuTexture &Level, uint32_t Kind, uint32_t Shape,
                     uint32_t Query) {
  uint64_t W = Level.Width, H = Level.Height, D = Level.Depth;
  uint64_t Sizes[3] = {W, 0, 0};
  if (Kind == CucpuTexturePitch2D) {
    Sizes[1] = H;
  } else if (Kind == CucpuTextureArray) {
    switch (Shape) {
    case CucpuShape1D:
      Sizes[1] = 1;
      break;
    case CucpuShape1DLayered:
      Sizes[1] = D;
      break;
    case CucpuShape2D:
    case CucpuShapeCubemap:
      Sizes[1] = H;
      break;
    case CucpuShapeCubemapLayered:
      Sizes[1] = H;
      Sizes[2] = D / 6;
      break;
    default: // 3D, 2D layered.
      Sizes[1] = H;
      Sizes[2] = D;
      break;
    }
  }
  return Query < 3 ? uint32_t(Sizes[Query]) : 0;
}

/// Width, height and depth of surface \p T, as suq answers them.
uint32_t surfaceSize(const CucpuTexture &T, uint32_t Query) {
  uint64_t Sizes[3] = {T.Width, 0, 0};
  switch (T.Shape) {
  case CucpuShape1D:
    break;
  case CucpuShape1DLayered:
    Sizes[1] = T.Depth;
    break;
  case CucpuShape2D:
    Sizes[1] = T.Height;
    break;
  default: // 3D, layered 2D, cubemaps: slices, layers or faces.
    Sizes[1] = T.Height;
    Sizes[2] = T.Depth;
    break;
  }
  return Query < 3 ? uint32_t(Sizes[Query]) : 0;
}

} // namespace

extern "C" {
uint32_t __cucpu_tex_query(uint64_t Handle, uint32_t Query, int32_t Level) {
  const CucpuTexture *T = checkedHandle(Handle, CucpuTextureMagic, "texture");
  if (!T || T->Kind == CucpuTextureUnbound || !T->Data)
    return 0;
  uint32_t Levels = T->LevelCount ? T->LevelCount : 1;
  if (Level < 0 || uint32_t(Level) >= Levels)
    return 0;
  const CucpuTexture &L = T->LevelCount ? T->Levels[Level] : *T;
  return textureSize(L, T->Kind, T->Shape, Query);
}

uint32_t __cucpu_surf_query(uint64_t Handle, uint32_t Query) {
  const CucpuTexture *T = checkedHandle(Handle, CucpuSurfaceMagic, "surface");
  if (!T || T->Kind != CucpuTextureArray || !T->Data)
    return 0;
  return surfaceSize(*T, Query);
}
}

void cucpu::modules::addTextureQueries(llvm::StringMap<void *> &Map) {
  CUCPU_RT_ADD(Map, __cucpu_tex_query);
  CUCPU_RT_ADD(Map, __cucpu_surf_query);
}

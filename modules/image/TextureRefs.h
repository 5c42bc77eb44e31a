//===- TextureRefs.h - Texture references of a module -----------*- C++ -*-===//
#ifndef CUCPU_MODULES_IMAGE_TEXTUREREFS_H
#define CUCPU_MODULES_IMAGE_TEXTUREREFS_H

#include "cucpu/loader/ModuleImage.h"

#include "llvm/IR/Module.h"

#include <vector>

namespace cucpu::image {

/// Whether \p GV is a texture<T, Dim, ReadMode> or surface<T, Type>
/// variable (nvvm.annotations "texture" or "surface").
bool isTextureVariable(const llvm::GlobalVariable &GV);

/// The texture and surface references of \p M in module order, each with the
/// declared type that the kernel headers' __cucpu_texref_type markers give
/// (read on an optimized copy, so at every -O level); a reference no kernel
/// fetches through has Dimensions 0 (type unknown).
std::vector<loader::TexRefInfo> describeTextures(const llvm::Module &M);

} // namespace cucpu::image

#endif // CUCPU_MODULES_IMAGE_TEXTUREREFS_H

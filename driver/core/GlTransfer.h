//===- GlTransfer.h - Moving GL buffer and image contents -------*- C++ -*-===//
//
// The GL side of graphics interoperability: what a GL buffer or image is
// (size, format, levels, layers) and copying its contents to and from the
// memory CUDA sees while it is mapped. Every function needs the GL context
// that owns the object current on the calling thread, and leaves the GL
// state it touches (bindings, pixel-store parameters) as it found it.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GLTRANSFER_H
#define CUCPU_DRIVER_CORE_GLTRANSFER_H

#include "core/GlFunctions.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <vector>

namespace cucpu::gl {

/// How a GL internal format appears to CUDA, and how GL transfers it.
struct ImageFormat {
  Enum Internal;         ///< GL internal format (GL_RGBA8, ...).
  CUarray_format Format; ///< The CUDA array's channel format.
  unsigned Channels;     ///< 1, 2 or 4.
  Enum PixelFormat;      ///< GL_RED, GL_RG_INTEGER, ...
  Enum PixelType;        ///< GL_UNSIGNED_BYTE, GL_FLOAT, ...
  unsigned ElementBytes; ///< Bytes of one texel, all channels.
};

/// The CUDA view of GL internal format \p Internal: the sized and unsized
/// red, red-green and RGBA formats of cudaGL.h's list; null for the rest.
const ImageFormat *imageFormat(Enum Internal);

/// The extent of one mipmap level (Depth: slices of a 3D texture, else 1).
struct LevelExtent {
  unsigned Width = 0, Height = 0, Depth = 1;
  bool operator==(const LevelExtent &O) const {
    return Width == O.Width && Height == O.Height && Depth == O.Depth;
  }
};

/// What a registered GL image is.
struct ImageShape {
  Enum Target = 0; ///< GL_TEXTURE_2D, ..., GL_RENDERBUFFER.
  const ImageFormat *Format = nullptr;
  unsigned Layers = 1;             ///< Cube faces (6), array layers, or 1.
  std::vector<LevelExtent> Levels; ///< Level 0 first; at least one.
  bool operator==(const ImageShape &O) const {
    return Target == O.Target && Format == O.Format && Layers == O.Layers &&
           Levels == O.Levels;
  }
};

/// The bytes of GL buffer \p Buffer; CUDA_ERROR_INVALID_VALUE if \p Buffer
/// names no buffer object.
llvm::Expected<size_t> bufferSize(const Functions &F, Uint Buffer);
/// Copies the first \p Bytes of \p Buffer to \p To.
llvm::Error readBuffer(const Functions &F, Uint Buffer, void *To, size_t Bytes);
/// Copies \p Bytes from \p From to the start of \p Buffer.
llvm::Error writeBuffer(const Functions &F, Uint Buffer, const void *From,
                        size_t Bytes);

/// Whether \p Target is one cuGraphicsGLRegisterImage accepts.
bool isImageTarget(Enum Target);
/// The shape of texture or renderbuffer \p Image of \p Target, validated as
/// registration requires (an object of that target, a format CUDA can see,
/// a defined level 0, single-sampled): CUDA_ERROR_INVALID_VALUE otherwise.
llvm::Expected<ImageShape> describeImage(const Functions &F, Uint Image,
                                         Enum Target);
/// Copies level \p Level of layer \p Layer (a cube face, an array layer; for
/// a 3D texture every slice) of \p Image to \p To as packed rows.
llvm::Error readImage(const Functions &F, Uint Image, const ImageShape &S,
                      unsigned Layer, unsigned Level, void *To);
/// Copies packed rows from \p From into level \p Level of layer \p Layer.
llvm::Error writeImage(const Functions &F, Uint Image, const ImageShape &S,
                       unsigned Layer, unsigned Level, const void *From);

} // namespace cucpu::gl

#endif // CUCPU_DRIVER_CORE_GLTRANSFER_H

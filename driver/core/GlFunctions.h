//===- GlFunctions.h - OpenGL entry points found at run time ----*- C++ -*-===//
//
// libcuda does not link libGL or libEGL: a program without OpenGL must not
// need them. The GL functions graphics interoperability calls are looked up
// when a call needs them, in the GL library the program itself loaded (EGL's
// libEGL.so.1, or GLX's libGL.so.1 / libGLX.so.0), through the
// eglGetProcAddress or glXGetProcAddress of whichever has a context current
// on the calling thread. GL contexts belong to threads, so every GL call is
// made on the thread that made the CUDA call.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GLFUNCTIONS_H
#define CUCPU_DRIVER_CORE_GLFUNCTIONS_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

namespace cucpu::gl {

// The GL scalar types, as the GL headers define them (which libcuda's build
// does not need).
using Enum = unsigned;
using Uint = unsigned;
using Int = int;
using Sizei = int;
using Boolean = unsigned char;
using Bitfield = unsigned;
using Intptr = std::ptrdiff_t;
using Sizeiptr = std::ptrdiff_t;

/// The GL enumerants interoperability uses (values of GL/glcorearb.h).
enum : Enum {
  NoError = 0,
  Texture2D = 0x0DE1,
  Texture3D = 0x806F,
  TextureRectangle = 0x84F5,
  TextureCubeMap = 0x8513,
  TextureCubeMapPositiveX = 0x8515,
  Texture2DArray = 0x8C1A,
  Renderbuffer = 0x8D41,
  TextureBinding2D = 0x8069,
  TextureBinding3D = 0x806A,
  TextureBindingRectangle = 0x84F6,
  TextureBindingCubeMap = 0x8514,
  TextureBinding2DArray = 0x8C1D,
  RenderbufferBinding = 0x8CA7,
  CopyReadBuffer = 0x8F36,
  CopyReadBufferBinding = 0x8F36,
  BufferSize = 0x8764,
  MapReadBit = 0x0001,
  ReadFramebuffer = 0x8CA8,
  DrawFramebuffer = 0x8CA9,
  ReadFramebufferBinding = 0x8CAA,
  DrawFramebufferBinding = 0x8CA6,
  ColorAttachment0 = 0x8CE0,
  FramebufferComplete = 0x8CD5,
  PixelPackBufferBinding = 0x88ED,
  PixelUnpackBufferBinding = 0x88EF,
  PixelPackBuffer = 0x88EB,
  PixelUnpackBuffer = 0x88EC,
  PackAlignment = 0x0D05,
  UnpackAlignment = 0x0CF5,
  PackRowLength = 0x0D02,
  UnpackRowLength = 0x0CF2,
  UnpackImageHeight = 0x806E,
  TextureWidth = 0x1000,
  TextureHeight = 0x1001,
  TextureDepth = 0x8071,
  TextureInternalFormat = 0x1003,
  TextureSamples = 0x9106,
  RenderbufferWidth = 0x8D42,
  RenderbufferHeight = 0x8D43,
  RenderbufferInternalFormat = 0x8D44,
  RenderbufferSamples = 0x8CAB,
  ColorBufferBit = 0x4000,
  Nearest = 0x2600,
};

/// The GL functions interoperability calls, resolved for the current GL
/// context. Optional ones (GL 3.2 / GLES 3.0 forms) may be null.
struct Functions {
  Enum (*GetError)();
  void (*GetIntegerv)(Enum, Int *);
  void (*PixelStorei)(Enum, Int);
  // Buffers.
  Boolean (*IsBuffer)(Uint);
  void (*BindBuffer)(Enum, Uint);
  void (*GetBufferParameteriv)(Enum, Enum, Int *);
  void (*GetBufferParameteri64v)(Enum, Enum, int64_t *); ///< Optional.
  void *(*MapBufferRange)(Enum, Intptr, Sizeiptr, Bitfield);
  Boolean (*UnmapBuffer)(Enum);
  void (*BufferSubData)(Enum, Intptr, Sizeiptr, const void *);
  // Textures and renderbuffers.
  Boolean (*IsTexture)(Uint);
  Boolean (*IsRenderbuffer)(Uint);
  void (*BindTexture)(Enum, Uint);
  void (*BindRenderbuffer)(Enum, Uint);
  void (*GetTexLevelParameteriv)(Enum, Int, Enum, Int *); ///< GLES 3.1+.
  void (*GetRenderbufferParameteriv)(Enum, Enum, Int *);
  void (*TexSubImage2D)(Enum, Int, Int, Int, Sizei, Sizei, Enum, Enum,
                        const void *);
  void (*TexSubImage3D)(Enum, Int, Int, Int, Int, Sizei, Sizei, Sizei, Enum,
                        Enum, const void *);
  void (*GenTextures)(Sizei, Uint *);
  void (*DeleteTextures)(Sizei, const Uint *);
  void (*TexImage2D)(Enum, Int, Int, Sizei, Sizei, Int, Enum, Enum,
                     const void *);
  // Framebuffers, to read images and to write renderbuffers.
  void (*GenFramebuffers)(Sizei, Uint *);
  void (*DeleteFramebuffers)(Sizei, const Uint *);
  void (*BindFramebuffer)(Enum, Uint);
  void (*FramebufferTexture2D)(Enum, Enum, Enum, Uint, Int);
  void (*FramebufferTextureLayer)(Enum, Enum, Uint, Int, Int);
  void (*FramebufferRenderbuffer)(Enum, Enum, Enum, Uint);
  Enum (*CheckFramebufferStatus)(Enum);
  void (*ReadPixels)(Int, Int, Sizei, Sizei, Enum, Enum, void *);
  void (*BlitFramebuffer)(Int, Int, Int, Int, Int, Int, Int, Int, Bitfield,
                          Enum);
};

/// Whether a GL context (EGL or GLX) is current on the calling thread.
bool hasCurrentContext();

/// The GL functions of the calling thread's current GL context;
/// CUDA_ERROR_OPERATING_SYSTEM when no GL context is current (as NVIDIA's
/// driver answers), CUDA_ERROR_INVALID_GRAPHICS_CONTEXT when it lacks a
/// function interoperability needs (named in the message).
llvm::Expected<const Functions &> current();

/// CUDA_ERROR_UNKNOWN naming \p What if GL recorded an error since the last
/// check; clears GL's error flags either way.
llvm::Error checkError(const Functions &F, const char *What);

} // namespace cucpu::gl

#endif // CUCPU_DRIVER_CORE_GLFUNCTIONS_H

//===- GlTransfer.cpp - Moving GL buffer and image contents ---------------===//
//
// Buffers are read with glMapBufferRange and written with glBufferSubData
// through the GL_COPY_READ_BUFFER binding point, which no drawing uses.
// Images are read with glReadPixels from a framebuffer the image is attached
// to (the one way that works for textures and renderbuffers, in OpenGL and in
// OpenGL ES), and written with glTexSubImage2D/3D, or for a renderbuffer by a
// blit from a texture holding the data.
//
//===----------------------------------------------------------------------===//
#include "core/GlTransfer.h"

#include "core/Error.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::gl;

namespace {

// Pixel formats and types (GL/glcorearb.h).
enum : Enum {
  Red = 0x1903,
  Rg = 0x8227,
  Rgba = 0x1908,
  RedInteger = 0x8D94,
  RgInteger = 0x8228,
  RgbaInteger = 0x8D99,
  Byte = 0x1400,
  UnsignedByte = 0x1401,
  Short = 0x1402,
  UnsignedShort = 0x1403,
  IntType = 0x1404,
  UnsignedInt = 0x1405,
  Float = 0x1406,
  HalfFloat = 0x140B,
  PackSkipRows = 0x0D03,
  PackSkipPixels = 0x0D04,
  UnpackSkipRows = 0x0CF3,
  UnpackSkipPixels = 0x0CF4,
  UnpackSkipImages = 0x806D,
};

constexpr CUarray_format U8 = CU_AD_FORMAT_UNSIGNED_INT8;
constexpr CUarray_format U16 = CU_AD_FORMAT_UNSIGNED_INT16;
constexpr CUarray_format U32 = CU_AD_FORMAT_UNSIGNED_INT32;
constexpr CUarray_format S8 = CU_AD_FORMAT_SIGNED_INT8;
constexpr CUarray_format S16 = CU_AD_FORMAT_SIGNED_INT16;
constexpr CUarray_format S32 = CU_AD_FORMAT_SIGNED_INT32;
constexpr CUarray_format F16 = CU_AD_FORMAT_HALF;
constexpr CUarray_format F32 = CU_AD_FORMAT_FLOAT;

// cudaGL.h: "{GL_R, GL_RG, GL_RGBA} X {8, 16, 16F, 32F, 8UI, 16UI, 32UI, 8I,
// 16I, 32I}" and the unsized GL_RED, GL_RG, GL_RGBA. The luminance, alpha
// and intensity formats of compatibility profiles are not among them: GL
// cannot attach them to a framebuffer to read them back.
const ImageFormat Formats[] = {
    {0x8229, U8, 1, Red, UnsignedByte, 1},           // GL_R8
    {0x822B, U8, 2, Rg, UnsignedByte, 2},            // GL_RG8
    {0x8058, U8, 4, Rgba, UnsignedByte, 4},          // GL_RGBA8
    {Red, U8, 1, Red, UnsignedByte, 1},              // GL_RED
    {Rg, U8, 2, Rg, UnsignedByte, 2},                // GL_RG
    {Rgba, U8, 4, Rgba, UnsignedByte, 4},            // GL_RGBA
    {0x822A, U16, 1, Red, UnsignedShort, 2},         // GL_R16
    {0x822C, U16, 2, Rg, UnsignedShort, 4},          // GL_RG16
    {0x805B, U16, 4, Rgba, UnsignedShort, 8},        // GL_RGBA16
    {0x822D, F16, 1, Red, HalfFloat, 2},             // GL_R16F
    {0x822F, F16, 2, Rg, HalfFloat, 4},              // GL_RG16F
    {0x881A, F16, 4, Rgba, HalfFloat, 8},            // GL_RGBA16F
    {0x822E, F32, 1, Red, Float, 4},                 // GL_R32F
    {0x8230, F32, 2, Rg, Float, 8},                  // GL_RG32F
    {0x8814, F32, 4, Rgba, Float, 16},               // GL_RGBA32F
    {0x8232, U8, 1, RedInteger, UnsignedByte, 1},    // GL_R8UI
    {0x8238, U8, 2, RgInteger, UnsignedByte, 2},     // GL_RG8UI
    {0x8D7C, U8, 4, RgbaInteger, UnsignedByte, 4},   // GL_RGBA8UI
    {0x8234, U16, 1, RedInteger, UnsignedShort, 2},  // GL_R16UI
    {0x823A, U16, 2, RgInteger, UnsignedShort, 4},   // GL_RG16UI
    {0x8D76, U16, 4, RgbaInteger, UnsignedShort, 8}, // GL_RGBA16UI
    {0x8236, U32, 1, RedInteger, UnsignedInt, 4},    // GL_R32UI
    {0x823C, U32, 2, RgInteger, UnsignedInt, 8},     // GL_RG32UI
    {0x8D70, U32, 4, RgbaInteger, UnsignedInt, 16},  // GL_RGBA32UI
    {0x8231, S8, 1, RedInteger, Byte, 1},            // GL_R8I
    {0x8237, S8, 2, RgInteger, Byte, 2},             // GL_RG8I
    {0x8D8E, S8, 4, RgbaInteger, Byte, 4},           // GL_RGBA8I
    {0x8233, S16, 1, RedInteger, Short, 2},          // GL_R16I
    {0x8239, S16, 2, RgInteger, Short, 4},           // GL_RG16I
    {0x8D88, S16, 4, RgbaInteger, Short, 8},         // GL_RGBA16I
    {0x8235, S32, 1, RedInteger, IntType, 4},        // GL_R32I
    {0x823B, S32, 2, RgInteger, IntType, 8},         // GL_RG32I
    {0x8D82, S32, 4, RgbaInteger, IntType, 16},      // GL_RGBA32I
};

/// Changes GL bindings and pixel-store parameters for its lifetime, then
/// puts back what was there, so the program's GL state is left as it was.
class SavedState {
public:
  explicit SavedState(const Functions &F) : F(F) {}
  SavedState(const SavedState &) = delete;
  SavedState &operator=(const SavedState &) = delete;
  ~SavedState() {
    for (auto It = Undo.rbegin(); It != Undo.rend(); ++It) {
      if (It->Bind)
        It->Bind(It->Target, static_cast<Uint>(It->Value));
      else
        F.PixelStorei(It->Target, It->Value);
    }
  }

  /// Binds \p Name to \p Target with \p Bind (glBindBuffer, glBindTexture,
  /// ...); \p Query is the glGetIntegerv name of that binding.
  void bind(void (*Bind)(Enum, Uint), Enum Target, Enum Query, Uint Name) {
    Int Old = 0;
    F.GetIntegerv(Query, &Old);
    Undo.push_back({Bind, Target, Old});
    Bind(Target, Name);
  }
  /// Sets pixel-store parameter \p Name to \p Value.
  void pixelStore(Enum Name, Int Value) {
    Int Old = 0;
    F.GetIntegerv(Name, &Old);
    Undo.push_back({nullptr, Name, Old});
    F.PixelStorei(Name, Value);
  }

private:
  struct Entry {
    void (*Bind)(Enum, Uint);
    Enum Target;
    Int Value;
  };
  const Functions &F;
  std::vector<Entry> Undo;
};

} // namespace

const ImageFormat *gl::imageFormat(Enum Internal) {
  for (const ImageFormat &Fmt : Formats)
    if (Fmt.Internal == Internal)
      return &Fmt;
  return nullptr;
}

namespace {

/// The glGetIntegerv name of \p Target's texture binding.
Enum textureBindingQuery(Enum Target) {
  switch (Target) {
  case Texture2D:
    return TextureBinding2D;
  case TextureRectangle:
    return TextureBindingRectangle;
  case TextureCubeMap:
    return TextureBindingCubeMap;
  case Texture3D:
    return TextureBinding3D;
  case Texture2DArray:
    return TextureBinding2DArray;
  default:
    return 0;
  }
}

/// Binds \p Buffer to GL_COPY_READ_BUFFER for the life of \p State.
void bindBuffer(const Functions &F, SavedState &State, Uint Buffer) {
  State.bind(F.BindBuffer, CopyReadBuffer, CopyReadBufferBinding, Buffer);
}

/// Packed rows in client memory: no pixel buffer bound, no alignment, row
/// length or skips (the program may have set any of them).
void packTight(const Functions &F, SavedState &State) {
  State.bind(F.BindBuffer, PixelPackBuffer, PixelPackBufferBinding, 0);
  State.pixelStore(PackAlignment, 1);
  State.pixelStore(PackRowLength, 0);
  State.pixelStore(PackSkipRows, 0);
  State.pixelStore(PackSkipPixels, 0);
}
void unpackTight(const Functions &F, SavedState &State) {
  State.bind(F.BindBuffer, PixelUnpackBuffer, PixelUnpackBufferBinding, 0);
  State.pixelStore(UnpackAlignment, 1);
  State.pixelStore(UnpackRowLength, 0);
  State.pixelStore(UnpackImageHeight, 0);
  State.pixelStore(UnpackSkipRows, 0);
  State.pixelStore(UnpackSkipPixels, 0);
  State.pixelStore(UnpackSkipImages, 0);
}

/// Bytes of one slice of \p L in format \p Fmt.
size_t sliceBytes(const ImageFormat &Fmt, const LevelExtent &L) {
  return size_t(L.Width) * L.Height * Fmt.ElementBytes;
}

/// A framebuffer object made for one transfer, deleted with it.
class ScratchFramebuffer {
public:
  ScratchFramebuffer(const Functions &F, SavedState &State, Enum Binding,
                     Enum Query)
      : F(F) {
    F.GenFramebuffers(1, &Name);
    State.bind(F.BindFramebuffer, Binding, Query, Name);
  }
  ~ScratchFramebuffer() { F.DeleteFramebuffers(1, &Name); }
  ScratchFramebuffer(const ScratchFramebuffer &) = delete;
  ScratchFramebuffer &operator=(const ScratchFramebuffer &) = delete;

private:
  const Functions &F;
  Uint Name = 0;
};

/// Attaches slice \p Slice of level \p Level of layer \p Layer of \p Image
/// as color attachment 0 of the framebuffer bound to \p Binding.
void attach(const Functions &F, Enum Binding, Uint Image, const ImageShape &S,
            unsigned Layer, unsigned Level, unsigned Slice) {
  switch (S.Target) {
  case Renderbuffer:
    F.FramebufferRenderbuffer(Binding, ColorAttachment0, Renderbuffer, Image);
    break;
  case TextureCubeMap:
    F.FramebufferTexture2D(Binding, ColorAttachment0,
                           TextureCubeMapPositiveX + Layer, Image, Level);
    break;
  case Texture2DArray:
    F.FramebufferTextureLayer(Binding, ColorAttachment0, Image, Level, Layer);
    break;
  case Texture3D:
    F.FramebufferTextureLayer(Binding, ColorAttachment0, Image, Level, Slice);
    break;
  default:
    F.FramebufferTexture2D(Binding, ColorAttachment0, S.Target, Image, Level);
    break;
  }
}

llvm::Error checkComplete(const Functions &F, Enum Binding,
                          const ImageShape &S) {
  Enum Status = F.CheckFramebufferStatus(Binding);
  CU_INVALID_IF(Status != FramebufferComplete, CUDA_ERROR_UNKNOWN,
                "OpenGL cannot attach the image (internal format {0:x4}) to a "
                "framebuffer to move its contents (status {1:x4}).",
                S.Format->Internal, Status);
  return llvm::Error::success();
}

/// Writes \p From into renderbuffer \p Image: GL has no call that uploads
/// to a renderbuffer, so the data goes to a scratch texture that is blitted.
llvm::Error writeRenderbuffer(const Functions &F, Uint Image,
                              const ImageShape &S, const void *From) {
  const LevelExtent &L = S.Levels[0];
  SavedState State(F);
  unpackTight(F, State);
  Uint Scratch = 0;
  F.GenTextures(1, &Scratch);
  State.bind(F.BindTexture, Texture2D, TextureBinding2D, Scratch);
  F.TexImage2D(Texture2D, 0, static_cast<Int>(S.Format->Internal), L.Width,
               L.Height, 0, S.Format->PixelFormat, S.Format->PixelType, From);
  llvm::Error E = [&]() -> llvm::Error {
    ScratchFramebuffer Read(F, State, ReadFramebuffer, ReadFramebufferBinding);
    ScratchFramebuffer Draw(F, State, DrawFramebuffer, DrawFramebufferBinding);
    F.FramebufferTexture2D(ReadFramebuffer, ColorAttachment0, Texture2D,
                           Scratch, 0);
    F.FramebufferRenderbuffer(DrawFramebuffer, ColorAttachment0, Renderbuffer,
                              Image);
    CU_TRY(checkComplete(F, ReadFramebuffer, S));
    CU_TRY(checkComplete(F, DrawFramebuffer, S));
    F.BlitFramebuffer(0, 0, L.Width, L.Height, 0, 0, L.Width, L.Height,
                      ColorBufferBit, Nearest);
    return llvm::Error::success();
  }();
  F.DeleteTextures(1, &Scratch);
  return E;
}

} // namespace

llvm::Expected<size_t> gl::bufferSize(const Functions &F, Uint Buffer) {
  CU_INVALID_IF(Buffer == 0 || !F.IsBuffer(Buffer), CUDA_ERROR_INVALID_VALUE,
                "OpenGL name {0} is not a buffer object of the current GL "
                "context.",
                Buffer);
  int64_t Bytes = 0;
  {
    SavedState State(F);
    bindBuffer(F, State, Buffer);
    if (F.GetBufferParameteri64v) {
      F.GetBufferParameteri64v(CopyReadBuffer, BufferSize, &Bytes);
    } else {
      Int Small = 0;
      F.GetBufferParameteriv(CopyReadBuffer, BufferSize, &Small);
      Bytes = Small;
    }
  }
  CU_TRY(checkError(F, "querying a buffer's size"));
  return static_cast<size_t>(Bytes < 0 ? 0 : Bytes);
}

llvm::Error gl::readBuffer(const Functions &F, Uint Buffer, void *To,
                           size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  {
    SavedState State(F);
    bindBuffer(F, State, Buffer);
    const void *From = F.MapBufferRange(
        CopyReadBuffer, 0, static_cast<Sizeiptr>(Bytes), MapReadBit);
    if (From) {
      std::memcpy(To, From, Bytes);
      F.UnmapBuffer(CopyReadBuffer);
    }
  }
  return checkError(F, "reading a buffer object");
}

llvm::Error gl::writeBuffer(const Functions &F, Uint Buffer, const void *From,
                            size_t Bytes) {
  if (Bytes == 0)
    return llvm::Error::success();
  {
    SavedState State(F);
    bindBuffer(F, State, Buffer);
    F.BufferSubData(CopyReadBuffer, 0, static_cast<Sizeiptr>(Bytes), From);
  }
  return checkError(F, "writing a buffer object");
}

bool gl::isImageTarget(Enum Target) {
  return Target == Renderbuffer || textureBindingQuery(Target) != 0;
}

llvm::Expected<ImageShape> gl::describeImage(const Functions &F, Uint Image,
                                             Enum Target) {
  CU_INVALID_IF(!isImageTarget(Target), CUDA_ERROR_INVALID_VALUE,
                "OpenGL target {0:x4} is not GL_TEXTURE_2D, "
                "GL_TEXTURE_RECTANGLE, GL_TEXTURE_CUBE_MAP, GL_TEXTURE_3D, "
                "GL_TEXTURE_2D_ARRAY or GL_RENDERBUFFER.",
                Target);
  CU_TRY(checkError(F, "before registering an image"));
  ImageShape S;
  S.Target = Target;
  Int Internal = 0, Samples = 0;
  if (Target == Renderbuffer) {
    CU_INVALID_IF(Image == 0 || !F.IsRenderbuffer(Image),
                  CUDA_ERROR_INVALID_VALUE,
                  "OpenGL name {0} is not a renderbuffer of the current GL "
                  "context.",
                  Image);
    LevelExtent L;
    {
      SavedState State(F);
      State.bind(F.BindRenderbuffer, Renderbuffer, RenderbufferBinding, Image);
      Int W = 0, H = 0;
      F.GetRenderbufferParameteriv(Renderbuffer, RenderbufferWidth, &W);
      F.GetRenderbufferParameteriv(Renderbuffer, RenderbufferHeight, &H);
      F.GetRenderbufferParameteriv(Renderbuffer, RenderbufferInternalFormat,
                                   &Internal);
      F.GetRenderbufferParameteriv(Renderbuffer, RenderbufferSamples, &Samples);
      L.Width = static_cast<unsigned>(W);
      L.Height = static_cast<unsigned>(H);
    }
    CU_TRY(checkError(F, "querying a renderbuffer"));
    S.Levels.push_back(L);
  } else {
    CU_INVALID_IF(Image == 0 || !F.IsTexture(Image), CUDA_ERROR_INVALID_VALUE,
                  "OpenGL name {0} is not a texture of the current GL "
                  "context.",
                  Image);
    CU_INVALID_IF(!F.GetTexLevelParameteriv, CUDA_ERROR_NOT_SUPPORTED,
                  "The current GL context has no glGetTexLevelParameteriv "
                  "(OpenGL ES before 3.1), needed to register a texture.");
    SavedState State(F);
    State.bind(F.BindTexture, Target, textureBindingQuery(Target), Image);
    // A texture created with another target cannot be bound to this one.
    CU_INVALID_IF(F.GetError() != NoError, CUDA_ERROR_INVALID_VALUE,
                  "OpenGL texture {0} is not a texture of target {1:x4}.",
                  Image, Target);
    Enum Query = Target == TextureCubeMap ? TextureCubeMapPositiveX : Target;
    for (Int Level = 0; Level < 32; ++Level) {
      Int W = 0, H = 0, D = 0;
      F.GetTexLevelParameteriv(Query, Level, TextureWidth, &W);
      F.GetTexLevelParameteriv(Query, Level, TextureHeight, &H);
      F.GetTexLevelParameteriv(Query, Level, TextureDepth, &D);
      if (W <= 0)
        break;
      if (Level == 0) {
        F.GetTexLevelParameteriv(Query, 0, TextureInternalFormat, &Internal);
        if (Target == Texture2DArray)
          S.Layers = static_cast<unsigned>(D);
      }
      LevelExtent L;
      L.Width = static_cast<unsigned>(W);
      L.Height = static_cast<unsigned>(H);
      L.Depth = Target == Texture3D ? static_cast<unsigned>(D) : 1;
      S.Levels.push_back(L);
    }
    if (Target == TextureCubeMap)
      S.Layers = 6;
    CU_TRY(checkError(F, "querying a texture"));
  }
  CU_INVALID_IF(S.Levels.empty() || S.Levels[0].Width == 0 ||
                    S.Levels[0].Height == 0 || S.Layers == 0,
                CUDA_ERROR_INVALID_VALUE,
                "OpenGL image {0} has no storage yet (its level 0 is empty).",
                Image);
  CU_INVALID_IF(Samples > 1, CUDA_ERROR_INVALID_VALUE,
                "OpenGL renderbuffer {0} is multisampled ({1} samples), which "
                "CUDA cannot map.",
                Image, Samples);
  S.Format = imageFormat(static_cast<Enum>(Internal));
  CU_INVALID_IF(!S.Format, CUDA_ERROR_INVALID_VALUE,
                "OpenGL image {0} has internal format {1:x4}, which is not a "
                "red, red-green or RGBA format of 8, 16 or 32 bits a channel "
                "(cudaGL.h's list).",
                Image, Internal);
  return S;
}

llvm::Error gl::readImage(const Functions &F, Uint Image, const ImageShape &S,
                          unsigned Layer, unsigned Level, void *To) {
  const LevelExtent &L = S.Levels[Level];
  {
    SavedState State(F);
    packTight(F, State);
    ScratchFramebuffer Read(F, State, ReadFramebuffer, ReadFramebufferBinding);
    char *Out = static_cast<char *>(To);
    for (unsigned Slice = 0; Slice < L.Depth; ++Slice) {
      attach(F, ReadFramebuffer, Image, S, Layer, Level, Slice);
      CU_TRY(checkComplete(F, ReadFramebuffer, S));
      F.ReadPixels(0, 0, L.Width, L.Height, S.Format->PixelFormat,
                   S.Format->PixelType, Out + Slice * sliceBytes(*S.Format, L));
    }
  }
  return checkError(F, "reading an image");
}

llvm::Error gl::writeImage(const Functions &F, Uint Image, const ImageShape &S,
                           unsigned Layer, unsigned Level, const void *From) {
  if (S.Target == Renderbuffer) {
    CU_TRY(writeRenderbuffer(F, Image, S, From));
    return checkError(F, "writing a renderbuffer");
  }
  const LevelExtent &L = S.Levels[Level];
  const ImageFormat &Fmt = *S.Format;
  {
    SavedState State(F);
    unpackTight(F, State);
    State.bind(F.BindTexture, S.Target, textureBindingQuery(S.Target), Image);
    switch (S.Target) {
    case TextureCubeMap:
      F.TexSubImage2D(TextureCubeMapPositiveX + Layer, Level, 0, 0, L.Width,
                      L.Height, Fmt.PixelFormat, Fmt.PixelType, From);
      break;
    case Texture2DArray:
      F.TexSubImage3D(S.Target, Level, 0, 0, Layer, L.Width, L.Height, 1,
                      Fmt.PixelFormat, Fmt.PixelType, From);
      break;
    case Texture3D:
      F.TexSubImage3D(S.Target, Level, 0, 0, 0, L.Width, L.Height, L.Depth,
                      Fmt.PixelFormat, Fmt.PixelType, From);
      break;
    default:
      F.TexSubImage2D(S.Target, Level, 0, 0, L.Width, L.Height, Fmt.PixelFormat,
                      Fmt.PixelType, From);
      break;
    }
  }
  return checkError(F, "writing a texture");
}

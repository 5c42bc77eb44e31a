//===- detail/textures.h - Texture references and fetches -------*- C++ -*-===//
//
// texture<T, Dim, ReadMode> references declared at file scope and texture
// objects (cudaTextureObject_t), read by tex1Dfetch, tex1D, tex2D and tex3D.
// clang gives a variable of the texture template (marked
// device_builtin_texture_type) to device code as a 64-bit handle,
// llvm.nvvm.texsurf.handle.internal(@var); a texture object is such a handle
// already. Every fetch calls the runtime's __cucpu_tex_fetch* with the
// handle and gets four 32-bit words back (modules/TextureAbi.h), which the
// fetch turns into its result type. Fetches through a reference also call
// __cucpu_texref_type, a marker that tells cucc the reference's declared type
// for the module image and that the JIT removes. Part of the prelude.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_TEXTURES_H
#define CUCPU_DEVICE_DETAIL_TEXTURES_H

enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
/// The host-side state of a texture reference (the runtime API's view).
struct textureReference {
  int normalized;
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

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

typedef unsigned long long cudaTextureObject_t;

/// A texture reference: declare at file scope, bind from the host with
/// cuModuleGetTexRef and cuTexRefSet*.
template <class T, int TexType = cudaTextureType1D,
          enum cudaTextureReadMode Mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {};

extern "C" {
/// The runtime's fetches (modules/TextureAbi.h).
__device__ void __cucpu_tex_fetch(unsigned long long Handle, unsigned Dims,
                                  float X, float Y, float Z, unsigned *Out);
__device__ void __cucpu_tex_fetch_index(unsigned long long Handle, int X,
                                        unsigned *Out);
/// Tells cucc that the reference behind Handle is declared with Description
/// (see __cucpu_texture::description); removed by the JIT.
__device__ void __cucpu_texref_type(unsigned long long Handle,
                                    unsigned Description);
}

namespace __cucpu_texture {

/// Channel kind (0 signed, 1 unsigned, 2 float), bits and count of T.
template <class T> struct channels;
#define __CUCPU_TEX_CHANNELS(T, Kind, Bits)                                    \
  template <> struct channels<T> {                                             \
    static constexpr unsigned kind = Kind, bits = Bits, count = 1;             \
  };
__CUCPU_TEX_CHANNELS(char, (char)-1 < 0 ? 0 : 1, 8)
__CUCPU_TEX_CHANNELS(signed char, 0, 8)
__CUCPU_TEX_CHANNELS(unsigned char, 1, 8)
__CUCPU_TEX_CHANNELS(short, 0, 16)
__CUCPU_TEX_CHANNELS(unsigned short, 1, 16)
__CUCPU_TEX_CHANNELS(int, 0, 32)
__CUCPU_TEX_CHANNELS(unsigned int, 1, 32)
__CUCPU_TEX_CHANNELS(float, 2, 32)
#undef __CUCPU_TEX_CHANNELS
#define __CUCPU_TEX_VECTOR_CHANNELS(V, S)                                      \
  template <> struct channels<V##1> : channels<S> {                            \
    static constexpr unsigned count = 1;                                       \
  };                                                                           \
  template <> struct channels<V##2> : channels<S> {                            \
    static constexpr unsigned count = 2;                                       \
  };                                                                           \
  template <> struct channels<V##4> : channels<S> {                            \
    static constexpr unsigned count = 4;                                       \
  };
__CUCPU_TEX_VECTOR_CHANNELS(char, signed char)
__CUCPU_TEX_VECTOR_CHANNELS(uchar, unsigned char)
__CUCPU_TEX_VECTOR_CHANNELS(short, short)
__CUCPU_TEX_VECTOR_CHANNELS(ushort, unsigned short)
__CUCPU_TEX_VECTOR_CHANNELS(int, int)
__CUCPU_TEX_VECTOR_CHANNELS(uint, unsigned int)
__CUCPU_TEX_VECTOR_CHANNELS(float, float)
#undef __CUCPU_TEX_VECTOR_CHANNELS

/// What __cucpu_texref_type records: the texture type (cudaTextureType*)
/// in bits 0-7, read mode in 8-11, channel kind in 12-15, channel bits in
/// 16-23, channels in 24-27.
template <class T, int TexType, enum cudaTextureReadMode Mode>
struct description {
  static constexpr unsigned value =
      unsigned(TexType) | unsigned(Mode) << 8 | channels<T>::kind << 12 |
      channels<T>::bits << 16 | channels<T>::count << 24;
};

/// The result of a fetch from a texture of T read with Mode: T itself, or
/// the float type of as many channels for 8- and 16-bit integers read as
/// normalized floats.
template <class T, enum cudaTextureReadMode Mode>
struct result {
  typedef T type;
};
template <class T> struct result<T, cudaReadModeNormalizedFloat> {
  typedef float type;
};
#define __CUCPU_TEX_NORMALIZED(V)                                              \
  template <> struct result<V##1, cudaReadModeNormalizedFloat> {               \
    typedef float1 type;                                                       \
  };                                                                           \
  template <> struct result<V##2, cudaReadModeNormalizedFloat> {               \
    typedef float2 type;                                                       \
  };                                                                           \
  template <> struct result<V##4, cudaReadModeNormalizedFloat> {               \
    typedef float4 type;                                                       \
  };
__CUCPU_TEX_NORMALIZED(char)
__CUCPU_TEX_NORMALIZED(uchar)
__CUCPU_TEX_NORMALIZED(short)
__CUCPU_TEX_NORMALIZED(ushort)
#undef __CUCPU_TEX_NORMALIZED

/// One channel of a result from its 32-bit word.
template <class S> __device__ __forceinline__ S component(unsigned W) {
  return (S)W;
}
template <> __device__ __forceinline__ float component<float>(unsigned W) {
  return __builtin_bit_cast(float, W);
}

/// Builds a result of type R from the four words of a fetch.
template <class R> struct build {
  static __device__ __forceinline__ R from(const unsigned *W) {
    return component<R>(W[0]);
  }
};
#define __CUCPU_TEX_BUILD(V, S)                                                \
  template <> struct build<V##1> {                                             \
    static __device__ __forceinline__ V##1 from(const unsigned *W) {           \
      V##1 R;                                                                  \
      R.x = component<S>(W[0]);                                                \
      return R;                                                                \
    }                                                                          \
  };                                                                           \
  template <> struct build<V##2> {                                             \
    static __device__ __forceinline__ V##2 from(const unsigned *W) {           \
      V##2 R;                                                                  \
      R.x = component<S>(W[0]);                                                \
      R.y = component<S>(W[1]);                                                \
      return R;                                                                \
    }                                                                          \
  };                                                                           \
  template <> struct build<V##4> {                                             \
    static __device__ __forceinline__ V##4 from(const unsigned *W) {           \
      V##4 R;                                                                  \
      R.x = component<S>(W[0]);                                                \
      R.y = component<S>(W[1]);                                                \
      R.z = component<S>(W[2]);                                                \
      R.w = component<S>(W[3]);                                                \
      return R;                                                                \
    }                                                                          \
  };
__CUCPU_TEX_BUILD(char, signed char)
__CUCPU_TEX_BUILD(uchar, unsigned char)
__CUCPU_TEX_BUILD(short, short)
__CUCPU_TEX_BUILD(ushort, unsigned short)
__CUCPU_TEX_BUILD(int, int)
__CUCPU_TEX_BUILD(uint, unsigned int)
__CUCPU_TEX_BUILD(float, float)
#undef __CUCPU_TEX_BUILD

/// The handle clang passes for a texture reference argument.
template <class T, int TexType, enum cudaTextureReadMode Mode>
__device__ __forceinline__ unsigned long long
handle(const texture<T, TexType, Mode> &Tex) {
  unsigned long long H = *reinterpret_cast<const unsigned long long *>(&Tex);
  __cucpu_texref_type(H, description<T, TexType, Mode>::value);
  return H;
}

template <class R>
__device__ __forceinline__ R fetch(unsigned long long H, unsigned Dims, float X,
                                   float Y, float Z) {
  unsigned W[4];
  __cucpu_tex_fetch(H, Dims, X, Y, Z, W);
  return build<R>::from(W);
}

template <class R>
__device__ __forceinline__ R fetchIndex(unsigned long long H, int X) {
  unsigned W[4];
  __cucpu_tex_fetch_index(H, X, W);
  return build<R>::from(W);
}

} // namespace __cucpu_texture

// Texture references.
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ typename __cucpu_texture::result<T, Mode>::type
tex1Dfetch(texture<T, cudaTextureType1D, Mode> Tex, int X) {
  return __cucpu_texture::fetchIndex<
      typename __cucpu_texture::result<T, Mode>::type>(
      __cucpu_texture::handle(Tex), X);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ typename __cucpu_texture::result<T, Mode>::type
tex1D(texture<T, cudaTextureType1D, Mode> Tex, float X) {
  return __cucpu_texture::fetch<
      typename __cucpu_texture::result<T, Mode>::type>(
      __cucpu_texture::handle(Tex), 1, X, 0.0f, 0.0f);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ typename __cucpu_texture::result<T, Mode>::type
tex2D(texture<T, cudaTextureType2D, Mode> Tex, float X, float Y) {
  return __cucpu_texture::fetch<
      typename __cucpu_texture::result<T, Mode>::type>(
      __cucpu_texture::handle(Tex), 2, X, Y, 0.0f);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ typename __cucpu_texture::result<T, Mode>::type
tex3D(texture<T, cudaTextureType3D, Mode> Tex, float X, float Y, float Z) {
  return __cucpu_texture::fetch<
      typename __cucpu_texture::result<T, Mode>::type>(
      __cucpu_texture::handle(Tex), 3, X, Y, Z);
}

// Texture objects: the result type is named, tex2D<float>(Obj, X, Y), or
// written through a pointer, tex2D(&Value, Obj, X, Y).
template <class T>
__device__ __forceinline__ T tex1Dfetch(cudaTextureObject_t Obj, int X) {
  return __cucpu_texture::fetchIndex<T>(Obj, X);
}
template <class T>
__device__ __forceinline__ void tex1Dfetch(T *Out, cudaTextureObject_t Obj,
                                           int X) {
  *Out = __cucpu_texture::fetchIndex<T>(Obj, X);
}
template <class T>
__device__ __forceinline__ T tex1D(cudaTextureObject_t Obj, float X) {
  return __cucpu_texture::fetch<T>(Obj, 1, X, 0.0f, 0.0f);
}
template <class T>
__device__ __forceinline__ void tex1D(T *Out, cudaTextureObject_t Obj,
                                      float X) {
  *Out = __cucpu_texture::fetch<T>(Obj, 1, X, 0.0f, 0.0f);
}
template <class T>
__device__ __forceinline__ T tex2D(cudaTextureObject_t Obj, float X, float Y) {
  return __cucpu_texture::fetch<T>(Obj, 2, X, Y, 0.0f);
}
template <class T>
__device__ __forceinline__ void tex2D(T *Out, cudaTextureObject_t Obj, float X,
                                      float Y) {
  *Out = __cucpu_texture::fetch<T>(Obj, 2, X, Y, 0.0f);
}
template <class T>
__device__ __forceinline__ T tex3D(cudaTextureObject_t Obj, float X, float Y,
                                   float Z) {
  return __cucpu_texture::fetch<T>(Obj, 3, X, Y, Z);
}
template <class T>
__device__ __forceinline__ void tex3D(T *Out, cudaTextureObject_t Obj, float X,
                                      float Y, float Z) {
  *Out = __cucpu_texture::fetch<T>(Obj, 3, X, Y, Z);
}

#endif // CUCPU_DEVICE_DETAIL_TEXTURES_H

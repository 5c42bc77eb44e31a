//===- detail/textures.h - Texture references and fetches -------*- C++ -*-===//
//
// texture<T, Dim, ReadMode> references declared at file scope and texture
// objects (cudaTextureObject_t), read by tex1Dfetch, tex1D, tex2D and tex3D.
// clang gives a variable of the texture template (marked
// device_builtin_texture_type) to device code as a 64-bit handle,
// llvm.nvvm.texsurf.handle.internal(@var); a texture object is such a handle
// already. Every fetch calls the runtime's __cucpu_tex_fetch* with the
// handle and gets four 32-bit words back
// (modules/abi/include/cucpu/modules/abi/TextureAbi.h), which the fetch turns
// into its result type. Fetches through a reference also call
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

template <class T, int TexType = cudaTextureType1D,
          enum cudaTextureReadMode Mode = cudaReadModeElementType>
struct texture;

extern "C" {
/// The runtime's fetches (modules/abi/include/cucpu/modules/abi/TextureAbi.h).
__device__ void __cucpu_tex_fetch(unsigned long long Handle, unsigned Dims,
                                  float X, float Y, float Z, unsigned *Out);
__device__ void __cucpu_tex_fetch_index(unsigned long long Handle, int X,
                                        unsigned *Out);
/// The inputs of every other fetch form
/// (modules/abi/include/cucpu/modules/abi/TextureAbi.h CucpuFetch).
struct __cucpu_fetch {
  float Coord[3];
  int Layer;
  float Level;
  float Gradient[2][3];
  unsigned Form;
};
__device__ void __cucpu_tex_sample(unsigned long long Handle,
                                   const struct __cucpu_fetch *Fetch,
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

} // namespace __cucpu_texture

/// A texture reference: declare at file scope, bind from the host with
/// cuModuleGetTexRef and cuTexRefSet*, or with the runtime's cudaBindTexture*
/// (CUDA_ENABLE_DEPRECATED). Host code constructs it as CUDA 11's
/// cuda_texture_types.h did: unnormalized coordinates, point filtering and
/// clamping unless told, and the channel format of T.
template <class T, int TexType, enum cudaTextureReadMode Mode>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    typedef __cucpu_texture::channels<T> C;
    struct cudaChannelFormatDesc Desc;
    Desc.x = int(C::bits);
    Desc.y = C::count >= 2 ? int(C::bits) : 0;
    Desc.z = C::count >= 4 ? int(C::bits) : 0;
    Desc.w = C::count >= 4 ? int(C::bits) : 0;
    Desc.f = static_cast<enum cudaChannelFormatKind>(C::kind);
    init(norm, fMode, aMode, Desc);
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
    for (int i = 0; i < 3; ++i)
      addressMode[i] = aMode;
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

namespace __cucpu_texture {

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
template <class T, enum cudaTextureReadMode Mode> struct result {
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

/// What a __cucpu_fetch does (CucpuFetch* << 8 in its Form).
enum { Sample = 0, Level = 1 << 8, Gradient = 2 << 8, Gather = 3 << 8 };

/// A fetch of any other form: \p Form is the texture type it names and
/// what it does; DX and DY are the gradients of a Gradient fetch.
template <class R>
__device__ __forceinline__ R sample(unsigned long long H, unsigned Form,
                                    float X, float Y, float Z, int Layer = 0,
                                    float Lvl = 0, float4 DX = float4(),
                                    float4 DY = float4()) {
  __cucpu_fetch F;
  F.Coord[0] = X;
  F.Coord[1] = Y;
  F.Coord[2] = Z;
  F.Layer = Layer;
  F.Level = Lvl;
  F.Gradient[0][0] = DX.x;
  F.Gradient[0][1] = DX.y;
  F.Gradient[0][2] = DX.z;
  F.Gradient[1][0] = DY.x;
  F.Gradient[1][1] = DY.y;
  F.Gradient[1][2] = DY.z;
  F.Form = Form;
  unsigned W[4];
  __cucpu_tex_sample(H, &F, W);
  return build<R>::from(W);
}

__device__ __forceinline__ float4 grad1(float D) {
  float4 V = float4();
  V.x = D;
  return V;
}
__device__ __forceinline__ float4 grad2(float2 D) {
  float4 V = float4();
  V.x = D.x;
  V.y = D.y;
  return V;
}

/// The four-channel result of tex2Dgather through a reference of T read
/// with Mode: T's channel type four times, float4 for normalized reads.
template <class T, enum cudaTextureReadMode Mode> struct gather_result {
  typedef float4 type;
};
#define __CUCPU_TEX_GATHER(S, V)                                               \
  template <> struct gather_result<S, cudaReadModeElementType> {               \
    typedef V##4 type;                                                         \
  };                                                                           \
  template <> struct gather_result<V##1, cudaReadModeElementType> {            \
    typedef V##4 type;                                                         \
  };                                                                           \
  template <> struct gather_result<V##2, cudaReadModeElementType> {            \
    typedef V##4 type;                                                         \
  };                                                                           \
  template <> struct gather_result<V##4, cudaReadModeElementType> {            \
    typedef V##4 type;                                                         \
  };
__CUCPU_TEX_GATHER(signed char, char)
__CUCPU_TEX_GATHER(unsigned char, uchar)
__CUCPU_TEX_GATHER(short, short)
__CUCPU_TEX_GATHER(unsigned short, ushort)
__CUCPU_TEX_GATHER(int, int)
__CUCPU_TEX_GATHER(unsigned int, uint)
__CUCPU_TEX_GATHER(float, float)
#undef __CUCPU_TEX_GATHER
template <> struct gather_result<char, cudaReadModeElementType> {
  typedef char4 type;
};

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

// Layered, cubemap, gather, level-of-detail and gradient fetches through
// references. cucpu's references read no mipmapped arrays, so a level or
// gradient fetch through one reads its only level.
#define __CUCPU_TEXREF_RESULT typename __cucpu_texture::result<T, Mode>::type
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT tex1DLayered(
    texture<T, cudaTextureType1DLayered, Mode> Tex, float X, int Layer) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureType1DLayered, X, 0, 0, Layer);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex2DLayered(texture<T, cudaTextureType2DLayered, Mode> Tex, float X, float Y,
             int Layer) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureType2DLayered, X, Y, 0, Layer);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT texCubemap(
    texture<T, cudaTextureTypeCubemap, Mode> Tex, float X, float Y, float Z) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureTypeCubemap, X, Y, Z);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
texCubemapLayered(texture<T, cudaTextureTypeCubemapLayered, Mode> Tex, float X,
                  float Y, float Z, int Layer) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureTypeCubemapLayered, X, Y, Z,
      Layer);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__
    typename __cucpu_texture::gather_result<T, Mode>::type
    tex2Dgather(texture<T, cudaTextureType2D, Mode> Tex, float X, float Y,
                int Comp = 0) {
  return __cucpu_texture::sample<
      typename __cucpu_texture::gather_result<T, Mode>::type>(
      __cucpu_texture::handle(Tex),
      cudaTextureType2D | __cucpu_texture::Gather | unsigned(Comp & 3) << 16, X,
      Y, 0);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex1DLod(texture<T, cudaTextureType1D, Mode> Tex, float X, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureType1D | __cucpu_texture::Level,
      X, 0, 0, 0, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT tex2DLod(
    texture<T, cudaTextureType2D, Mode> Tex, float X, float Y, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureType2D | __cucpu_texture::Level,
      X, Y, 0, 0, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex3DLod(texture<T, cudaTextureType3D, Mode> Tex, float X, float Y, float Z,
         float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex), cudaTextureType3D | __cucpu_texture::Level,
      X, Y, Z, 0, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex1DLayeredLod(texture<T, cudaTextureType1DLayered, Mode> Tex, float X,
                int Layer, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType1DLayered | __cucpu_texture::Level, X, 0, 0, Layer, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex2DLayeredLod(texture<T, cudaTextureType2DLayered, Mode> Tex, float X,
                float Y, int Layer, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType2DLayered | __cucpu_texture::Level, X, Y, 0, Layer, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
texCubemapLod(texture<T, cudaTextureTypeCubemap, Mode> Tex, float X, float Y,
              float Z, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureTypeCubemap | __cucpu_texture::Level, X, Y, Z, 0, Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
texCubemapLayeredLod(texture<T, cudaTextureTypeCubemapLayered, Mode> Tex,
                     float X, float Y, float Z, int Layer, float Level) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureTypeCubemapLayered | __cucpu_texture::Level, X, Y, Z, Layer,
      Level);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT tex1DGrad(
    texture<T, cudaTextureType1D, Mode> Tex, float X, float DX, float DY) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType1D | __cucpu_texture::Gradient, X, 0, 0, 0, 0,
      __cucpu_texture::grad1(DX), __cucpu_texture::grad1(DY));
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex2DGrad(texture<T, cudaTextureType2D, Mode> Tex, float X, float Y, float2 DX,
          float2 DY) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType2D | __cucpu_texture::Gradient, X, Y, 0, 0, 0,
      __cucpu_texture::grad2(DX), __cucpu_texture::grad2(DY));
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex3DGrad(texture<T, cudaTextureType3D, Mode> Tex, float X, float Y, float Z,
          float4 DX, float4 DY) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType3D | __cucpu_texture::Gradient, X, Y, Z, 0, 0, DX, DY);
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex1DLayeredGrad(texture<T, cudaTextureType1DLayered, Mode> Tex, float X,
                 int Layer, float DX, float DY) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType1DLayered | __cucpu_texture::Gradient, X, 0, 0, Layer, 0,
      __cucpu_texture::grad1(DX), __cucpu_texture::grad1(DY));
}
template <class T, enum cudaTextureReadMode Mode>
__device__ __forceinline__ __CUCPU_TEXREF_RESULT
tex2DLayeredGrad(texture<T, cudaTextureType2DLayered, Mode> Tex, float X,
                 float Y, int Layer, float2 DX, float2 DY) {
  return __cucpu_texture::sample<__CUCPU_TEXREF_RESULT>(
      __cucpu_texture::handle(Tex),
      cudaTextureType2DLayered | __cucpu_texture::Gradient, X, Y, 0, Layer, 0,
      __cucpu_texture::grad2(DX), __cucpu_texture::grad2(DY));
}
#undef __CUCPU_TEXREF_RESULT

// The same forms through texture objects: the result type is named,
// tex2DLayered<float>(Obj, X, Y, Layer), or written through a pointer. The
// forms with isResident (sparse arrays) report every texel resident.
#define __CUCPU_TEXOBJ(Name, Params, Form, ...)                                \
  template <class T>                                                           \
  __device__ __forceinline__ T Name(cudaTextureObject_t Obj Params) {          \
    return __cucpu_texture::sample<T>(Obj, Form, __VA_ARGS__);                 \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void Name(T *Out,                                 \
                                       cudaTextureObject_t Obj Params) {       \
    *Out = __cucpu_texture::sample<T>(Obj, Form, __VA_ARGS__);                 \
  }
#define __CUCPU_P(...) , __VA_ARGS__
__CUCPU_TEXOBJ(tex1DLayered, __CUCPU_P(float X, int Layer),
               cudaTextureType1DLayered, X, 0, 0, Layer)
__CUCPU_TEXOBJ(tex2DLayered, __CUCPU_P(float X, float Y, int Layer),
               cudaTextureType2DLayered, X, Y, 0, Layer)
__CUCPU_TEXOBJ(texCubemap, __CUCPU_P(float X, float Y, float Z),
               cudaTextureTypeCubemap, X, Y, Z)
__CUCPU_TEXOBJ(texCubemapLayered,
               __CUCPU_P(float X, float Y, float Z, int Layer),
               cudaTextureTypeCubemapLayered, X, Y, Z, Layer)
__CUCPU_TEXOBJ(tex2Dgather, __CUCPU_P(float X, float Y, int Comp = 0),
               cudaTextureType2D | __cucpu_texture::Gather |
                   unsigned(Comp & 3) << 16,
               X, Y, 0)
__CUCPU_TEXOBJ(tex1DLod, __CUCPU_P(float X, float Level),
               cudaTextureType1D | __cucpu_texture::Level, X, 0, 0, 0, Level)
__CUCPU_TEXOBJ(tex2DLod, __CUCPU_P(float X, float Y, float Level),
               cudaTextureType2D | __cucpu_texture::Level, X, Y, 0, 0, Level)
__CUCPU_TEXOBJ(tex3DLod, __CUCPU_P(float X, float Y, float Z, float Level),
               cudaTextureType3D | __cucpu_texture::Level, X, Y, Z, 0, Level)
__CUCPU_TEXOBJ(tex1DLayeredLod, __CUCPU_P(float X, int Layer, float Level),
               cudaTextureType1DLayered | __cucpu_texture::Level, X, 0, 0,
               Layer, Level)
__CUCPU_TEXOBJ(tex2DLayeredLod,
               __CUCPU_P(float X, float Y, int Layer, float Level),
               cudaTextureType2DLayered | __cucpu_texture::Level, X, Y, 0,
               Layer, Level)
__CUCPU_TEXOBJ(texCubemapLod, __CUCPU_P(float X, float Y, float Z, float Level),
               cudaTextureTypeCubemap | __cucpu_texture::Level, X, Y, Z, 0,
               Level)
__CUCPU_TEXOBJ(texCubemapLayeredLod,
               __CUCPU_P(float X, float Y, float Z, int Layer, float Level),
               cudaTextureTypeCubemapLayered | __cucpu_texture::Level, X, Y, Z,
               Layer, Level)
__CUCPU_TEXOBJ(tex1DGrad, __CUCPU_P(float X, float DX, float DY),
               cudaTextureType1D | __cucpu_texture::Gradient, X, 0, 0, 0, 0,
               __cucpu_texture::grad1(DX), __cucpu_texture::grad1(DY))
__CUCPU_TEXOBJ(tex2DGrad, __CUCPU_P(float X, float Y, float2 DX, float2 DY),
               cudaTextureType2D | __cucpu_texture::Gradient, X, Y, 0, 0, 0,
               __cucpu_texture::grad2(DX), __cucpu_texture::grad2(DY))
__CUCPU_TEXOBJ(tex3DGrad,
               __CUCPU_P(float X, float Y, float Z, float4 DX, float4 DY),
               cudaTextureType3D | __cucpu_texture::Gradient, X, Y, Z, 0, 0, DX,
               DY)
__CUCPU_TEXOBJ(tex1DLayeredGrad,
               __CUCPU_P(float X, int Layer, float DX, float DY),
               cudaTextureType1DLayered | __cucpu_texture::Gradient, X, 0, 0,
               Layer, 0, __cucpu_texture::grad1(DX), __cucpu_texture::grad1(DY))
__CUCPU_TEXOBJ(tex2DLayeredGrad,
               __CUCPU_P(float X, float Y, int Layer, float2 DX, float2 DY),
               cudaTextureType2DLayered | __cucpu_texture::Gradient, X, Y, 0,
               Layer, 0, __cucpu_texture::grad2(DX), __cucpu_texture::grad2(DY))
__CUCPU_TEXOBJ(texCubemapGrad,
               __CUCPU_P(float X, float Y, float Z, float4 DX, float4 DY),
               cudaTextureTypeCubemap | __cucpu_texture::Gradient, X, Y, Z, 0,
               0, DX, DY)
__CUCPU_TEXOBJ(texCubemapLayeredGrad,
               __CUCPU_P(float X, float Y, float Z, int Layer, float4 DX,
                         float4 DY),
               cudaTextureTypeCubemapLayered | __cucpu_texture::Gradient, X, Y,
               Z, Layer, 0, DX, DY)
// Sparse forms: the arrays are never sparse.
__CUCPU_TEXOBJ(tex2D, __CUCPU_P(float X, float Y, bool *IsResident),
               (*IsResident = true, cudaTextureType2D), X, Y, 0)
__CUCPU_TEXOBJ(tex3D, __CUCPU_P(float X, float Y, float Z, bool *IsResident),
               (*IsResident = true, cudaTextureType3D), X, Y, Z)
__CUCPU_TEXOBJ(tex2DLayered,
               __CUCPU_P(float X, float Y, int Layer, bool *IsResident),
               (*IsResident = true, cudaTextureType2DLayered), X, Y, 0, Layer)
__CUCPU_TEXOBJ(tex2Dgather,
               __CUCPU_P(float X, float Y, bool *IsResident, int Comp = 0),
               (*IsResident = true, cudaTextureType2D |
                                        __cucpu_texture::Gather |
                                        unsigned(Comp & 3) << 16),
               X, Y, 0)
__CUCPU_TEXOBJ(tex2DLod,
               __CUCPU_P(float X, float Y, float Level, bool *IsResident),
               (*IsResident = true, cudaTextureType2D | __cucpu_texture::Level),
               X, Y, 0, 0, Level)
__CUCPU_TEXOBJ(tex3DLod,
               __CUCPU_P(float X, float Y, float Z, float Level,
                         bool *IsResident),
               (*IsResident = true, cudaTextureType3D | __cucpu_texture::Level),
               X, Y, Z, 0, Level)
__CUCPU_TEXOBJ(tex2DLayeredLod,
               __CUCPU_P(float X, float Y, int Layer, float Level,
                         bool *IsResident),
               (*IsResident = true,
                cudaTextureType2DLayered | __cucpu_texture::Level),
               X, Y, 0, Layer, Level)
__CUCPU_TEXOBJ(
    tex2DGrad,
    __CUCPU_P(float X, float Y, float2 DX, float2 DY, bool *IsResident),
    (*IsResident = true, cudaTextureType2D | __cucpu_texture::Gradient), X, Y,
    0, 0, 0, __cucpu_texture::grad2(DX), __cucpu_texture::grad2(DY))
__CUCPU_TEXOBJ(tex3DGrad,
               __CUCPU_P(float X, float Y, float Z, float4 DX, float4 DY,
                         bool *IsResident),
               (*IsResident = true,
                cudaTextureType3D | __cucpu_texture::Gradient),
               X, Y, Z, 0, 0, DX, DY)
__CUCPU_TEXOBJ(tex2DLayeredGrad,
               __CUCPU_P(float X, float Y, int Layer, float2 DX, float2 DY,
                         bool *IsResident),
               (*IsResident = true,
                cudaTextureType2DLayered | __cucpu_texture::Gradient),
               X, Y, 0, Layer, 0, __cucpu_texture::grad2(DX),
               __cucpu_texture::grad2(DY))
#undef __CUCPU_P
#undef __CUCPU_TEXOBJ

#endif // CUCPU_DEVICE_DETAIL_TEXTURES_H

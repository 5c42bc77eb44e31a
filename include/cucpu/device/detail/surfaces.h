//===- detail/surfaces.h - Surface references and accesses ------*- C++ -*-===//
//
// surface<void, Type> references declared at file scope and surface objects
// (cudaSurfaceObject_t), read and written by surf1D/2D/3D, surf1D/2DLayered,
// surfCubemap and surfCubemapLayered read/write (CUDA 11 guide B.9). x is a
// byte offset. clang gives a variable of the surface template (marked
// device_builtin_surface_type) to device code as a 64-bit handle,
// llvm.nvvm.texsurf.handle.internal(@var), as it does textures; a surface
// object is such a handle already. Every access calls the runtime's
// __cucpu_surf_read or __cucpu_surf_write
// (modules/abi/include/cucpu/modules/abi/SurfaceAbi.h) with the handle, the
// access's form and the bytes. Accesses through a reference also call
// __cucpu_texref_type (detail/textures.h) with read mode 2, which tells cucc
// the variable is a surface reference of that type. Part of the prelude, after
// detail/textures.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_SURFACES_H
#define CUCPU_DEVICE_DETAIL_SURFACES_H

#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/// What an access outside the surface does.
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
/// Whether surface accesses convert formats.
enum cudaSurfaceFormatMode { cudaFormatModeForced = 0, cudaFormatModeAuto = 1 };

typedef unsigned long long cudaSurfaceObject_t;

/// The host-side state of a surface reference: its channel format.
struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

/// A surface reference: declare surface<void, Type> at file scope, bind an
/// array from the host with cuModuleGetSurfRef and cuSurfRefSetArray.
template <class T, int Type = cudaSurfaceType1D>
struct __attribute__((device_builtin_surface_type)) surface
    : public surfaceReference {};

extern "C" {
/// The runtime's accesses (modules/abi/include/cucpu/modules/abi/SurfaceAbi.h).
__device__ void __cucpu_surf_read(unsigned long long Handle, unsigned Form,
                                  int X, int Y, int Z, void *Out);
__device__ void __cucpu_surf_write(unsigned long long Handle, unsigned Form,
                                   int X, int Y, int Z, const void *In);
}

namespace __cucpu_surface {

/// The types surface accesses take (those of NVIDIA's
/// surface_indirect_functions.h): 1-, 2-, 4-, 8- and 16-byte scalars and
/// vectors of char, short, int, long long and float.
template <class T> struct accepted {
  static constexpr bool value = false;
};
#define __CUCPU_SURF_ACCEPT(T)                                                 \
  template <> struct accepted<T> {                                             \
    static constexpr bool value = true;                                        \
  };
__CUCPU_SURF_ACCEPT(char)
__CUCPU_SURF_ACCEPT(signed char)
__CUCPU_SURF_ACCEPT(unsigned char)
__CUCPU_SURF_ACCEPT(char1)
__CUCPU_SURF_ACCEPT(uchar1)
__CUCPU_SURF_ACCEPT(char2)
__CUCPU_SURF_ACCEPT(uchar2)
__CUCPU_SURF_ACCEPT(char4)
__CUCPU_SURF_ACCEPT(uchar4)
__CUCPU_SURF_ACCEPT(short)
__CUCPU_SURF_ACCEPT(unsigned short)
__CUCPU_SURF_ACCEPT(short1)
__CUCPU_SURF_ACCEPT(ushort1)
__CUCPU_SURF_ACCEPT(short2)
__CUCPU_SURF_ACCEPT(ushort2)
__CUCPU_SURF_ACCEPT(short4)
__CUCPU_SURF_ACCEPT(ushort4)
__CUCPU_SURF_ACCEPT(int)
__CUCPU_SURF_ACCEPT(unsigned int)
__CUCPU_SURF_ACCEPT(int1)
__CUCPU_SURF_ACCEPT(uint1)
__CUCPU_SURF_ACCEPT(int2)
__CUCPU_SURF_ACCEPT(uint2)
__CUCPU_SURF_ACCEPT(int4)
__CUCPU_SURF_ACCEPT(uint4)
__CUCPU_SURF_ACCEPT(long long)
__CUCPU_SURF_ACCEPT(unsigned long long)
__CUCPU_SURF_ACCEPT(longlong1)
__CUCPU_SURF_ACCEPT(ulonglong1)
__CUCPU_SURF_ACCEPT(longlong2)
__CUCPU_SURF_ACCEPT(ulonglong2)
__CUCPU_SURF_ACCEPT(float)
__CUCPU_SURF_ACCEPT(float1)
__CUCPU_SURF_ACCEPT(float2)
__CUCPU_SURF_ACCEPT(float4)
#undef __CUCPU_SURF_ACCEPT

/// The Form of an access of T to a surface of type Type (SurfaceAbi.h).
template <class T>
__device__ __forceinline__ unsigned form(int Type,
                                         cudaSurfaceBoundaryMode Mode) {
  static_assert(accepted<T>::value,
                "surface accesses take 1-, 2-, 4-, 8- and 16-byte scalars and "
                "vectors of char, short, int, long long and float");
  return unsigned(Type) | unsigned(Mode) << 8 | unsigned(sizeof(T)) << 16;
}

template <class T>
__device__ __forceinline__ T read(unsigned long long H, int Type, int X, int Y,
                                  int Z, cudaSurfaceBoundaryMode Mode) {
  T V;
  __cucpu_surf_read(H, form<T>(Type, Mode), X, Y, Z, &V);
  return V;
}

template <class T>
__device__ __forceinline__ void write(T V, unsigned long long H, int Type,
                                      int X, int Y, int Z,
                                      cudaSurfaceBoundaryMode Mode) {
  __cucpu_surf_write(H, form<T>(Type, Mode), X, Y, Z, &V);
}

/// The handle clang passes for a surface reference argument; tells cucc
/// (read mode 2 of __cucpu_texref_type's description) that it is a surface
/// of type Type.
template <class T, int Type>
__device__ __forceinline__ unsigned long long
handle(const surface<T, Type> &Surf) {
  unsigned long long H = *reinterpret_cast<const unsigned long long *>(&Surf);
  __cucpu_texref_type(H, unsigned(Type) | 2u << 8);
  return H;
}

} // namespace __cucpu_surface

// Surface objects: the result type is named, surf2Dread<float>(Obj, X, Y),
// or written through a pointer, surf2Dread(&Value, Obj, X, Y). The boundary
// mode is trap unless given.
#define __CUCPU_SURF_OBJECT(Name, Type, Params, Coords, Args)                  \
  template <class T>                                                           \
  __device__ __forceinline__ T Name##read(cudaSurfaceObject_t Obj, Params,     \
                                          cudaSurfaceBoundaryMode Mode =       \
                                              cudaBoundaryModeTrap) {          \
    return __cucpu_surface::read<T>(Obj, Type, Coords, Mode);                  \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void Name##read(                                  \
      T *Out, cudaSurfaceObject_t Obj, Params,                                 \
      cudaSurfaceBoundaryMode Mode = cudaBoundaryModeTrap) {                   \
    *Out = __cucpu_surface::read<T>(Obj, Type, Coords, Mode);                  \
  }                                                                            \
  template <class T>                                                           \
  __device__ __forceinline__ void Name##write(                                 \
      T Value, cudaSurfaceObject_t Obj, Params,                                \
      cudaSurfaceBoundaryMode Mode = cudaBoundaryModeTrap) {                   \
    __cucpu_surface::write<T>(Value, Obj, Type, Coords, Mode);                 \
  }

// Surface references: surface<void, Type> (of any element type) bound to an
// array, in the same forms.
#define __CUCPU_SURF_REFERENCE(Name, Type, Params, Coords, Args)               \
  template <class T, class E>                                                  \
  __device__ __forceinline__ T Name##read(surface<E, Type> Surf, Params,       \
                                          cudaSurfaceBoundaryMode Mode =       \
                                              cudaBoundaryModeTrap) {          \
    return __cucpu_surface::read<T>(__cucpu_surface::handle(Surf), Type,       \
                                    Coords, Mode);                             \
  }                                                                            \
  template <class T, class E>                                                  \
  __device__ __forceinline__ void Name##read(                                  \
      T *Out, surface<E, Type> Surf, Params,                                   \
      cudaSurfaceBoundaryMode Mode = cudaBoundaryModeTrap) {                   \
    *Out = __cucpu_surface::read<T>(__cucpu_surface::handle(Surf), Type,       \
                                    Coords, Mode);                             \
  }                                                                            \
  template <class T, class E>                                                  \
  __device__ __forceinline__ void Name##write(                                 \
      T Value, surface<E, Type> Surf, Params,                                  \
      cudaSurfaceBoundaryMode Mode = cudaBoundaryModeTrap) {                   \
    __cucpu_surface::write<T>(Value, __cucpu_surface::handle(Surf), Type,      \
                              Coords, Mode);                                   \
  }

#define __CUCPU_SURF_FORMS(Name, Type, Params, Coords)                         \
  __CUCPU_SURF_OBJECT(Name, Type, __CUCPU_SURF_UNPACK Params,                  \
                      __CUCPU_SURF_UNPACK Coords, )                            \
  __CUCPU_SURF_REFERENCE(Name, Type, __CUCPU_SURF_UNPACK Params,               \
                         __CUCPU_SURF_UNPACK Coords, )
#define __CUCPU_SURF_UNPACK(...) __VA_ARGS__

__CUCPU_SURF_FORMS(surf1D, cudaSurfaceType1D, (int X), (X, 0, 0))
__CUCPU_SURF_FORMS(surf2D, cudaSurfaceType2D, (int X, int Y), (X, Y, 0))
__CUCPU_SURF_FORMS(surf3D, cudaSurfaceType3D, (int X, int Y, int Z), (X, Y, Z))
__CUCPU_SURF_FORMS(surf1DLayered, cudaSurfaceType1DLayered, (int X, int Layer),
                   (X, 0, Layer))
__CUCPU_SURF_FORMS(surf2DLayered, cudaSurfaceType2DLayered,
                   (int X, int Y, int Layer), (X, Y, Layer))
__CUCPU_SURF_FORMS(surfCubemap, cudaSurfaceTypeCubemap,
                   (int X, int Y, int Face), (X, Y, Face))
__CUCPU_SURF_FORMS(surfCubemapLayered, cudaSurfaceTypeCubemapLayered,
                   (int X, int Y, int LayerFace), (X, Y, LayerFace))

#undef __CUCPU_SURF_FORMS
#undef __CUCPU_SURF_UNPACK
#undef __CUCPU_SURF_OBJECT
#undef __CUCPU_SURF_REFERENCE

#endif // CUCPU_DEVICE_DETAIL_SURFACES_H

//===- detail/vector_types.h - CUDA's built-in vector types -----*- C++ -*-===//
//
// char1..4 through double4 with the alignments of the CUDA C++ Programming
// Guide's table of vector types (3-component types keep scalar alignment,
// alignment is capped at 16), their make_* constructors, and dim3. Part of
// the prelude (prelude.h).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_VECTOR_TYPES_H
#define CUCPU_DEVICE_DETAIL_VECTOR_TYPES_H

// One macro per component count keeps the 60 types uniform. A1..A4 are the
// alignments of the 1-, 2-, 3- and 4-component types.
#define __CUCPU_VEC1(N, T, A)                                                  \
  struct __align__(A) N##1 { T x; };                                           \
  static __inline__ __host__ __device__ N##1 make_##N##1(T x) {                \
    N##1 R;                                                                    \
    R.x = x;                                                                   \
    return R;                                                                  \
  }
#define __CUCPU_VEC2(N, T, A)                                                  \
  struct __align__(A) N##2 { T x, y; };                                        \
  static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) {           \
    N##2 R;                                                                    \
    R.x = x;                                                                   \
    R.y = y;                                                                   \
    return R;                                                                  \
  }
#define __CUCPU_VEC3(N, T, A)                                                  \
  struct __align__(A) N##3 { T x, y, z; };                                     \
  static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z) {      \
    N##3 R;                                                                    \
    R.x = x;                                                                   \
    R.y = y;                                                                   \
    R.z = z;                                                                   \
    return R;                                                                  \
  }
#define __CUCPU_VEC4(N, T, A)                                                  \
  struct __align__(A) N##4 { T x, y, z, w; };                                  \
  static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { \
    N##4 R;                                                                    \
    R.x = x;                                                                   \
    R.y = y;                                                                   \
    R.z = z;                                                                   \
    R.w = w;                                                                   \
    return R;                                                                  \
  }
#define __CUCPU_VECTOR_FAMILY(N, T, A1, A2, A3, A4)                            \
  __CUCPU_VEC1(N, T, A1)                                                       \
  __CUCPU_VEC2(N, T, A2)                                                       \
  __CUCPU_VEC3(N, T, A3)                                                       \
  __CUCPU_VEC4(N, T, A4)

__CUCPU_VECTOR_FAMILY(char, signed char, 1, 2, 1, 4)
__CUCPU_VECTOR_FAMILY(uchar, unsigned char, 1, 2, 1, 4)
__CUCPU_VECTOR_FAMILY(short, short, 2, 4, 2, 8)
__CUCPU_VECTOR_FAMILY(ushort, unsigned short, 2, 4, 2, 8)
__CUCPU_VECTOR_FAMILY(int, int, 4, 8, 4, 16)
__CUCPU_VECTOR_FAMILY(uint, unsigned int, 4, 8, 4, 16)
// long is 64-bit on the LP64 hosts and on NVPTX64.
__CUCPU_VECTOR_FAMILY(long, long, 8, 16, 8, 16)
__CUCPU_VECTOR_FAMILY(ulong, unsigned long, 8, 16, 8, 16)
__CUCPU_VECTOR_FAMILY(longlong, long long, 8, 16, 8, 16)
__CUCPU_VECTOR_FAMILY(ulonglong, unsigned long long, 8, 16, 8, 16)
__CUCPU_VECTOR_FAMILY(float, float, 4, 8, 4, 16)
__CUCPU_VECTOR_FAMILY(double, double, 8, 16, 8, 16)

#undef __CUCPU_VECTOR_FAMILY
#undef __CUCPU_VEC1
#undef __CUCPU_VEC2
#undef __CUCPU_VEC3
#undef __CUCPU_VEC4

static_assert(sizeof(float3) == 12 && alignof(float3) == 4,
              "3-component vectors have scalar alignment");
static_assert(sizeof(double4) == 32 && alignof(double4) == 16,
              "vector alignment is capped at 16 bytes");

/// Dimensions of a grid or block: "any component left unspecified when a
/// dim3 is defined is initialised to 1" (CUDA Programming Guide, dim3).
struct dim3 {
  unsigned int x, y, z;
  /// Unspecified components are 1.
  __host__ __device__ constexpr dim3(unsigned int X = 1, unsigned int Y = 1,
                                     unsigned int Z = 1)
      : x(X), y(Y), z(Z) {}
  /// From a uint3, component by component.
  __host__ __device__ constexpr dim3(uint3 V) : x(V.x), y(V.y), z(V.z) {}
  /// Back to a uint3.
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
};

#endif // CUCPU_DEVICE_DETAIL_VECTOR_TYPES_H

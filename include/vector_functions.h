/*
 * vector_functions.h - the make_* constructors of CUDA's vector types.
 *
 * cucpu's own text, with the names and parameter types of NVIDIA's CUDA 13.0
 * vector_functions.h: make_char1 .. make_double4 and the make_*4_16a/_32a
 * functions of the aligned 64-bit four-component types, as static inline
 * __host__ __device__ functions (C and C++). None is marked deprecated.
 *
 * Kernel code compiled by cucc (__CUCPU__ defined) already has these
 * functions from cucc's prelude (include/cucpu/device/detail/vector_types.h);
 * there this header adds nothing.
 */
#ifndef __VECTOR_FUNCTIONS_H__
#define __VECTOR_FUNCTIONS_H__

#include "crt/host_defines.h"
#include "vector_types.h"

#if !defined(__CUCPU__)

/// How every constructor is declared.
#define __CUCPU_VECTOR_FN static __inline__ __host__ __device__

__CUCPU_VECTOR_FN char1 make_char1(signed char x) {
  char1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN char2 make_char2(signed char x, signed char y) {
  char2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN char3 make_char3(signed char x, signed char y,
                                   signed char z) {
  char3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN char4 make_char4(signed char x, signed char y, signed char z,
                                   signed char w) {
  char4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN uchar1 make_uchar1(unsigned char x) {
  uchar1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN uchar2 make_uchar2(unsigned char x, unsigned char y) {
  uchar2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN uchar3 make_uchar3(unsigned char x, unsigned char y,
                                     unsigned char z) {
  uchar3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN uchar4 make_uchar4(unsigned char x, unsigned char y,
                                     unsigned char z, unsigned char w) {
  uchar4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN short1 make_short1(short x) {
  short1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN short2 make_short2(short x, short y) {
  short2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN short3 make_short3(short x, short y, short z) {
  short3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN short4 make_short4(short x, short y, short z, short w) {
  short4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN ushort1 make_ushort1(unsigned short x) {
  ushort1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN ushort2 make_ushort2(unsigned short x, unsigned short y) {
  ushort2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN ushort3 make_ushort3(unsigned short x, unsigned short y,
                                       unsigned short z) {
  ushort3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN ushort4 make_ushort4(unsigned short x, unsigned short y,
                                       unsigned short z, unsigned short w) {
  ushort4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN int1 make_int1(int x) {
  int1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN int2 make_int2(int x, int y) {
  int2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN int3 make_int3(int x, int y, int z) {
  int3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN int4 make_int4(int x, int y, int z, int w) {
  int4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN uint1 make_uint1(unsigned int x) {
  uint1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN uint2 make_uint2(unsigned int x, unsigned int y) {
  uint2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN uint3 make_uint3(unsigned int x, unsigned int y,
                                   unsigned int z) {
  uint3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN uint4 make_uint4(unsigned int x, unsigned int y,
                                   unsigned int z, unsigned int w) {
  uint4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN long1 make_long1(long int x) {
  long1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN long2 make_long2(long int x, long int y) {
  long2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN long3 make_long3(long int x, long int y, long int z) {
  long3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN long4 make_long4(long int x, long int y, long int z,
                                   long int w) {
  long4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN long4_16a make_long4_16a(long int x, long int y, long int z,
                                           long int w) {
  long4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN long4_32a make_long4_32a(long int x, long int y, long int z,
                                           long int w) {
  long4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN ulong1 make_ulong1(unsigned long int x) {
  ulong1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN ulong2 make_ulong2(unsigned long int x, unsigned long int y) {
  ulong2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN ulong3 make_ulong3(unsigned long int x, unsigned long int y,
                                     unsigned long int z) {
  ulong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN ulong4 make_ulong4(unsigned long int x, unsigned long int y,
                                     unsigned long int z, unsigned long int w) {
  ulong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN ulong4_16a make_ulong4_16a(unsigned long int x,
                                             unsigned long int y,
                                             unsigned long int z,
                                             unsigned long int w) {
  ulong4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN ulong4_32a make_ulong4_32a(unsigned long int x,
                                             unsigned long int y,
                                             unsigned long int z,
                                             unsigned long int w) {
  ulong4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN longlong1 make_longlong1(long long int x) {
  longlong1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN longlong2 make_longlong2(long long int x, long long int y) {
  longlong2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN longlong3 make_longlong3(long long int x, long long int y,
                                           long long int z) {
  longlong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN longlong4 make_longlong4(long long int x, long long int y,
                                           long long int z, long long int w) {
  longlong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN ulonglong1 make_ulonglong1(unsigned long long int x) {
  ulonglong1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN ulonglong2 make_ulonglong2(unsigned long long int x,
                                             unsigned long long int y) {
  ulonglong2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN ulonglong3 make_ulonglong3(unsigned long long int x,
                                             unsigned long long int y,
                                             unsigned long long int z) {
  ulonglong3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN ulonglong4 make_ulonglong4(unsigned long long int x,
                                             unsigned long long int y,
                                             unsigned long long int z,
                                             unsigned long long int w) {
  ulonglong4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN float1 make_float1(float x) {
  float1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN float2 make_float2(float x, float y) {
  float2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN float3 make_float3(float x, float y, float z) {
  float3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN float4 make_float4(float x, float y, float z, float w) {
  float4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

__CUCPU_VECTOR_FN double1 make_double1(double x) {
  double1 r;
  r.x = x;
  return r;
}
__CUCPU_VECTOR_FN double2 make_double2(double x, double y) {
  double2 r;
  r.x = x;
  r.y = y;
  return r;
}
__CUCPU_VECTOR_FN double3 make_double3(double x, double y, double z) {
  double3 r;
  r.x = x;
  r.y = y;
  r.z = z;
  return r;
}
__CUCPU_VECTOR_FN double4 make_double4(double x, double y, double z, double w) {
  double4 r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN double4_16a make_double4_16a(double x, double y, double z,
                                               double w) {
  double4_16a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}
__CUCPU_VECTOR_FN double4_32a make_double4_32a(double x, double y, double z,
                                               double w) {
  double4_32a r;
  r.x = x;
  r.y = y;
  r.z = z;
  r.w = w;
  return r;
}

#undef __CUCPU_VECTOR_FN

#endif /* !__CUCPU__ */

#endif /* __VECTOR_FUNCTIONS_H__ */

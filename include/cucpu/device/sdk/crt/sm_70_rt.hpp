//===- sdk/crt/sm_70_rt.hpp - Match functions for clang's intrinsics -*- C++
//-*-===//
//
// clang's __clang_cuda_intrinsics.h includes "crt/sm_70_rt.hpp" from the CUDA
// SDK to get the typed __match_any_sync/__match_all_sync overloads on top of
// its __match32/__match64 functions (and __nanosleep, which the toolkit
// declares with them). cucc has no SDK, so this is cucc's own version; it is
// only reached through that include.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_SM_70_RT_HPP
#define CUCPU_DEVICE_SDK_CRT_SM_70_RT_HPP

#define __CUCPU_MATCH32(T)                                                     \
  static __device__ __forceinline__ unsigned int __match_any_sync(             \
      unsigned int Mask, T Value) {                                            \
    return __match32_any_sync(Mask, __builtin_bit_cast(unsigned int, Value));  \
  }                                                                            \
  static __device__ __forceinline__ unsigned int __match_all_sync(             \
      unsigned int Mask, T Value, int *Pred) {                                 \
    return __match32_all_sync(Mask, __builtin_bit_cast(unsigned int, Value),   \
                              Pred);                                           \
  }
#define __CUCPU_MATCH64(T)                                                     \
  static __device__ __forceinline__ unsigned int __match_any_sync(             \
      unsigned int Mask, T Value) {                                            \
    return __match64_any_sync(Mask,                                            \
                              __builtin_bit_cast(unsigned long long, Value));  \
  }                                                                            \
  static __device__ __forceinline__ unsigned int __match_all_sync(             \
      unsigned int Mask, T Value, int *Pred) {                                 \
    return __match64_all_sync(                                                 \
        Mask, __builtin_bit_cast(unsigned long long, Value), Pred);            \
  }
__CUCPU_MATCH32(unsigned int)
__CUCPU_MATCH32(int)
__CUCPU_MATCH32(float)
__CUCPU_MATCH64(unsigned long)
__CUCPU_MATCH64(long)
__CUCPU_MATCH64(unsigned long long)
__CUCPU_MATCH64(long long)
__CUCPU_MATCH64(double)
#undef __CUCPU_MATCH32
#undef __CUCPU_MATCH64

/// __nanosleep (sm_70): waits about \p Ns nanoseconds, a hint; the engine
/// lets the block's other threads run (libcu++'s atomics back off with it).
static __device__ __forceinline__ void __nanosleep(unsigned int Ns) {
  __nvvm_nanosleep(Ns);
}

#endif // CUCPU_DEVICE_SDK_CRT_SM_70_RT_HPP

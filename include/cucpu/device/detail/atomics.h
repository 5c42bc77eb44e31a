//===- detail/atomics.h - CUDA atomic functions -----------------*- C++ -*-===//
//
// Every atomic function of CUDA C++ (CUDA Programming Guide, "Atomic
// Functions"): 32- and 64-bit integer, float and double add, sub, exchange,
// min, max, inc and dec with wrap-around, CAS (also 16-bit), and, or, xor, in
// the device-wide, _block and _system scopes. Part of the prelude.
//
// "Atomic functions do not act as memory fences and do not imply
// synchronization or ordering constraints for memory operations", so they are
// relaxed (LLVM `monotonic`) read-modify-writes. They are written with clang's
// __atomic builtins, which become plain `atomicrmw`/`cmpxchg` instructions
// that the CPU JIT lowers like any other. Only atomicInc/atomicDec, whose
// wrap-around has no __atomic builtin, use the NVVM builtins (IR intrinsics
// llvm.nvvm.atomic.load.inc.32 / .dec.32, i.e. LLVM's uinc_wrap/udec_wrap).
// Clang 19 ignores memory scopes on NVPTX; a stronger scope is always
// correct, so the _block and _system forms are the device-wide operations.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_ATOMICS_H
#define CUCPU_DEVICE_DETAIL_ATOMICS_H

#define __CUCPU_ATOMIC_FN static __device__ __forceinline__

// Read-modify-write operations that map onto one __atomic builtin; S is the
// scope suffix (empty, _block or _system).
#define __CUCPU_ATOMIC_RMW(Name, Builtin, T, S)                                \
  __CUCPU_ATOMIC_FN T Name##S(T *Address, T Val) {                             \
    return Builtin(Address, Val, __ATOMIC_RELAXED);                            \
  }

#define __CUCPU_ATOMIC_CAS(T, S)                                               \
  __CUCPU_ATOMIC_FN T atomicCAS##S(T *Address, T Compare, T Val) {             \
    __atomic_compare_exchange_n(Address, &Compare, Val, false,                 \
                                __ATOMIC_RELAXED, __ATOMIC_RELAXED);           \
    return Compare;                                                            \
  }

#define __CUCPU_ATOMIC_EXCH(T, S)                                              \
  __CUCPU_ATOMIC_FN T atomicExch##S(T *Address, T Val) {                       \
    T Old;                                                                     \
    __atomic_exchange(Address, &Val, &Old, __ATOMIC_RELAXED);                  \
    return Old;                                                                \
  }

#define __CUCPU_ATOMIC_SCOPE(S)                                                \
  __CUCPU_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, unsigned long long, S)     \
  __CUCPU_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, float, S)                  \
  __CUCPU_ATOMIC_RMW(atomicAdd, __atomic_fetch_add, double, S)                 \
  __CUCPU_ATOMIC_RMW(atomicSub, __atomic_fetch_sub, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicSub, __atomic_fetch_sub, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicMin, __atomic_fetch_min, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicMin, __atomic_fetch_min, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicMin, __atomic_fetch_min, long long, S)              \
  __CUCPU_ATOMIC_RMW(atomicMin, __atomic_fetch_min, unsigned long long, S)     \
  __CUCPU_ATOMIC_RMW(atomicMax, __atomic_fetch_max, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicMax, __atomic_fetch_max, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicMax, __atomic_fetch_max, long long, S)              \
  __CUCPU_ATOMIC_RMW(atomicMax, __atomic_fetch_max, unsigned long long, S)     \
  __CUCPU_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicAnd, __atomic_fetch_and, unsigned long long, S)     \
  __CUCPU_ATOMIC_RMW(atomicOr, __atomic_fetch_or, int, S)                      \
  __CUCPU_ATOMIC_RMW(atomicOr, __atomic_fetch_or, unsigned int, S)             \
  __CUCPU_ATOMIC_RMW(atomicOr, __atomic_fetch_or, unsigned long long, S)       \
  __CUCPU_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, int, S)                    \
  __CUCPU_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, unsigned int, S)           \
  __CUCPU_ATOMIC_RMW(atomicXor, __atomic_fetch_xor, unsigned long long, S)     \
  __CUCPU_ATOMIC_EXCH(int, S)                                                  \
  __CUCPU_ATOMIC_EXCH(unsigned int, S)                                         \
  __CUCPU_ATOMIC_EXCH(unsigned long long, S)                                   \
  __CUCPU_ATOMIC_EXCH(float, S)                                                \
  __CUCPU_ATOMIC_CAS(int, S)                                                   \
  __CUCPU_ATOMIC_CAS(unsigned int, S)                                          \
  __CUCPU_ATOMIC_CAS(unsigned long long, S)                                    \
  __CUCPU_ATOMIC_CAS(unsigned short, S)                                        \
  /* ((old >= val) ? 0 : (old + 1)) */                                         \
  __CUCPU_ATOMIC_FN unsigned int atomicInc##S(unsigned int *Address,           \
                                              unsigned int Val) {              \
    return __nvvm_atom_inc_gen_ui(Address, Val);                               \
  }                                                                            \
  /* (((old == 0) || (old > val)) ? val : (old - 1)) */                        \
  __CUCPU_ATOMIC_FN unsigned int atomicDec##S(unsigned int *Address,           \
                                              unsigned int Val) {              \
    return __nvvm_atom_dec_gen_ui(Address, Val);                               \
  }

__CUCPU_ATOMIC_SCOPE()
__CUCPU_ATOMIC_SCOPE(_block)
__CUCPU_ATOMIC_SCOPE(_system)

#undef __CUCPU_ATOMIC_SCOPE
#undef __CUCPU_ATOMIC_EXCH
#undef __CUCPU_ATOMIC_CAS
#undef __CUCPU_ATOMIC_RMW
#undef __CUCPU_ATOMIC_FN

#endif // CUCPU_DEVICE_DETAIL_ATOMICS_H

//===- detail/asm_replacements.h - Functions clang writes in PTX ----------===//
//
// clang's CUDA headers define __trap, __brkpt, __prof_trigger and the funnel
// shifts with inline PTX assembly, which the CPU JIT cannot run. prelude.h
// renames clang's versions away; these are the same functions in plain C++ or
// LLVM builtins. Part of the prelude.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_ASM_REPLACEMENTS_H
#define CUCPU_DEVICE_DETAIL_ASM_REPLACEMENTS_H

/// Aborts the kernel: the launch fails (IR: llvm.trap).
static __device__ __forceinline__ void __trap(void) { __builtin_trap(); }
/// A breakpoint; with no debugger attached it stops the kernel like __trap.
static __device__ __forceinline__ void __brkpt() { __builtin_trap(); }
/// The numbered form of __brkpt.
static __device__ __forceinline__ void __brkpt(int) { __builtin_trap(); }

#undef __prof_trigger
/// Profiler counters do not exist on the CPU.
#define __prof_trigger(Counter) ((void)(Counter))

/// The high 32 bits of (Hi:Lo) << (Shift & 31).
static __device__ __forceinline__ unsigned int
__funnelshift_l(unsigned int Lo, unsigned int Hi, unsigned int Shift) {
  unsigned long long V = ((unsigned long long)Hi << 32) | Lo;
  return (unsigned int)((V << (Shift & 31)) >> 32);
}
/// The high 32 bits of (Hi:Lo) << min(Shift, 32).
static __device__ __forceinline__ unsigned int
__funnelshift_lc(unsigned int Lo, unsigned int Hi, unsigned int Shift) {
  unsigned long long V = ((unsigned long long)Hi << 32) | Lo;
  return (unsigned int)((V << (Shift < 32 ? Shift : 32)) >> 32);
}
/// The low 32 bits of (Hi:Lo) >> (Shift & 31).
static __device__ __forceinline__ unsigned int
__funnelshift_r(unsigned int Lo, unsigned int Hi, unsigned int Shift) {
  unsigned long long V = ((unsigned long long)Hi << 32) | Lo;
  return (unsigned int)(V >> (Shift & 31));
}
/// The low 32 bits of (Hi:Lo) >> min(Shift, 32).
static __device__ __forceinline__ unsigned int
__funnelshift_rc(unsigned int Lo, unsigned int Hi, unsigned int Shift) {
  unsigned long long V = ((unsigned long long)Hi << 32) | Lo;
  return (unsigned int)(V >> (Shift < 32 ? Shift : 32));
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// The warp reductions (CUDA C++ Programming Guide, "Warp Reduce
// Functions"): the builtins take the value first, then the mask, as PTX's
// redux.sync does.
static __device__ __forceinline__ unsigned __reduce_add_sync(unsigned Mask,
                                                             unsigned Value) {
  return __nvvm_redux_sync_add(Value, Mask);
}
static __device__ __forceinline__ unsigned __reduce_min_sync(unsigned Mask,
                                                             unsigned Value) {
  return __nvvm_redux_sync_umin(Value, Mask);
}
static __device__ __forceinline__ unsigned __reduce_max_sync(unsigned Mask,
                                                             unsigned Value) {
  return __nvvm_redux_sync_umax(Value, Mask);
}
static __device__ __forceinline__ int __reduce_min_sync(unsigned Mask,
                                                        int Value) {
  return __nvvm_redux_sync_min(Value, Mask);
}
static __device__ __forceinline__ int __reduce_max_sync(unsigned Mask,
                                                        int Value) {
  return __nvvm_redux_sync_max(Value, Mask);
}
static __device__ __forceinline__ unsigned __reduce_or_sync(unsigned Mask,
                                                            unsigned Value) {
  return __nvvm_redux_sync_or(Value, Mask);
}
static __device__ __forceinline__ unsigned __reduce_and_sync(unsigned Mask,
                                                             unsigned Value) {
  return __nvvm_redux_sync_and(Value, Mask);
}
static __device__ __forceinline__ unsigned __reduce_xor_sync(unsigned Mask,
                                                             unsigned Value) {
  return __nvvm_redux_sync_xor(Value, Mask);
}
#endif

#endif // CUCPU_DEVICE_DETAIL_ASM_REPLACEMENTS_H

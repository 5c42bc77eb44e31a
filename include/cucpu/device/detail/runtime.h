//===- detail/runtime.h - printf, assert, malloc and clocks -----*- C++ -*-===//
//
// The device-side system calls of CUDA (PTX Writer's Guide to
// Interoperability, "System Calls"): vprintf, malloc, free and __assertfail,
// which the CPU runtime defines, plus the printf, assert and clock functions
// built on them (clock() and clock64() come from clang's
// __clang_cuda_device_functions.h). Part of the prelude.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_RUNTIME_H
#define CUCPU_DEVICE_DETAIL_RUNTIME_H

extern "C" {
/// Formatted output: clang rewrites every device printf call into a call of
/// vprintf(format, buffer of the promoted arguments).
__device__ int printf(const char *Format, ...);
/// The system call device printf becomes.
__device__ int vprintf(const char *Format, const char *Args);
/// Device heap allocation.
__device__ void *malloc(size_t Size) __attribute__((nothrow, malloc));
/// Frees device heap memory.
__device__ void free(void *Ptr) __attribute__((nothrow));
/// A failed device assertion: the launch fails with CUDA_ERROR_ASSERT. Not
/// noreturn, as in NVIDIA's headers.
__device__ void __assertfail(const char *Message, const char *File,
                             unsigned Line, const char *Function,
                             size_t CharSize);
/// What glibc's assert() macro calls on failure.
__device__ static __inline__ void __assert_fail(const char *Message,
                                                const char *File, unsigned Line,
                                                const char *Function) {
  __assertfail(Message, File, Line, Function, sizeof(char));
}
} // extern "C"

namespace std {
/// std::malloc on the device.
__device__ static __inline__ void *malloc(size_t Size) {
  return ::malloc(Size);
}
/// std::free on the device.
__device__ static __inline__ void free(void *Ptr) { ::free(Ptr); }
} // namespace std

#ifdef __CUDA_ARCH__
// What a pure or deleted virtual function's vtable slot names; nvcc's device
// runtime defines both (cuda-samples' newdelete has an abstract class in
// device code). Weak, so that every module may carry them; device pass only,
// since the host has libstdc++'s.
extern "C" __device__ __attribute__((weak, noinline)) void
__cxa_pure_virtual(void) {
  __builtin_trap();
}
extern "C" __device__ __attribute__((weak, noinline)) void
__cxa_deleted_virtual(void) {
  __builtin_trap();
}
#endif

#endif // CUCPU_DEVICE_DETAIL_RUNTIME_H

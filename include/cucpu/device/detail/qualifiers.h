//===- detail/qualifiers.h - CUDA qualifiers and compiler macros ----------===//
//
// The execution- and memory-space specifiers of CUDA C++ as clang spells
// them, and the macros nvcc defines for every CUDA compilation. Part of the
// prelude that cucc force-includes (prelude.h); not meant to be included
// directly.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_QUALIFIERS_H
#define CUCPU_DEVICE_DETAIL_QUALIFIERS_H

/// nvcc defines __CUDACC__ for every CUDA compilation; libstdc++ also checks it
/// to stay away from __float128, which NVPTX does not have.
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif

/// The CUDA version whose language cucc accepts (the driver's cuda.h reports
/// the same, CUDA_VERSION 13000).
#define __CUDACC_VER_MAJOR__ 13
/// Minor part of the CUDA version cucc accepts.
#define __CUDACC_VER_MINOR__ 0
/// Build part of the CUDA version cucc accepts.
#define __CUDACC_VER_BUILD__ 0
/// Lets code tell cucc apart from nvcc where it must.
#define __CUCPU__ 1

/// A kernel: callable from the host, runs on the device.
#define __global__ __attribute__((global))
/// A device function, or a module-scope variable in global memory.
#define __device__ __attribute__((device))
/// A host function; with __device__, a function compiled for both sides.
#define __host__ __attribute__((host))
/// A variable shared by the threads of a block (address space 3).
#define __shared__ __attribute__((shared))
/// A module-scope variable in constant memory (address space 4).
#define __constant__ __attribute__((constant))
/// Managed memory: clang's NVPTX target ignores the `managed` attribute, and on
/// cucpu device memory is host memory anyway, so in device code a managed
/// variable is a __device__ variable. The annotation marks it for cucc's
/// host pass, which sends host code's accesses to the device's storage
/// (docs/cucc.md, Managed variables).
#define __managed__                                                            \
  __attribute__((device)) __attribute__((annotate("cucpu.managed")))
/// Occupancy hints; clang records the maximum threads per block as the
/// `maxntidx` NVVM annotation.
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
/// A kernel parameter that stays in the parameter buffer (its address is
/// valid in the kernel). Every parameter of a cucpu kernel lives in its
/// launch's parameter buffer, so this adds nothing; clang 19 would warn that
/// it ignores `grid_constant` where nvcc says nothing.
#define __grid_constant__
/// Always inline (clang spells __noinline__ itself: it is a keyword in CUDA
/// mode, and a macro would break libstdc++'s __attribute__((__noinline__))).
#define __forceinline__ __inline__ __attribute__((always_inline))
/// Alignment as CUDA's headers spell it.
#define __align__(N) __attribute__((aligned(N)))
/// Alignment of the built-in vector types.
#define __builtin_align__(N) __align__(N)
/// Marks NVIDIA's built-in types and functions; nothing for clang.
#define __device_builtin__
/// Marks CUDA runtime functions available on the device; nothing for clang.
#define __cudart_builtin__
/// Storage class used by some NVIDIA headers for device functions.
#define __CUDA_DEVICE_INLINE__ static __device__ __forceinline__

#endif // CUCPU_DEVICE_DETAIL_QUALIFIERS_H

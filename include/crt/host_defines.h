/*
 * crt/host_defines.h - CUDA's function and variable qualifiers for a host
 * compiler.
 *
 * cucpu's own text. With gcc, clang or any other host compiler the CUDA
 * execution- and memory-space qualifiers (__host__, __device__, __global__,
 * __shared__, __constant__, __managed__, ...) expand to nothing, so that
 * headers written for nvcc can be read by the host compiler; __align__ and
 * __builtin_align__ give NVIDIA's alignments.
 *
 * Each macro is defined only if it is not defined yet. cucc's kernel prelude
 * (include/cucpu/device/prelude.h) defines the qualifiers as clang's CUDA
 * attributes before any kernel source is read, so kernel code that includes
 * this header keeps the prelude's meaning.
 */
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__

#if defined(__GNUC__) || defined(__clang__)
#ifndef __align__
/// Aligns a type or variable to n bytes.
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __forceinline__
/// Always inline the function.
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#ifndef __no_return__
/// The function does not return.
#define __no_return__ __attribute__((noreturn))
#endif
#ifndef __thread__
/// Thread-local storage.
#define __thread__ __thread
#endif
#else
#ifndef __align__
/// Alignment is not expressible for this compiler.
#define __align__(n)
#endif
#ifndef __forceinline__
/// Inline the function.
#define __forceinline__ inline
#endif
#ifndef __no_return__
/// The function does not return (not expressible for this compiler).
#define __no_return__
#endif
#endif

#ifndef __builtin_align__
/// Alignment of CUDA's built-in vector types.
#define __builtin_align__(a) __align__(a)
#endif

#ifndef CUDARTAPI
/// Calling convention of CUDA runtime API functions (platform default).
#define CUDARTAPI
#endif
#ifndef CUDARTAPI_CDECL
/// Calling convention of the runtime's C-declared callbacks.
#define CUDARTAPI_CDECL
#endif

/* Storage classes that only matter on Windows. */
#ifndef __import__
/// Imports a symbol from a DLL (nothing here).
#define __import__
#endif
#ifndef __export__
/// Exports a symbol from a DLL (nothing here).
#define __export__
#endif
#if !defined(_WIN32) && !defined(__cdecl)
/// The C calling convention (the only one on this platform).
#define __cdecl
#endif

/* The CUDA qualifiers: nothing for a host compiler. */
#ifndef __annotate__
/// Attaches an annotation that only nvcc reads.
#define __annotate__(a)
#endif
#ifndef __location__
/// Marks the memory or execution space that only nvcc reads.
#define __location__(a) __annotate__(a)
#endif
#ifndef __host__
/// A function compiled for the host.
#define __host__
#endif
#ifndef __device__
/// A function or variable of the device.
#define __device__
#endif
#ifndef __global__
/// A kernel.
#define __global__
#endif
#ifndef __shared__
/// A variable in a block's shared memory.
#define __shared__
#endif
#ifndef __constant__
/// A variable in constant memory.
#define __constant__
#endif
#ifndef __managed__
/// A variable in managed memory.
#define __managed__
#endif
#ifndef __grid_constant__
/// A kernel parameter kept in the parameter buffer.
#define __grid_constant__
#endif
#ifndef __nv_pure__
/// A function without side effects (nvcc only).
#define __nv_pure__
#endif
#ifndef __tile__
/// Tile-programming qualifier (nvcc only).
#define __tile__
#endif
#ifndef __tile_global__
/// Tile-programming kernel qualifier (nvcc only).
#define __tile_global__
#endif
#ifndef __tile_builtin__
/// Tile-programming built-in qualifier (nvcc only).
#define __tile_builtin__
#endif
#ifndef __device_builtin__
/// Marks CUDA's built-in types and functions (nvcc only).
#define __device_builtin__
#endif
#ifndef __device_builtin_texture_type__
/// Marks the built-in texture reference type (nvcc only).
#define __device_builtin_texture_type__
#endif
#ifndef __device_builtin_surface_type__
/// Marks the built-in surface reference type (nvcc only).
#define __device_builtin_surface_type__
#endif
#ifndef __cudart_builtin__
/// Marks runtime functions that device code may call (nvcc only).
#define __cudart_builtin__
#endif
#ifndef __specialization_static
/// Storage class of explicit template specializations (nothing here).
#define __specialization_static
#endif

#if !defined(__launch_bounds__) &&                                             \
    (!defined(__cplusplus) || __cplusplus >= 201103L)
/// Occupancy hints of a kernel (nvcc only).
#define __launch_bounds__(...)
#endif

#ifndef __CUDA_ARCH_HAS_FEATURE__
/// Whether the target architecture has a feature: never on the host.
#define __CUDA_ARCH_HAS_FEATURE__(_FEAT) __CUDA_ARCH_FEAT_##_FEAT
#endif
#ifndef __CUDA_HAS_ARCH_FAMILY_SPECIFIC
/// Whether code is compiled for an architecture family: not on the host.
#define __CUDA_HAS_ARCH_FAMILY_SPECIFIC(N) 0
#endif
#ifndef __CUDA_HAS_ARCH_SPECIFIC
/// Whether code is compiled for one architecture: not on the host.
#define __CUDA_HAS_ARCH_SPECIFIC(N) 0
#endif

#endif /* __HOST_DEFINES_H__ */

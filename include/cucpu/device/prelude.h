//===- prelude.h - What cucc puts in front of every kernel source ---------===//
//
// cucc force-includes this file (clang -include) so that a kernel file written
// for nvcc compiles unchanged, with no #include: qualifiers, built-in
// variables, vector types and dim3, the math library and intrinsics, atomics,
// barriers and fences, warp functions, clocks, __ldg, printf, assert and
// textures.
//
// Most of it comes from clang's own CUDA headers in its resource directory,
// included in the order clang's __clang_cuda_runtime_wrapper.h uses, which
// express everything with libdevice `__nv_*` functions and NVVM builtins so
// that the IR stays NVVM-style. What those headers normally take from the
// CUDA SDK (qualifiers, vector types, atomics, printf/assert declarations,
// crt/sm_70_rt.hpp) cucc provides in detail/ and sdk/. docs/cucc.md lists the
// external functions the resulting IR can call.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_PRELUDE_H
#define CUCPU_DEVICE_PRELUDE_H

#if !defined(__CUDA__) || !defined(__clang__)
#error "cucpu/device/prelude.h is for clang's CUDA device compilation (cucc)."
#endif
#if __clang_major__ < 19
#error "cucc's device headers need clang 19 or newer."
#endif

#include "detail/qualifiers.h"

// clang's headers choose their CUDA 9+ forms from CUDA_VERSION, which the SDK's
// cuda.h would define; define it only while they are read.
#pragma push_macro("CUDA_VERSION")
#undef CUDA_VERSION
#define CUDA_VERSION 13000

// Device overloads of the <cmath> functions must be declared before <cmath>.
#include <__clang_cuda_math_forward_declares.h>

// nvcc's headers include these standard headers for every CUDA compilation,
// so kernels may use their names without an #include.
#include <assert.h>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "detail/vector_types.h"

#include <__clang_cuda_builtin_vars.h>

// The conversions that __clang_cuda_builtin_vars.h declares and leaves to the
// SDK: threadIdx, blockIdx, blockDim and gridDim as uint3 or dim3.
#define __CUCPU_BUILTIN_CONVERSIONS(T)                                         \
  __device__ inline T::operator dim3() const { return dim3(x, y, z); }         \
  __device__ inline T::operator uint3() const { return uint3{x, y, z}; }
__CUCPU_BUILTIN_CONVERSIONS(__cuda_builtin_threadIdx_t)
__CUCPU_BUILTIN_CONVERSIONS(__cuda_builtin_blockIdx_t)
__CUCPU_BUILTIN_CONVERSIONS(__cuda_builtin_blockDim_t)
__CUCPU_BUILTIN_CONVERSIONS(__cuda_builtin_gridDim_t)
#undef __CUCPU_BUILTIN_CONVERSIONS

/// Defined by the SDK's cuda.h (as uint32_t) and used by clang's intrinsics.
typedef unsigned int cuuint32_t;

// clang writes a few functions as inline PTX assembly, which cannot run on
// the CPU: __trap and __brkpt (device_functions), the funnel shifts
// (intrinsics) and, for CUDA_VERSION >= 9020, the SIMD video functions
// (__vadd2, ...). Those two headers are read with CUDA_VERSION 9000 so that
// the SIMD functions call libdevice's __nv_v* instead, and the asm functions
// are renamed out of the way and defined again in detail/asm_replacements.h.
#pragma push_macro("__trap")
#pragma push_macro("__brkpt")
#define __trap __cucpu_clang_asm_trap
#define __brkpt __cucpu_clang_asm_brkpt
#undef CUDA_VERSION
#define CUDA_VERSION 9000
// The libdevice declarations first: the device functions call them.
#include <__clang_cuda_libdevice_declares.h>

#include <__clang_cuda_device_functions.h>
#undef CUDA_VERSION
#define CUDA_VERSION 13000
#pragma pop_macro("__brkpt")
#pragma pop_macro("__trap")
#include <__clang_cuda_math.h>

#include "detail/address_spaces.h"
#include "detail/atomics.h"
#include "detail/math_extras.h"
#include "detail/math_overloads.h"
#include "detail/runtime.h"
#include "detail/textures.h"
// After the textures: surfaces use their __cucpu_texref_type.
#include "detail/surfaces.h"

#include <__clang_cuda_cmath.h>
#pragma push_macro("__funnelshift_l")
#pragma push_macro("__funnelshift_lc")
#pragma push_macro("__funnelshift_r")
#pragma push_macro("__funnelshift_rc")
#define __funnelshift_l __cucpu_clang_asm_funnelshift_l
#define __funnelshift_lc __cucpu_clang_asm_funnelshift_lc
#define __funnelshift_r __cucpu_clang_asm_funnelshift_r
#define __funnelshift_rc __cucpu_clang_asm_funnelshift_rc
// clang 19's __reduce_*_sync pass (mask, value) to redux.sync builtins that
// take (value, mask): renamed away and defined again in
// detail/asm_replacements.h.
#pragma push_macro("__reduce_add_sync")
#pragma push_macro("__reduce_min_sync")
#pragma push_macro("__reduce_max_sync")
#pragma push_macro("__reduce_or_sync")
#pragma push_macro("__reduce_and_sync")
#pragma push_macro("__reduce_xor_sync")
#define __reduce_add_sync __cucpu_clang_reduce_add_sync
#define __reduce_min_sync __cucpu_clang_reduce_min_sync
#define __reduce_max_sync __cucpu_clang_reduce_max_sync
#define __reduce_or_sync __cucpu_clang_reduce_or_sync
#define __reduce_and_sync __cucpu_clang_reduce_and_sync
#define __reduce_xor_sync __cucpu_clang_reduce_xor_sync
#include <__clang_cuda_intrinsics.h>
#pragma pop_macro("__reduce_xor_sync")
#pragma pop_macro("__reduce_and_sync")
#pragma pop_macro("__reduce_or_sync")
#pragma pop_macro("__reduce_max_sync")
#pragma pop_macro("__reduce_min_sync")
#pragma pop_macro("__reduce_add_sync")
#pragma pop_macro("__funnelshift_rc")
#pragma pop_macro("__funnelshift_r")
#pragma pop_macro("__funnelshift_lc")
#pragma pop_macro("__funnelshift_l")
#include "detail/asm_replacements.h"
#include <__clang_cuda_complex_builtins.h>

#pragma pop_macro("CUDA_VERSION")

#endif // CUCPU_DEVICE_PRELUDE_H

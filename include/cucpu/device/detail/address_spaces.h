//===- detail/address_spaces.h - Address-space tests, cvta ------*- C++ -*-===//
//
// CUDA's __isGlobal/__isShared/__isConstant/__isLocal/__isGridConstant and
// the __cvta_* conversions (sm_20_intrinsics.h). clang's own headers use some
// of them (sm_90's __isCtaShared, __cluster_map_shared_multicast) and leave
// them to the SDK. Part of the prelude.
//
// On cucpu every kind of device memory is ordinary host memory in one flat
// address space: a generic address is valid in every space, so each predicate
// is true and each conversion keeps the address unchanged (a shared "window"
// address is the full 64-bit address, and converting it back gives the same
// pointer). docs/conformance.md lists this.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_ADDRESS_SPACES_H
#define CUCPU_DEVICE_DETAIL_ADDRESS_SPACES_H

#define __CUCPU_SPACE_FN static __device__ __forceinline__

#define __CUCPU_SPACE(Space)                                                   \
  __CUCPU_SPACE_FN unsigned int __is##Space(const void *) { return 1; }
__CUCPU_SPACE(Global)
__CUCPU_SPACE(Shared)
__CUCPU_SPACE(Constant)
__CUCPU_SPACE(Local)
__CUCPU_SPACE(GridConstant)
#undef __CUCPU_SPACE

#define __CUCPU_CVTA(Space)                                                    \
  __CUCPU_SPACE_FN size_t __cvta_generic_to_##Space(const void *Ptr) {         \
    return (size_t)Ptr;                                                        \
  }                                                                            \
  __CUCPU_SPACE_FN void *__cvta_##Space##_to_generic(size_t RawBits) {         \
    return (void *)RawBits;                                                    \
  }
__CUCPU_CVTA(global)
__CUCPU_CVTA(shared)
__CUCPU_CVTA(constant)
__CUCPU_CVTA(local)
__CUCPU_CVTA(grid_constant)
#undef __CUCPU_CVTA

#undef __CUCPU_SPACE_FN

#endif // CUCPU_DEVICE_DETAIL_ADDRESS_SPACES_H

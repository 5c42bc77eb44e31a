//===- sdk/sm_30_intrinsics.h - Stub ----------------------------*- C++ -*-===//
//
// The CUDA toolkit's <sm_30_intrinsics.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SM_30_INTRINSICS_H
#define CUCPU_DEVICE_SDK_SM_30_INTRINSICS_H
#endif

//===- sdk/sm_61_intrinsics.hpp - Stub --------------------------*- C++ -*-===//
//
// The CUDA toolkit's <sm_61_intrinsics.hpp>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SM_61_INTRINSICS_HPP
#define CUCPU_DEVICE_SDK_SM_61_INTRINSICS_HPP
#endif

//===- sdk/sm_20_intrinsics.hpp - Stub --------------------------*- C++ -*-===//
//
// The CUDA toolkit's <sm_20_intrinsics.hpp>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SM_20_INTRINSICS_HPP
#define CUCPU_DEVICE_SDK_SM_20_INTRINSICS_HPP
#endif

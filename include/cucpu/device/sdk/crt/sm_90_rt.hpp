//===- sdk/crt/sm_90_rt.hpp - Stub ------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/sm_90_rt.hpp>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_SM_90_RT_HPP
#define CUCPU_DEVICE_SDK_CRT_SM_90_RT_HPP
#endif

//===- sdk/crt/math_functions.hpp - Stub ------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/math_functions.hpp>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_MATH_FUNCTIONS_HPP
#define CUCPU_DEVICE_SDK_CRT_MATH_FUNCTIONS_HPP
#endif

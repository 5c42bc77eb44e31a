//===- sdk/crt/device_functions.hpp - Stub ----------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/device_functions.hpp>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_DEVICE_FUNCTIONS_HPP
#define CUCPU_DEVICE_SDK_CRT_DEVICE_FUNCTIONS_HPP
#endif

//===- sdk/crt/common_functions.h - Stub ------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/common_functions.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_COMMON_FUNCTIONS_H
#define CUCPU_DEVICE_SDK_CRT_COMMON_FUNCTIONS_H
#endif

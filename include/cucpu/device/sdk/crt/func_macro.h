//===- sdk/crt/func_macro.h - Stub ------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/func_macro.h>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_FUNC_MACRO_H
#define CUCPU_DEVICE_SDK_CRT_FUNC_MACRO_H
#endif

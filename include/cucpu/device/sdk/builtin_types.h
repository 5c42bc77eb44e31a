//===- sdk/builtin_types.h - Stub -------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <builtin_types.h>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_BUILTIN_TYPES_H
#define CUCPU_DEVICE_SDK_BUILTIN_TYPES_H
#endif

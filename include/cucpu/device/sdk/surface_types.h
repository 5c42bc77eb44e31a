//===- sdk/surface_types.h - Stub -------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <surface_types.h>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SURFACE_TYPES_H
#define CUCPU_DEVICE_SDK_SURFACE_TYPES_H
#endif

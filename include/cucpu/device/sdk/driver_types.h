//===- sdk/driver_types.h - Stub --------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <driver_types.h>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_DRIVER_TYPES_H
#define CUCPU_DEVICE_SDK_DRIVER_TYPES_H
#endif

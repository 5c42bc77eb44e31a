//===- sdk/host_defines.h - Stub --------------------------------*- C++ -*-===//
//
// The CUDA toolkit's <host_defines.h>, which kernels written for nvcc include
// by name. cucc force-includes its device content (cucpu/device/prelude.h), so
// this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_HOST_DEFINES_H
#define CUCPU_DEVICE_SDK_HOST_DEFINES_H
#endif

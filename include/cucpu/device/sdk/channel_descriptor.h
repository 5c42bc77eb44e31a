//===- sdk/channel_descriptor.h - Stub --------------------------*- C++ -*-===//
//
// The CUDA toolkit's <channel_descriptor.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CHANNEL_DESCRIPTOR_H
#define CUCPU_DEVICE_SDK_CHANNEL_DESCRIPTOR_H
#endif

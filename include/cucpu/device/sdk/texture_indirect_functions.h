//===- sdk/texture_indirect_functions.h - Stub ------------------*- C++ -*-===//
//
// The CUDA toolkit's <texture_indirect_functions.h>, which kernels written for
// nvcc include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_TEXTURE_INDIRECT_FUNCTIONS_H
#define CUCPU_DEVICE_SDK_TEXTURE_INDIRECT_FUNCTIONS_H
#endif

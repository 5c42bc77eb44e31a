//===- sdk/crt/storage_class.h - Stub ---------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/storage_class.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_STORAGE_CLASS_H
#define CUCPU_DEVICE_SDK_CRT_STORAGE_CLASS_H
#endif

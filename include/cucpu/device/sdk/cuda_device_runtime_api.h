//===- sdk/cuda_device_runtime_api.h - Stub ---------------------*- C++ -*-===//
//
// The CUDA toolkit's <cuda_device_runtime_api.h>, which kernels written for
// nvcc include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CUDA_DEVICE_RUNTIME_API_H
#define CUCPU_DEVICE_SDK_CUDA_DEVICE_RUNTIME_API_H
#endif

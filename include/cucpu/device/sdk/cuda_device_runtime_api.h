//===- sdk/cuda_device_runtime_api.h - Forwarding header --------*- C++ -*-===//
//
// The CUDA toolkit's <cuda_device_runtime_api.h>, which kernels written for
// nvcc include by name: this header brings cucpu's own version from include/
// (the device runtime's declarations). Without include/ on the search path
// it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CUDA_DEVICE_RUNTIME_API_H
#define CUCPU_DEVICE_SDK_CUDA_DEVICE_RUNTIME_API_H
#if __has_include_next(<cuda_device_runtime_api.h>)
#include_next <cuda_device_runtime_api.h>
#endif
#endif

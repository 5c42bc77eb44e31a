//===- sdk/cuda_runtime.h - Compatibility stub for nvcc sources ------*- C++ -*-===//
//
// Kernels written for nvcc often include <cuda_runtime.h>. cucc force-includes
// everything it provides (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CUDA_RUNTIME_H
#define CUCPU_DEVICE_SDK_CUDA_RUNTIME_H
#endif

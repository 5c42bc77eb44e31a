//===- sdk/vector_types.h - Compatibility stub for nvcc sources ------*- C++ -*-===//
//
// Kernels written for nvcc often include <vector_types.h>. cucc force-includes
// everything it provides (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_VECTOR_TYPES_H
#define CUCPU_DEVICE_SDK_VECTOR_TYPES_H
#endif

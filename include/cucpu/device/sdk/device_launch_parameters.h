//===- sdk/device_launch_parameters.h - Compatibility stub for nvcc sources ------*- C++ -*-===//
//
// Kernels written for nvcc often include <device_launch_parameters.h>. cucc force-includes
// everything it provides (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_DEVICE_LAUNCH_PARAMETERS_H
#define CUCPU_DEVICE_SDK_DEVICE_LAUNCH_PARAMETERS_H
#endif

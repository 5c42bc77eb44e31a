//===- sdk/sm_20_atomic_functions.h - Compatibility stub for nvcc sources -===//
//
// Kernels written for nvcc often include <sm_20_atomic_functions.h>. cucc
// force-includes everything it provides (cucpu/device/prelude.h), so this
// header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SM_20_ATOMIC_FUNCTIONS_H
#define CUCPU_DEVICE_SDK_SM_20_ATOMIC_FUNCTIONS_H
#endif

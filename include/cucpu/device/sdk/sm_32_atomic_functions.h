//===- sdk/sm_32_atomic_functions.h - Stub ----------------------*- C++ -*-===//
//
// The CUDA toolkit's <sm_32_atomic_functions.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_SM_32_ATOMIC_FUNCTIONS_H
#define CUCPU_DEVICE_SDK_SM_32_ATOMIC_FUNCTIONS_H
#endif

//===- sdk/host_config.h - Forwarding header --------------------*- C++ -*-===//
//
// The CUDA toolkit's <host_config.h>, which programs written for nvcc include
// by name. cucc's device and host passes both read a .cu file's host code, so
// both need the runtime API's declarations: this header brings cucpu's own
// version from include/, which leaves out what cucc's prelude already defines
// (__CUCPU__). Without include/ on the search path it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_HOST_CONFIG_H
#define CUCPU_DEVICE_SDK_HOST_CONFIG_H
#if __has_include_next(<host_config.h>)
#include_next <host_config.h>
#endif
#endif

//===- sdk/device_launch_parameters.h - Forwarding header -------*- C++ -*-===//
//
// The CUDA toolkit's <device_launch_parameters.h>, which programs written for
// nvcc include by name. cucc's device and host passes both read a .cu file's
// host code, so both need the runtime API's declarations: this header brings
// cucpu's own version from include/, which leaves out what cucc's prelude
// already defines
// (__CUCPU__). Without include/ on the search path it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_DEVICE_LAUNCH_PARAMETERS_H
#define CUCPU_DEVICE_SDK_DEVICE_LAUNCH_PARAMETERS_H
#if __has_include_next(<device_launch_parameters.h>)
#include_next <device_launch_parameters.h>
#endif
#endif

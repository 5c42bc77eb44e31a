//===- sdk/vector_functions.h - Forwarding header ---------------*- C++ -*-===//
//
// The CUDA toolkit's <vector_functions.h>, which programs written for nvcc
// include by name. cucc's device and host passes both read a .cu file's host
// code, so both need the runtime API's declarations: this header brings cucpu's
// own version from include/, which leaves out what cucc's prelude already
// defines
// (__CUCPU__). Without include/ on the search path it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_VECTOR_FUNCTIONS_H
#define CUCPU_DEVICE_SDK_VECTOR_FUNCTIONS_H
#if __has_include_next(<vector_functions.h>)
#include_next <vector_functions.h>
#endif
#endif

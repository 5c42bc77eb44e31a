//===- sdk/vector_functions.hpp - Forwarding header ---------------*- C++ -*-===//
//
// The CUDA toolkit's <vector_functions.hpp>, which programs written for nvcc include
// by name. cucc's device and host passes both read a .cu file's host code, so
// both need the runtime API's declarations: this header brings cucpu's own
// version from include/, which leaves out what cucc's prelude already defines
// (__CUCPU__). Without include/ on the search path it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_VECTOR_FUNCTIONS_HPP
#define CUCPU_DEVICE_SDK_VECTOR_FUNCTIONS_HPP
#if __has_include_next(<vector_functions.hpp>)
#include_next <vector_functions.hpp>
#endif
#endif

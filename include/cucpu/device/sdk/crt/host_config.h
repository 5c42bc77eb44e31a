//===- sdk/crt/host_config.h - Stub -----------------------------*- C++ -*-===//
//
// The CUDA toolkit's <crt/host_config.h>, which kernels written for nvcc
// include by name. cucc force-includes its device content
// (cucpu/device/prelude.h), so this header is empty.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CRT_HOST_CONFIG_H
#define CUCPU_DEVICE_SDK_CRT_HOST_CONFIG_H
#endif

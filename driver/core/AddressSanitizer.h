//===- AddressSanitizer.h - Whether AddressSanitizer is on ------*- C++ -*-===//
//
// Code that switches or abandons stacks tells AddressSanitizer about it:
// CUCPU_ASAN is defined, and its interface declared, when the build
// instruments for it (GCC's and clang's spellings).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ADDRESSSANITIZER_H
#define CUCPU_DRIVER_CORE_ADDRESSSANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define CUCPU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CUCPU_ASAN 1
#endif
#endif

#ifdef CUCPU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#endif // CUCPU_DRIVER_CORE_ADDRESSSANITIZER_H

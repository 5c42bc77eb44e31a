//===- NotSupported.cpp - Runtime functions cucpu does not serve ----------===//
//
// Every CUDART_TODO line of NotSupported.def becomes an exported function
// that records a message and returns cudaErrorNotSupported, so a program
// linked against any function of NVIDIA's runtime gets a clear error, never
// an unresolved symbol, a crash or a silent success.
//
// This file deliberately does not include cuda_runtime_api.h, whose
// prototypes would clash with these parameterless definitions. The
// parameters do not matter: in the x86-64 SysV and AArch64 calling
// conventions the caller owns its arguments, so a callee that ignores them
// is safe whatever was passed, and every listed function returns
// cudaError_t, an int-sized enum.
//
//===----------------------------------------------------------------------===//

namespace cucpu::rt {
/// Defined in Errors.cpp: records cudaErrorNotSupported for \p Name.
int notSupported(const char *Name);
} // namespace cucpu::rt

#define CUDART_TODO(Name)                                                      \
  extern "C" __attribute__((visibility("default"))) int Name() {               \
    return ::cucpu::rt::notSupported(#Name);                                   \
  }
#include "NotSupported.def"
#undef CUDART_TODO

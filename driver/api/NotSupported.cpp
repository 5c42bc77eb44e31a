//===- NotSupported.cpp - Exported names cucpu does not serve -------------===//
//
// Every CU_TODO and CU_LEGACY line of Exports.def becomes an exported function
// that records a message and returns CUDA_ERROR_NOT_SUPPORTED, so that a
// program imports every symbol of NVIDIA's libcuda.so.1 from us and gets a
// clear error, never a crash or a silent success.
//
// This file deliberately does not include cuda.h: its macros would rename
// the legacy names (cuMemAlloc -> cuMemAlloc_v2) and its prototypes would
// clash with these parameterless definitions. The parameters do not matter:
// in the x86-64 SysV and AArch64 calling conventions the caller owns its
// arguments, so a callee that ignores them is safe whatever was passed, and
// every cu* function returns CUresult, an int-sized enum.
//
//===----------------------------------------------------------------------===//

namespace cucpu::api {
// Defined in core/EntryPoint.cpp; declared here rather than through
// core/EntryPoint.h, which includes cuda.h (see above).
int notSupported(const char *Name, bool Legacy);
} // namespace cucpu::api

#define CUCPU_NOT_SUPPORTED(Name, Legacy)                                      \
  extern "C" __attribute__((visibility("default"))) int Name() {               \
    return ::cucpu::api::notSupported(#Name, Legacy);                          \
  }

#define CU_IMPL(Name)
#define CU_ALIAS(Name, Target)
#define CU_LEGACY(Name) CUCPU_NOT_SUPPORTED(Name, true)
#define CU_TODO(Name) CUCPU_NOT_SUPPORTED(Name, false)
#include "api/Exports.def"
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO

//===- Profiler.cpp - Profiler control entry points -----------------------===//
//
// No profiler attaches to a cucpu device; starting and stopping collection
// is accepted and has no effect, as with NVIDIA's driver when no profiler
// runs.
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "core/EntryPoint.h"

#include <cudaProfiler.h>

using namespace cucpu;

CUCPU_EXPORT CUresult CUDAAPI cuProfilerInitialize(const char *ConfigFile,
                                                   const char *OutputFile,
                                                   CUoutput_mode Mode) {
  return CU_ENTRY(ConfigFile, OutputFile, Mode).run([&]() -> llvm::Error {
    CU_INVALID_IF(Mode != CU_OUT_KEY_VALUE_PAIR && Mode != CU_OUT_CSV,
                  CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a valid profiler output mode.",
                  static_cast<int>(Mode));
    CU_TRY(current::require());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuProfilerStart() {
  return CU_ENTRY().run([&]() -> llvm::Error {
    CU_TRY(current::require());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuProfilerStop() {
  return CU_ENTRY().run([&]() -> llvm::Error {
    CU_TRY(current::require());
    return llvm::Error::success();
  });
}

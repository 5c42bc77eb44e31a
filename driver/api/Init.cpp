//===- Init.cpp - Initialization and version entry points -----------------===//
#include "core/EntryPoint.h"
#include "core/Platform.h"

using namespace cucpu;

/// The driver API version cucpu implements: the one its cuda.h describes.
static constexpr int DriverVersion = CUDA_VERSION;

CUCPU_EXPORT CUresult CUDAAPI cuInit(unsigned int Flags) {
  return CU_ENTRY(Flags).runBeforeInit(
      [&]() -> llvm::Error { return Platform::get().initialize(Flags); });
}

CUCPU_EXPORT CUresult CUDAAPI cuDriverGetVersion(int *Version) {
  return CU_ENTRY(Version).runBeforeInit([&]() -> llvm::Error {
    CU_INVALID_IF(!Version, CUDA_ERROR_INVALID_VALUE,
                  "The version pointer is NULL.");
    *Version = DriverVersion;
    return llvm::Error::success();
  });
}

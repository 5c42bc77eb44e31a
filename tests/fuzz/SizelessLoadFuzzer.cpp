//===- SizelessLoadFuzzer.cpp - Size-less module loads against a guard page
//-===//
//
// cuModuleLoadData, cuModuleLoadDataEx and cuModuleLoadFatBinary get a
// pointer and no size: the image's headers say how far to read. Each input
// is placed so that its last byte is followed by an inaccessible page, so
// reading one byte past it faults at once, and is loaded through those
// public entry points. Any crash, hang, leak or sanitizer report is a bug;
// an error code is the expected answer for all but valid images.
//
//===----------------------------------------------------------------------===//
#include "GuardedBuffer.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {
/// Creates the context every input is loaded into, once.
void makeContext() {
  static const bool Made = [] {
    // A private compute cache: what this harness tests ends before the
    // compiler, and most inputs that load are the seed images again.
    static const std::string Cache =
        (std::filesystem::temp_directory_path() / "cucpu-sizeless-fuzz-cache")
            .string();
    setenv("CUDA_CACHE_PATH", Cache.c_str(), 1);
    CUdevice Dev;
    CUcontext Ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&Dev, 0) != CUDA_SUCCESS ||
        cuCtxCreate(&Ctx, 0, Dev) != CUDA_SUCCESS)
      std::abort();
    return true;
  }();
  (void)Made;
}

/// Unloads the module \p Load made, if it made one; whether it did.
template <typename LoadFn> bool loadAndUnload(LoadFn Load) {
  CUmodule M = nullptr;
  if (Load(&M) != CUDA_SUCCESS)
    return false;
  if (cuModuleUnload(M) != CUDA_SUCCESS)
    std::abort();
  return true;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  makeContext();
  cucpu::test::GuardedBuffer Image(Data, Size);
  if (!Image)
    return 0;
  const void *Bytes = Image.data();
  // An image that loads is compiled once; the other entry points read the
  // same way and are tried with what the first one refused.
  if (loadAndUnload([&](CUmodule *M) { return cuModuleLoadData(M, Bytes); }))
    return 0;
  loadAndUnload([&](CUmodule *M) {
    return cuModuleLoadDataEx(M, Bytes, 0, nullptr, nullptr);
  });
  loadAndUnload([&](CUmodule *M) { return cuModuleLoadFatBinary(M, Bytes); });
  return 0;
}

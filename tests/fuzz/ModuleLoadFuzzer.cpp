//===- ModuleLoadFuzzer.cpp - libFuzzer harness for whole module loads ----===//
//
// Loads arbitrary bytes as a module, the way cuModuleLoadData does (image or
// fat binary, its LLVM IR parsed, verified, lowered and JIT-compiled), with
// the input's size known so that no read can leave the input; a module that
// loads is looked through (its kernels) and unloaded. Any crash, hang, leak
// or sanitizer report is a bug; errors are the expected answer.
//
//===----------------------------------------------------------------------===//
#include "core/Context.h"
#include "core/CurrentContext.h"
#include "core/Module.h"

#include "cucpu/loader/ImageKind.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
/// The context every input is loaded into (created once).
std::shared_ptr<cucpu::Context> fuzzContext() {
  static std::shared_ptr<cucpu::Context> Ctx = [] {
    // Every input is compiled afresh: a compute cache would fill with the
    // results of mutated images.
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    CUdevice Dev;
    CUcontext Handle;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&Dev, 0) != CUDA_SUCCESS ||
        cuCtxCreate(&Handle, 0, Dev) != CUDA_SUCCESS)
      std::abort();
    auto Current = cucpu::current::context();
    if (!Current)
      std::abort();
    return *Current;
  }();
  return Ctx;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Size 0 tells loadBytes that the size is unknown (cuModuleLoadData): the
  // image's own headers then say how far to read.
  if (Size == 0)
    return 0;
  // nvcc's fat-binary wrapper holds a pointer to the fat binary, which the
  // driver follows as NVIDIA's does: a pointer made of fuzzed bytes points
  // anywhere. The fat binaries themselves are fuzzed directly.
  std::string Why;
  if (cucpu::loader::classifyImage(Data, Size, Why) ==
      cucpu::loader::ImageKind::FatBinaryWrapper)
    return 0;
  std::shared_ptr<cucpu::Context> Ctx = fuzzContext();
  std::string Log;
  auto M = cucpu::Module::loadBytes(Ctx, Data, Size, &Log);
  if (!M) {
    llvm::consumeError(M.takeError());
    return 0;
  }
  (*M)->unload();
  return 0;
}

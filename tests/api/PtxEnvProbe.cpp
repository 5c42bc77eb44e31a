//===- PtxEnvProbe.cpp - Loads a module under CUDA_*_PTX_JIT
//---------------===//
//
// The second process of PtxLoadingTest.cpp's PtxJitEnvironment cases: the
// test starts it with CUDA_DISABLE_PTX_JIT or CUDA_FORCE_PTX_JIT set, since
// a driver reads them once. It loads one module and prints
//   result=<CUresult> jit=<1 if the info log says an entry was compiled>
//   ran=<1 if addOne then added one everywhere>
// Modes: ptx (PTX text), fatbin-ptx (a fat binary of PTX only), binary (the
// toolkit's cubin of kernels/async.cu), carried-ptx (PTX text followed by
// the cucpu image block of cucc's PTX of kernels/async.cu, when it has one:
// cucpu loads the image unless CUDA_FORCE_PTX_JIT=1).
//
//===----------------------------------------------------------------------===//
#include "PtxTestKernels.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace {
std::string readFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  return {std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>()};
}
} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    std::fprintf(stderr, "usage: %s ptx|fatbin-ptx|binary|carried-ptx\n",
                 Argv[0]);
    return 2;
  }
  std::string Mode = Argv[1];
  CUdevice Dev;
  CUcontext Ctx;
  if (cuInit(0) || cuDeviceGet(&Dev, 0) || cuCtxCreate(&Ctx, nullptr, 0, Dev)) {
    std::printf("setup failed\n");
    return 1;
  }
  std::string Bytes;
  std::vector<uint8_t> Fat;
  const void *Image = nullptr;
  if (Mode == "ptx") {
    Image = cuapi::ptx::AddOne;
  } else if (Mode == "fatbin-ptx") {
    Fat = cuapi::ptx::fatBinary({cuapi::ptx::ptxEntry(cuapi::ptx::AddOne, 50)});
    Image = Fat.data();
  } else if (Mode == "binary") {
    Bytes = readFile(CUCPU_API_ASYNC_MODULE);
    Image = Bytes.c_str();
  } else if (Mode == "carried-ptx") {
    std::string Toolkit = readFile(CUCPU_API_ASYNC_PTX);
    size_t Block = Toolkit.find("//cucpu-image-begin");
    Bytes = cuapi::ptx::AddOne;
    if (Block != std::string::npos)
      Bytes += Toolkit.substr(Block);
    Image = Bytes.c_str();
  } else {
    std::printf("unknown mode %s\n", Mode.c_str());
    return 2;
  }
  char Info[8192] = {};
  CUjit_option Options[] = {CU_JIT_INFO_LOG_BUFFER,
                            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_LOG_VERBOSE};
  void *Values[] = {Info, reinterpret_cast<void *>(sizeof(Info)),
                    reinterpret_cast<void *>(uintptr_t(1))};
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadDataEx(&Mod, Image, 3, Options, Values);
  bool Jit = std::strstr(Info, "Compiling entry function") != nullptr;
  bool Ran = false;
  if (R == CUDA_SUCCESS) {
    std::string Failure;
    std::vector<int> Out = cuapi::ptx::runOver100(Mod, "addOne", 41, Failure);
    Ran = !Out.empty();
    for (int V : Out)
      Ran = Ran && V == 42;
    cuModuleUnload(Mod);
  }
  std::printf("result=%d jit=%d ran=%d\n", int(R), Jit ? 1 : 0, Ran ? 1 : 0);
  cuCtxDestroy(Ctx);
  return 0;
}

//===- PtxModuleTest.cpp - Modules built as PTX by the toolkit's compiler -===//
//
// Programs that build their kernels with `nvcc -ptx` load the text with
// cuModuleLoad or cuModuleLoadData, and the driver JIT-compiles it. cucc's
// PTX also carries the module image compiled from the same source
// (loader/include/cucpu/loader/PtxImage.h), which cucpu loads instead. Kernels:
// kernels/async.cu.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace cuapi;

namespace {

using PtxModule = DriverTest;

std::string ptxText() {
  std::ifstream In(CUCPU_API_ASYNC_PTX, std::ios::binary);
  return {std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>()};
}

/// Runs addOne of \p Mod over 100 ints set to 41.
void expectAddOneWorks(CUmodule Mod) {
  CUfunction AddOne = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddOne, Mod, "addOne"));
  constexpr int N = 100;
  CUdeviceptr Data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Data, N * sizeof(int)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Data, 41, N));
  int Count = N;
  void *Params[] = {&Data, &Count};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(AddOne, 4, 1, 1, 32, 1, 1, 0, nullptr,
                                         Params, nullptr));
  std::vector<int> Host(N);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host.data(), Data, N * sizeof(int)));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Data));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(42, Host[I]) << "element " << I;
}

TEST_F(PtxModule, FileLoadsAndRuns) {
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, CUCPU_API_ASYNC_PTX));
  expectAddOneWorks(Mod);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxModule, TextLoadsAndRuns) {
  std::string Ptx = ptxText();
  ASSERT_NE(std::string::npos, Ptx.find(".entry")) << "setup: PTX text";
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Ptx.c_str()));
  expectAddOneWorks(Mod);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxModule, PtxWithoutTheImageIsJitCompiled) {
  std::string Ptx = ptxText();
  size_t Block = Ptx.find("//cucpu-image-begin");
  if (!isNvidia()) {
    ASSERT_NE(std::string::npos, Block) << "cucc's PTX carries its image";
  }
  std::string Bare = Ptx.substr(0, Block);
  char Error[1024] = {};
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Error, reinterpret_cast<void *>(sizeof(Error))};
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadDataEx(&Mod, Bare.c_str(), 2, Options, Values);
  ASSERT_CU(CUDA_SUCCESS, R) << "the driver JIT-compiles PTX: " << Error;
  expectAddOneWorks(Mod);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxModule, CutOffImageIsAnInvalidImage) {
  std::string Ptx = ptxText();
  size_t End = Ptx.find("//cucpu-image-end");
  std::string Cut = Ptx.substr(0, End == std::string::npos ? Ptx.size() : End);
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadData(&Mod, Cut.c_str());
  if (isNvidia()) {
    EXPECT_CU(CUDA_SUCCESS, R) << "comments change nothing for NVIDIA";
    if (R == CUDA_SUCCESS)
      cuModuleUnload(Mod);
  } else {
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, R) << "the block has no end line";
  }
}

} // namespace

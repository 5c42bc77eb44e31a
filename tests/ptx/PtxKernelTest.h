//===- PtxKernelTest.h - Running PTX kernels in tests -----------*- C++ -*-===//
//
// A fixture for tests that load PTX text with cuModuleLoadDataEx and run its
// kernels through the public driver API: a context per test, device buffers
// from host vectors and back, and the JIT's error log on failure.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_PTX_PTXKERNELTEST_H
#define CUCPU_TESTS_PTX_PTXKERNELTEST_H

#include <cuda.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace cucpu::test {

/// The lines every test module starts with.
inline std::string ptxHeader(const char *Version = "7.8",
                             const char *Target = "sm_75") {
  return std::string(".version ") + Version + "\n.target " + Target +
         "\n.address_size 64\n";
}

class PtxKernelTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
    CUdevice Dev;
    ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
    ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
  }
  void TearDown() override {
    for (CUdeviceptr P : Allocations)
      cuMemFree(P);
    if (Module)
      cuModuleUnload(Module);
    if (Ctx)
      cuCtxDestroy(Ctx);
  }

  /// Loads \p Ptx with error and info logs; Log receives the error log.
  CUresult load(const std::string &Ptx, std::string *Log = nullptr) {
    char Errors[8192] = {0};
    CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *Values[] = {Errors, reinterpret_cast<void *>(sizeof Errors)};
    if (Module)
      cuModuleUnload(Module);
    Module = nullptr;
    CUresult R = cuModuleLoadDataEx(&Module, Ptx.c_str(), 2, Options, Values);
    if (Log)
      *Log = Errors;
    if (R != CUDA_SUCCESS) {
      const char *Message = nullptr;
      cuGetErrorString(R, &Message);
      LastError = std::string(Message ? Message : "?") + ": " + Errors;
    }
    return R;
  }

  /// Loads \p Ptx, failing the test (with the log) if it does not load.
  ::testing::AssertionResult loads(const std::string &Ptx) {
    if (load(Ptx) == CUDA_SUCCESS)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << LastError << "\n" << Ptx;
  }

  /// A device copy of \p Host.
  template <class T> CUdeviceptr upload(const std::vector<T> &Host) {
    CUdeviceptr P = 0;
    size_t Bytes = std::max<size_t>(1, Host.size() * sizeof(T));
    EXPECT_EQ(CUDA_SUCCESS, cuMemAlloc(&P, Bytes));
    if (!Host.empty()) {
      EXPECT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(P, Host.data(), Bytes));
    }
    Allocations.push_back(P);
    return P;
  }
  /// \p N elements of type T at \p P.
  template <class T> std::vector<T> download(CUdeviceptr P, size_t N) {
    std::vector<T> Host(N);
    EXPECT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(Host.data(), P, N * sizeof(T)));
    return Host;
  }

  /// Runs \p Kernel of the loaded module and waits for it. \p Params are
  /// pointers to the argument values, as cuLaunchKernel takes them.
  CUresult run(const char *Kernel, unsigned Grid, unsigned Block,
               std::vector<void *> Params, unsigned Shared = 0) {
    CUfunction F;
    CUresult R = cuModuleGetFunction(&F, Module, Kernel);
    if (R != CUDA_SUCCESS)
      return R;
    R = cuLaunchKernel(F, Grid, 1, 1, Block, 1, 1, Shared, nullptr,
                       Params.data(), nullptr);
    if (R != CUDA_SUCCESS)
      return R;
    return cuCtxSynchronize();
  }

  CUcontext Ctx = nullptr;
  CUmodule Module = nullptr;
  std::vector<CUdeviceptr> Allocations;
  std::string LastError;
};

} // namespace cucpu::test

#endif // CUCPU_TESTS_PTX_PTXKERNELTEST_H

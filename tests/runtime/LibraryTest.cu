//===- LibraryTest.cu - cudaLibrary*, cudaGetKernel, cudaKernel_t ---------===//
//
// CUDA 12's context-independent loading through the runtime: libraries
// loaded from PTX (which every driver JIT-compiles), their kernels launched
// as cudaKernel_t, their variables; and the kernel handle of a kernel the
// program itself registered.
//
//===----------------------------------------------------------------------===//
#include "RuntimeTest.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace curt;

namespace {

/// Two kernels and a variable, in PTX as nvcc writes it for sm_50.
/// libraryScale(Data, Factor, N): Data[i] *= Factor for i < N.
/// libraryReadCounter(Out): *Out = libraryCounter (7 when loaded).
const char LibraryPtx[] = R"(
.version 7.0
.target sm_50
.address_size 64

.visible .global .align 4 .u32 libraryCounter = 7;

.visible .entry libraryScale(
    .param .u64 libraryScale_param_0,
    .param .f32 libraryScale_param_1,
    .param .u32 libraryScale_param_2
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [libraryScale_param_0];
    ld.param.f32 %f1, [libraryScale_param_1];
    ld.param.u32 %r2, [libraryScale_param_2];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r1, %r3, %r4, %r5;
    setp.ge.s32 %p1, %r1, %r2;
    @%p1 bra $L_done;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.s32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f2, [%rd4];
    mul.f32 %f3, %f2, %f1;
    st.global.f32 [%rd4], %f3;
$L_done:
    ret;
}

.visible .entry libraryReadCounter(
    .param .u64 libraryReadCounter_param_0
)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<3>;

    ld.param.u64 %rd1, [libraryReadCounter_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    ld.global.u32 %r1, [libraryCounter];
    st.global.u32 [%rd2], %r1;
    ret;
}
)";

/// A library loaded from LibraryPtx for one test, unloaded after it.
class Library : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_CUDA(cudaSuccess,
                cudaLibraryLoadData(&Lib, LibraryPtx, nullptr, nullptr, 0,
                                    nullptr, nullptr, 0))
        << "a library from PTX text";
  }
  void TearDown() override {
    if (Lib)
      EXPECT_CUDA(cudaSuccess, cudaLibraryUnload(Lib)) << "cleanup";
    RuntimeTest::TearDown();
  }

  /// *Out = libraryCounter, read by the library's kernel.
  unsigned readCounter() {
    cudaKernel_t K = nullptr;
    EXPECT_CUDA(cudaSuccess,
                cudaLibraryGetKernel(&K, Lib, "libraryReadCounter"));
    unsigned *Out = nullptr;
    EXPECT_CUDA(cudaSuccess, cudaMalloc(&Out, sizeof(unsigned)));
    void *Args[] = {&Out};
    EXPECT_CUDA(cudaSuccess,
                cudaLaunchKernel(reinterpret_cast<const void *>(K), dim3(1),
                                 dim3(1), Args, 0, nullptr));
    unsigned Value = 0;
    EXPECT_CUDA(cudaSuccess,
                cudaMemcpy(&Value, Out, sizeof(Value), cudaMemcpyDeviceToHost));
    EXPECT_CUDA(cudaSuccess, cudaFree(Out));
    return Value;
  }

  cudaLibrary_t Lib = nullptr;
};

} // namespace

/// Out[0] = libraryValue + Add; a registered kernel for cudaGetKernel.
__device__ int libraryValue = 5;
__global__ void libraryAddValue(int *Out, int Add) {
  Out[0] = libraryValue + Add;
}

static void libraryHostOnly() {}

TEST_F(Library, KernelsAreCountedAndEnumerated) {
  unsigned Count = 0;
  EXPECT_CUDA(cudaSuccess, cudaLibraryGetKernelCount(&Count, Lib));
  EXPECT_EQ(2u, Count) << "the PTX has two entries";
  cudaKernel_t Kernels[2] = {};
  EXPECT_CUDA(cudaSuccess, cudaLibraryEnumerateKernels(Kernels, 2, Lib));
  cudaKernel_t Scale = nullptr, Read = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaLibraryGetKernel(&Scale, Lib, "libraryScale"));
  EXPECT_CUDA(cudaSuccess,
              cudaLibraryGetKernel(&Read, Lib, "libraryReadCounter"));
  EXPECT_TRUE((Kernels[0] == Scale && Kernels[1] == Read) ||
              (Kernels[0] == Read && Kernels[1] == Scale))
      << "the enumeration lists the two kernels cudaLibraryGetKernel finds";
}

TEST_F(Library, KernelLaunchesThroughCudaLaunchKernel) {
  cudaKernel_t K = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaLibraryGetKernel(&K, Lib, "libraryScale"));
  const int N = 100;
  std::vector<float> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = static_cast<float>(I);
  float *Data = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Data, N * sizeof(float)));
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Data, Host.data(), N * sizeof(float),
                                      cudaMemcpyHostToDevice));
  float Factor = 2.5f;
  int Count = N;
  void *Args[] = {&Data, &Factor, &Count};
  EXPECT_CUDA(cudaSuccess,
              cudaLaunchKernel(reinterpret_cast<const void *>(K), dim3(4),
                               dim3(32), Args, 0, nullptr))
      << "a cudaKernel_t stands where a kernel's host function does";
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Host.data(), Data, N * sizeof(float),
                                      cudaMemcpyDeviceToHost));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(2.5f * I, Host[I]) << "element " << I;
  cudaFuncAttributes A{};
  EXPECT_CUDA(cudaSuccess,
              cudaFuncGetAttributes(&A, reinterpret_cast<const void *>(K)))
      << "and where cudaFuncGetAttributes expects one";
  EXPECT_GE(A.maxThreadsPerBlock, 32);
  EXPECT_CUDA(cudaSuccess, cudaFree(Data));
}

TEST_F(Library, GlobalIsTheVariableItsKernelsRead) {
  void *Address = nullptr;
  size_t Bytes = 0;
  ASSERT_CUDA(cudaSuccess,
              cudaLibraryGetGlobal(&Address, &Bytes, Lib, "libraryCounter"));
  EXPECT_EQ(sizeof(unsigned), Bytes);
  unsigned Value = 0;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(&Value, Address, sizeof(Value),
                                      cudaMemcpyDeviceToHost));
  EXPECT_EQ(7u, Value) << "the PTX initializer";
  Value = 42;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(Address, &Value, sizeof(Value),
                                      cudaMemcpyHostToDevice));
  EXPECT_EQ(42u, readCounter()) << "the kernel reads what was written there";
}

TEST_F(Library, MissingNamesAreNotFound) {
  cudaKernel_t K = nullptr;
  EXPECT_CUDA(cudaErrorSymbolNotFound,
              cudaLibraryGetKernel(&K, Lib, "noSuchKernel"));
  void *Address = nullptr;
  size_t Bytes = 0;
  EXPECT_CUDA(cudaErrorSymbolNotFound,
              cudaLibraryGetGlobal(&Address, &Bytes, Lib, "noSuchVariable"));
  (void)cudaGetLastError();
}

TEST_F(Library, KernelAttributeSetForTheDevice) {
  cudaKernel_t K = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaLibraryGetKernel(&K, Lib, "libraryScale"));
  EXPECT_CUDA(cudaSuccess,
              cudaKernelSetAttributeForDevice(
                  K, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024, 0))
      << "above the 48 KiB default, below the device's opt-in limit";
  cudaFuncAttributes A{};
  EXPECT_CUDA(cudaSuccess,
              cudaFuncGetAttributes(&A, reinterpret_cast<const void *>(K)));
  EXPECT_EQ(64 * 1024, A.maxDynamicSharedSizeBytes);
  int Devices = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetDeviceCount(&Devices));
  EXPECT_CUDA(
      cudaErrorInvalidDevice,
      cudaKernelSetAttributeForDevice(
          K, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, Devices))
      << "a device that does not exist";
  (void)cudaGetLastError();
}

TEST_F(Library, LoadFromFile) {
  char Path[] = "/tmp/cucpu-library-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(static_cast<ssize_t>(std::strlen(LibraryPtx)),
            write(Fd, LibraryPtx, std::strlen(LibraryPtx)));
  close(Fd);
  cudaLibrary_t FromFile = nullptr;
  EXPECT_CUDA(cudaSuccess,
              cudaLibraryLoadFromFile(&FromFile, Path, nullptr, nullptr, 0,
                                      nullptr, nullptr, 0));
  unsigned Count = 0;
  EXPECT_CUDA(cudaSuccess, cudaLibraryGetKernelCount(&Count, FromFile));
  EXPECT_EQ(2u, Count);
  EXPECT_CUDA(cudaSuccess, cudaLibraryUnload(FromFile));
  unlink(Path);
  EXPECT_CUDA(cudaErrorFileNotFound,
              cudaLibraryLoadFromFile(&FromFile, Path, nullptr, nullptr, 0,
                                      nullptr, nullptr, 0))
      << "the file is gone";
  (void)cudaGetLastError();
}

TEST_F(Library, LoadArgumentsChecked) {
  cudaLibrary_t Other = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaLibraryLoadData(nullptr, LibraryPtx, nullptr, nullptr, 0,
                                  nullptr, nullptr, 0))
      << "no place for the handle";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaLibraryLoadData(&Other, nullptr, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0))
      << "no image";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaLibraryLoadFromFile(&Other, nullptr, nullptr, nullptr, 0,
                                      nullptr, nullptr, 0))
      << "no file name";
  (void)cudaGetLastError();
}

TEST_F(Library, UnloadedLibraryIsAnInvalidHandle) {
#if CUCPU_ONLY
  cudaLibrary_t Gone = Lib;
  EXPECT_CUDA(cudaSuccess, cudaLibraryUnload(Lib));
  Lib = nullptr;
  unsigned Count = 0;
  EXPECT_CUDA(cudaErrorInvalidResourceHandle,
              cudaLibraryGetKernelCount(&Count, Gone));
  EXPECT_CUDA(cudaErrorInvalidResourceHandle, cudaLibraryUnload(Gone));
  (void)cudaGetLastError();
#else
  GTEST_SKIP() << "cucpu-only: an unloaded library's handle is freed memory "
                  "to NVIDIA's runtime";
#endif
}

using GetKernel = RuntimeTest;

TEST_F(GetKernel, KernelSharesTheProgramsVariables) {
  cudaKernel_t K = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGetKernel(&K, reinterpret_cast<const void *>(
                                                 &libraryAddValue)));
  ASSERT_NE(nullptr, K);
  int Value = 30;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpyToSymbol(libraryValue, &Value, sizeof(Value)))
      << "the variable, named by its host shadow";
  int *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Out, sizeof(int)));
  int Add = 4;
  void *Args[] = {&Out, &Add};
  EXPECT_CUDA(cudaSuccess,
              cudaLaunchKernel(reinterpret_cast<const void *>(K), dim3(1),
                               dim3(1), Args, 0, nullptr));
  int Result = 0;
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(&Result, Out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(34, Result) << "the kernel handle reads the variable the "
                           "program's cudaMemcpyToSymbol wrote";
  libraryAddValue<<<1, 1>>>(Out, 1);
  EXPECT_CUDA(cudaSuccess,
              cudaMemcpy(&Result, Out, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(31, Result) << "as the <<<>>> launch does";
  EXPECT_CUDA(cudaSuccess, cudaFree(Out));
}

TEST_F(GetKernel, AttributeSetThroughTheHandleAppliesToTheFunction) {
  cudaKernel_t K = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGetKernel(&K, reinterpret_cast<const void *>(
                                                 &libraryAddValue)));
  EXPECT_CUDA(cudaSuccess,
              cudaKernelSetAttributeForDevice(
                  K, cudaFuncAttributeMaxDynamicSharedMemorySize, 50000, 0));
  cudaFuncAttributes A{};
  EXPECT_CUDA(cudaSuccess,
              cudaFuncGetAttributes(
                  &A, reinterpret_cast<const void *>(&libraryAddValue)));
  EXPECT_EQ(50000, A.maxDynamicSharedSizeBytes)
      << "the host function and its cudaKernel_t are one kernel";
}

TEST_F(GetKernel, ArgumentsChecked) {
  cudaKernel_t K = nullptr;
  EXPECT_CUDA(
      cudaErrorInvalidValue,
      cudaGetKernel(nullptr, reinterpret_cast<const void *>(&libraryAddValue)));
  EXPECT_CUDA(
      cudaErrorInvalidDeviceFunction,
      cudaGetKernel(&K, reinterpret_cast<const void *>(&libraryHostOnly)))
      << "a host function is no kernel";
  (void)cudaGetLastError();
}

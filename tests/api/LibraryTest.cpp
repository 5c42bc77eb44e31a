//===- LibraryTest.cpp - Context-independent loading (cuLibrary*, cuKernel*)
//-===//
//
// A library is loaded once, without a context or with one, and used in every
// context; its kernels are handles of no context, launched directly or
// through the function they have in the current context. Kernels:
// kernels/library.cu.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace cuapi;

namespace {

constexpr int N = 256;

/// The bytes of the test library's image, as a program embeds them.
std::vector<char> libraryImage() {
  std::ifstream In(CUCPU_API_LIBRARY_MODULE, std::ios::binary);
  return {std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>()};
}

/// Launches \p F (a CUfunction, or a CUkernel cast to one) as fill(Data, N,
/// Value) on the current context and checks what it wrote.
void fillAndCheck(CUfunction F, int Value) {
  CUdeviceptr Data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Data, N * sizeof(int)));
  int Count = N;
  void *Params[] = {&Data, &Count, &Value};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(F, N / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                         Params, nullptr));
  std::vector<int> Host(N);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host.data(), Data, N * sizeof(int)));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Data));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Value + I, Host[I]) << "element " << I;
}

/// The value of the library's counter in the current context.
int readCounter(CUlibrary Lib) {
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
  EXPECT_CU(CUDA_SUCCESS, cuLibraryGetGlobal(&Ptr, &Bytes, Lib, "counter"));
  EXPECT_EQ(sizeof(int), Bytes) << "the variable's own size";
  int Value = -1;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Value, Ptr, sizeof(Value)));
  return Value;
}

class Library : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    Image = libraryImage();
    ASSERT_FALSE(Image.empty()) << "setup: " << CUCPU_API_LIBRARY_MODULE;
    ASSERT_CU(CUDA_SUCCESS, cuLibraryLoadData(&Lib, Image.data(), nullptr,
                                              nullptr, 0, nullptr, nullptr, 0));
  }
  void TearDown() override {
    if (Lib) {
      EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(Lib));
    }
    DriverTest::TearDown();
  }

  std::vector<char> Image;
  CUlibrary Lib = nullptr;
};

using LibraryNoContext = NoContextTest;

TEST_F(Library, KernelLaunchesThroughItsFunctionAndDirectly) {
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&F, Fill));
  fillAndCheck(F, 100);
  // "f - Function CUfunction or Kernel CUkernel to launch" (cuLaunchKernel).
  fillAndCheck(reinterpret_cast<CUfunction>(Fill), 200);
  CUfunction Again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&Again, Fill));
  EXPECT_EQ(F, Again) << "one function per kernel and context";
}

TEST_F(Library, KernelsAreListedWithTheirNamesAndParameters) {
  unsigned Count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernelCount(&Count, Lib));
  ASSERT_EQ(2u, Count);
  std::vector<CUkernel> Kernels(Count);
  ASSERT_CU(CUDA_SUCCESS,
            cuLibraryEnumerateKernels(Kernels.data(), Count, Lib));
  std::vector<std::string> Names;
  for (CUkernel K : Kernels) {
    const char *Name = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuKernelGetName(&Name, K));
    Names.push_back(Name);
    CUlibrary Owner = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuKernelGetLibrary(&Owner, K));
    EXPECT_EQ(Lib, Owner);
  }
  std::sort(Names.begin(), Names.end());
  EXPECT_EQ((std::vector<std::string>{"bump", "fill"}), Names);

  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  size_t Offset = 0, Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetParamInfo(Fill, 2, &Offset, &Size));
  EXPECT_EQ(12u, Offset) << "int *, int, int: the third starts at byte 12";
  EXPECT_EQ(4u, Size);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelGetParamInfo(Fill, 3, &Offset, &Size))
      << "fill has three parameters";
}

TEST_F(Library, ModuleAndGlobalsOfTheCurrentContext) {
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetModule(&Mod, Lib));
  CUfunction FromModule = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&FromModule, Mod, "fill"));
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  CUfunction FromKernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&FromKernel, Fill));
  EXPECT_EQ(FromModule, FromKernel) << "the kernel's function is the module's";
  CUmodule Owner = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetModule(&Owner, FromKernel));
  EXPECT_EQ(Mod, Owner);

  EXPECT_EQ(5, readCounter(Lib)) << "the initializer";
  CUkernel Bump = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Bump, Lib, "bump"));
  int Amount = 3;
  void *Params[] = {&Amount};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(reinterpret_cast<CUfunction>(Bump), 1, 1, 1, 1, 1, 1,
                           0, nullptr, Params, nullptr));
  EXPECT_EQ(8, readCounter(Lib));
}

TEST_F(LibraryNoContext, LoadedWithoutAContextServesEveryContext) {
  std::vector<char> Image = libraryImage();
  ASSERT_FALSE(Image.empty());
  CUlibrary Lib = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryLoadData(&Lib, Image.data(), nullptr,
                                            nullptr, 0, nullptr, nullptr, 0))
      << "a library needs no context";
  CUkernel Fill = nullptr, Bump = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Bump, Lib, "bump"));
  CUfunction F = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuKernelGetFunction(&F, Fill))
      << "a function belongs to a context";
  CUmodule Mod = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuLibraryGetModule(&Mod, Lib));
  int Threads = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuKernelGetAttribute(
                &Threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fill, Dev))
      << "a kernel's attributes need no context";
  EXPECT_EQ(1024, Threads);
  EXPECT_CU(CUDA_SUCCESS, cuKernelSetAttribute(
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              32768, Fill, Dev))
      << "nor does a setting, which contexts made later have";

  CUcontext A = nullptr, B = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&A));
  fillAndCheck(reinterpret_cast<CUfunction>(Fill), 1);
  CUfunction InA = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&InA, Fill));
  Threads = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&Threads,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               InA));
  EXPECT_EQ(32768, Threads) << "the setting made without a context";
  int Amount = 10;
  void *Params[] = {&Amount};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(reinterpret_cast<CUfunction>(Bump), 1, 1, 1, 1, 1, 1,
                           0, nullptr, Params, nullptr));
  EXPECT_EQ(15, readCounter(Lib));

  ASSERT_CU(CUDA_SUCCESS, createContext(&B));
  CUfunction InB = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&InB, Fill));
  EXPECT_NE(InA, InB) << "each context has its own function";
  fillAndCheck(InB, 2);
  EXPECT_EQ(5, readCounter(Lib)) << "each context has its own variables";

  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(B));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(A));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(Lib));
}

TEST_F(Library, UnloadedLibraryAndKernelsAreInvalidHandles) {
#if CUCPU_ONLY
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  ASSERT_CU(CUDA_SUCCESS, cuLibraryUnload(Lib));
  CUlibrary Dead = Lib;
  Lib = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(Dead));
  unsigned Count = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernelCount(&Count, Dead));
  const char *Name = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&Name, Fill));
  CUfunction F = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&F, Fill));
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on an unloaded "
                  "library's handles";
#endif
}

TEST_F(Library, BadArgumentsAreRefused) {
  CUkernel K = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&K, Lib, "noSuchKernel"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(nullptr, Lib, "fill"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(&K, Lib, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernel(&K, nullptr, "fill"));
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuLibraryGetGlobal(&Ptr, &Bytes, Lib, "noSuchVariable"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernelCount(nullptr, Lib));

  CUlibrary Other = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(nullptr, Image.data(), nullptr, nullptr, 0,
                              nullptr, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(&Other, nullptr, nullptr, nullptr, 0, nullptr,
                              nullptr, 0));
  char Garbage[256] = "\x7f"
                      "ELF\x02\x01\x01garbage garbage garbage garbage";
  CUresult FromGarbage = cuLibraryLoadData(&Other, Garbage, nullptr, nullptr, 0,
                                           nullptr, nullptr, 0);
  if (isNvidia()) {
    // NVIDIA loads lazily (CUDA_MODULE_LOADING=LAZY, the default) and
    // accepts the garbage here; cucpu reads the image at once.
    if (FromGarbage == CUDA_SUCCESS)
      cuLibraryUnload(Other);
  } else {
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, FromGarbage);
  }
  EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND,
            cuLibraryLoadFromFile(&Other, "/nonexistent/cucpu/lib.cubin",
                                  nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUlibraryOption Bogus = static_cast<CUlibraryOption>(77);
  void *Value = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(&Other, Image.data(), nullptr, nullptr, 0, &Bogus,
                              &Value, 1))
      << "an unknown library option";
}

TEST_F(Library, LoadFromFileWithJitLogs) {
  char Info[256] = {}, Error[256] = {};
  CUjit_option Options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Info, reinterpret_cast<void *>(sizeof(Info)), Error,
                    reinterpret_cast<void *>(sizeof(Error))};
  CUlibrary FromFile = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuLibraryLoadFromFile(&FromFile, CUCPU_API_LIBRARY_MODULE, Options,
                                  Values, 4, nullptr, nullptr, 0));
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(Values[3]))
      << "no error: the error log size is written back as 0";
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, FromFile, "fill"));
  fillAndCheck(reinterpret_cast<CUfunction>(Fill), 7);
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(FromFile));
}

TEST_F(Library, BinaryIsPreservedOnlyForImagesInMemory) {
  CUlibraryOption Preserve = CU_LIBRARY_BINARY_IS_PRESERVED;
  void *PreserveValue = reinterpret_cast<void *>(1);
  CUlibrary Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuLibraryLoadData(&Other, Image.data(), nullptr, nullptr, 0,
                              &Preserve, &PreserveValue, 1));
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Other, "fill"));
  fillAndCheck(reinterpret_cast<CUfunction>(Fill), 9);
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(Other));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadFromFile(&Other, CUCPU_API_LIBRARY_MODULE, nullptr,
                                  nullptr, 0, &Preserve, &PreserveValue, 1))
      << "a file's bytes are the driver's own";
}

TEST_F(Library, KernelAttributesPerDevice) {
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  int Value = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuKernelGetAttribute(
                &Value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fill, Dev));
  EXPECT_EQ(1024, Value);
  ASSERT_CU(CUDA_SUCCESS, cuKernelSetAttribute(
                              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                              65536, Fill, Dev));
  ASSERT_CU(
      CUDA_SUCCESS,
      cuKernelGetAttribute(
          &Value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, Fill, Dev));
  EXPECT_EQ(65536, Value);
  CUfunction F = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&F, Fill));
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(
                &Value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, F));
  EXPECT_EQ(65536, Value) << "the kernel's setting is its function's";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuFuncGetAttribute(&Value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               reinterpret_cast<CUfunction>(Fill)))
      << "a kernel stands for its function in launches only";
  EXPECT_CU(CUDA_SUCCESS,
            cuKernelSetCacheConfig(Fill, CU_FUNC_CACHE_PREFER_SHARED, Dev));

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelGetAttribute(
                nullptr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fill, Dev));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuKernelGetAttribute(
                &Value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Fill, 1000));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           1 << 30, Fill, Dev))
      << "more dynamic shared memory than a block can have";
}

TEST_F(Library, LaunchKernelExTakesAKernelAndAttributes) {
  CUkernel Fill = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Fill, Lib, "fill"));
  CUdeviceptr Data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Data, N * sizeof(int)));
  int Count = N, Value = 40;
  void *Params[] = {&Data, &Count, &Value};
  CUlaunchAttribute Attrs[2] = {};
  Attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  Attrs[0].value.priority = 0;
  Attrs[1].id = CU_LAUNCH_ATTRIBUTE_IGNORE;
  CUlaunchConfig Config = {};
  Config.gridDimX = N / 64;
  Config.gridDimY = Config.gridDimZ = 1;
  Config.blockDimX = 64;
  Config.blockDimY = Config.blockDimZ = 1;
  Config.attrs = Attrs;
  Config.numAttrs = 2;
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernelEx(&Config, reinterpret_cast<CUfunction>(Fill),
                             Params, nullptr));
  std::vector<int> Host(N);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host.data(), Data, N * sizeof(int)));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Value + I, Host[I]) << "element " << I;

  Attrs[0].id = static_cast<CUlaunchAttributeID>(999);
  Config.numAttrs = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernelEx(&Config, reinterpret_cast<CUfunction>(Fill),
                             Params, nullptr))
      << "an unknown launch attribute";
  Attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Attrs[0].value.clusterDim.x = 1;
  Attrs[0].value.clusterDim.y = 1;
  Attrs[0].value.clusterDim.z = 1;
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernelEx(&Config, reinterpret_cast<CUfunction>(Fill),
                             Params, nullptr))
      << "clusters of one block are plain blocks";
  if (CUCPU_ONLY) {
    // cucpu's device has compute capability 7.5; clusters need 9.0.
    Attrs[0].value.clusterDim.x = 2;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
              cuLaunchKernelEx(&Config, reinterpret_cast<CUfunction>(Fill),
                               Params, nullptr))
        << "thread-block clusters";
  }
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Data));
}

} // namespace

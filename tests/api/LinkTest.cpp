//===- LinkTest.cpp - cuLinkCreate, cuLinkAddData/File, cuLinkComplete
//-----===//
//
// Relocatable device code linked at run time. kernels/link_main.cu calls a
// function and reads a variable that kernels/link_lib.cu defines; both are
// compiled with -rdc=true (cucc for cucpu, nvcc -cubin for NVIDIA) and
// added as CU_JIT_INPUT_CUBIN.
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace cuapi;

namespace {

std::vector<char> readFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(In)),
                           std::istreambuf_iterator<char>());
}

/// A link with an error log, and the two relocatable images.
class Link : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    Main = readFile(CUCPU_API_LINK_MAIN);
    Lib = readFile(CUCPU_API_LINK_LIB);
    ASSERT_FALSE(Main.empty()) << "setup: " << CUCPU_API_LINK_MAIN;
    ASSERT_FALSE(Lib.empty()) << "setup: " << CUCPU_API_LINK_LIB;
    Options[0] = CU_JIT_ERROR_LOG_BUFFER;
    Values[0] = ErrorLog;
    Options[1] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    Values[1] = reinterpret_cast<void *>(uintptr_t(sizeof(ErrorLog)));
    Options[2] = CU_JIT_INFO_LOG_BUFFER;
    Values[2] = InfoLog;
    Options[3] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    Values[3] = reinterpret_cast<void *>(uintptr_t(sizeof(InfoLog)));
    Options[4] = CU_JIT_WALL_TIME;
    Values[4] = nullptr;
    Options[5] = CU_JIT_LOG_VERBOSE;
    Values[5] = reinterpret_cast<void *>(uintptr_t(1));
    ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(6, Options, Values, &State))
        << "setup: a link with logs";
  }
  void TearDown() override {
    if (State) {
      EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(State));
    }
    DriverTest::TearDown();
  }

  CUresult add(std::vector<char> &Image, const char *Name) {
    return cuLinkAddData(State, CU_JIT_INPUT_CUBIN, Image.data(), Image.size(),
                         Name, 0, nullptr, nullptr);
  }

  std::vector<char> Main, Lib;
  CUjit_option Options[6];
  void *Values[6];
  char ErrorLog[4096] = {};
  char InfoLog[4096] = {};
  CUlinkState State = nullptr;
};

TEST_F(Link, LinksLoadsAndRunsTwoRelocatableImages) {
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main")) << "a relocatable image";
  ASSERT_CU(CUDA_SUCCESS, add(Lib, "link_lib")) << "the image it needs";
  void *Cubin = nullptr;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size))
      << "everything is defined; error log: " << ErrorLog;
  ASSERT_NE(nullptr, Cubin);
  EXPECT_GT(Size, 0u) << "the linked image has a size";
  EXPECT_STREQ("", ErrorLog) << "no error was logged";

  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin))
      << "the linked image loads like any other";
  CUfunction Apply = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Apply, Mod, "applyScale"));
  CUdeviceptr Offset = 0;
  size_t OffsetBytes = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuModuleGetGlobal(&Offset, &OffsetBytes, Mod, "offset"))
      << "the library's variable is a global of the linked module";
  EXPECT_EQ(sizeof(int), OffsetBytes);

  constexpr int N = 100;
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, N * sizeof(int)));
  int Count = N;
  void *Args[] = {&Out, &Count};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Apply, 2, 1, 1, 64, 1, 1, 0, nullptr, Args, nullptr))
      << "the kernel calls across the images";
  int Host[N] = {};
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host, Out, sizeof(Host)));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(3 * I + 100 + 7, Host[I]) << "scale(i) + offset + bias at " << I;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

// Programs that build with nvcc -ptx -rdc=true link the text: NVIDIA's
// driver compiles it, cucpu links the images cucc's PTX carries.
TEST_F(Link, PtxInputsOfTheToolkitsCompilerLink) {
  std::vector<char> MainPtx = readFile(CUCPU_API_LINK_MAIN_PTX);
  std::vector<char> LibPtx = readFile(CUCPU_API_LINK_LIB_PTX);
  ASSERT_FALSE(MainPtx.empty() || LibPtx.empty()) << "setup: the PTX files";
  MainPtx.push_back('\0');
  LibPtx.push_back('\0');
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddData(State, CU_JIT_INPUT_PTX, MainPtx.data(),
                          MainPtx.size(), "link_main.ptx", 0, nullptr, nullptr))
      << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddData(State, CU_JIT_INPUT_PTX, LibPtx.data(), LibPtx.size(),
                          "link_lib.ptx", 0, nullptr, nullptr))
      << ErrorLog;
  void *Cubin = nullptr;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size)) << ErrorLog;
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin));
  CUfunction Apply = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Apply, Mod, "applyScale"));
  constexpr int N = 64;
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, N * sizeof(int)));
  int Count = N;
  void *Args[] = {&Out, &Count};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(Apply, 1, 1, 1, 64, 1, 1, 0, nullptr,
                                         Args, nullptr));
  int Host[N] = {};
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host, Out, sizeof(Host)));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(3 * I + 100 + 7, Host[I]) << "scale(i) + offset + bias at " << I;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(Link, FatBinaryInputLinksItsImage) {
  std::vector<char> Fatbin = readFile(CUCPU_API_LINK_LIB_FATBIN);
  ASSERT_FALSE(Fatbin.empty()) << "setup: " << CUCPU_API_LINK_LIB_FATBIN;
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main"));
  ASSERT_CU(CUDA_SUCCESS, cuLinkAddData(State, CU_JIT_INPUT_FATBINARY,
                                        Fatbin.data(), Fatbin.size(),
                                        "link_lib.fatbin", 0, nullptr, nullptr))
      << "a fat binary holding the library's relocatable image";
  void *Cubin = nullptr;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size))
      << "error log: " << ErrorLog;
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin));
  CUfunction Apply = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Apply, Mod, "applyScale"));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(Link, CompleteWritesTheWallTimeAndTheLogSizesBack) {
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main"));
  ASSERT_CU(CUDA_SUCCESS, add(Lib, "link_lib"));
  void *Cubin = nullptr;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size));
  float Ms = -1;
  std::memcpy(&Ms, &Values[4], sizeof(Ms));
  report("link.wall_time_ms", Ms);
  report("link.info_log_bytes",
         static_cast<unsigned long>(reinterpret_cast<uintptr_t>(Values[3])));
  report("link.info_log", static_cast<const char *>(InfoLog));
  EXPECT_GE(Ms, 0.0f) << "CU_JIT_WALL_TIME: milliseconds as a float";
  EXPECT_LE(reinterpret_cast<uintptr_t>(Values[3]), sizeof(InfoLog))
      << "the info log's size is written back, within the buffer";
  if (!isNvidia()) {
    EXPECT_EQ(std::strlen(InfoLog) + 1, reinterpret_cast<uintptr_t>(Values[3]))
        << "cucpu counts the bytes written with their NUL: " << InfoLog;
  }
}

TEST_F(Link, UnresolvedSymbolIsAnErrorThatTheLogNames) {
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main"));
  void *Cubin = nullptr;
  size_t Size = 0;
  CUresult R = cuLinkComplete(State, &Cubin, &Size);
  report("link.unresolved.result", resultName(R).c_str());
  report("link.unresolved.error_log", static_cast<const char *>(ErrorLog));
  EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, R)
      << "scale and offset are defined nowhere (as NVIDIA answers)";
  EXPECT_NE(nullptr, std::strstr(ErrorLog, "scale"))
      << "the error log names the symbol: " << ErrorLog;
}

TEST_F(Link, DuplicateDefinitionIsAnErrorThatTheLogNames) {
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main"));
  ASSERT_CU(CUDA_SUCCESS, add(Lib, "link_lib"));
  CUresult Again = add(Lib, "link_lib_again");
  void *Cubin = nullptr;
  size_t Size = 0;
  CUresult R =
      Again == CUDA_SUCCESS ? cuLinkComplete(State, &Cubin, &Size) : Again;
  report("link.duplicate.add_result", resultName(Again).c_str());
  report("link.duplicate.result", resultName(R).c_str());
  report("link.duplicate.error_log", static_cast<const char *>(ErrorLog));
  EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, R)
      << "scale and offset are defined twice (NVIDIA says so when the second "
         "definition is added, cucpu when the link completes)";
  EXPECT_NE(nullptr, std::strstr(ErrorLog, "scale"))
      << "the error log names the symbol: " << ErrorLog;
}

TEST_F(Link, RelocatableImageWithEverythingDefinedLoadsAsIs) {
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Lib.data()))
      << "link_lib.cu uses nothing it does not define";
  CUdeviceptr Offset = 0;
  size_t Bytes = 0;
  CUresult R = cuModuleGetGlobal(&Offset, &Bytes, Mod, "offset");
  report("link.load_relocatable.get_global", resultName(R).c_str());
  if (isNvidia()) {
    // NVIDIA's driver does not find the variables of an image that is not
    // linked (H200, driver 580.159.04); cucpu does (docs/conformance.md).
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, R);
  } else {
    EXPECT_CU(CUDA_SUCCESS, R);
    int Value = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Value, Offset, sizeof(Value)));
    EXPECT_EQ(100, Value) << "its initializer";
  }
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(Link, RelocatableImageWithUnresolvedSymbolsDoesNotLoad) {
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadData(&Mod, Main.data());
  report("link.load_unresolved.result", resultName(R).c_str());
  if (isNvidia()) {
    // NVIDIA's driver loads it and would fail only when the kernel runs
    // (H200, driver 580.159.04); cucpu says at once what is missing.
    EXPECT_CU(CUDA_SUCCESS, R);
  } else {
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, R) << "scale and offset are defined "
                                          "nowhere";
  }
  if (R == CUDA_SUCCESS) {
    EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
  }
}

//===-- Validation: one case that passes and one that fails per rule ------===//

TEST_F(Link, CreateNeedsAStatePointer) {
  CUlinkState Other = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &Other))
      << "no options";
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(Other));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkCreate(0, nullptr, nullptr, nullptr))
      << "nowhere to write the state";
}

TEST_F(Link, CreateRejectsAnUnknownOption) {
  CUjit_option Good[] = {CU_JIT_OPTIMIZATION_LEVEL,
                         CU_JIT_TARGET_FROM_CUCONTEXT};
  void *GoodValues[] = {reinterpret_cast<void *>(uintptr_t(3)), nullptr};
  CUlinkState Other = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuLinkCreate(2, Good, GoodValues, &Other))
      << "optimization and target options are accepted";
  if (Other) {
    EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(Other));
  }
  CUjit_option Bad[] = {CU_JIT_NUM_OPTIONS};
  void *BadValues[] = {nullptr};
  Other = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, Bad, BadValues, &Other))
      << "CU_JIT_NUM_OPTIONS is not an option";
}

TEST_F(Link, CreateNeedsAContext) {
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  CUlinkState Other = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuLinkCreate(0, nullptr, nullptr, &Other))
      << "no current context";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Popped));
  EXPECT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &Other))
      << "with one";
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(Other));
}

TEST_F(Link, AddDataNeedsData) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddData(State, CU_JIT_INPUT_CUBIN, nullptr, Main.size(),
                          "null", 0, nullptr, nullptr))
      << "no data";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddData(State, CU_JIT_INPUT_CUBIN, Main.data(), 0, "empty", 0,
                          nullptr, nullptr))
      << "no bytes";
  EXPECT_CU(CUDA_SUCCESS, add(Main, "link_main")) << "an image";
}

TEST_F(Link, AddDataRejectsAnUnknownInputType) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLinkAddData(State, CU_JIT_NUM_INPUT_TYPES, Main.data(),
                          Main.size(), "bad type", 0, nullptr, nullptr))
      << "CU_JIT_NUM_INPUT_TYPES is not an input type";
  EXPECT_CU(CUDA_SUCCESS, add(Main, "link_main")) << "CU_JIT_INPUT_CUBIN";
}

TEST_F(Link, AddDataRejectsGarbage) {
  // A cubin first: after an invalid image, NVIDIA's link state refuses
  // everything (H200, driver 580.159.04).
  EXPECT_CU(CUDA_SUCCESS, add(Lib, "link_lib")) << "a cubin";
  std::vector<char> Garbage(256, 0x5a);
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLinkAddData(State, CU_JIT_INPUT_CUBIN, Garbage.data(),
                          Garbage.size(), "garbage", 0, nullptr, nullptr))
      << "neither a cubin nor anything else";
}

TEST_F(Link, AddFileReadsAFile) {
  EXPECT_CU(CUDA_SUCCESS,
            cuLinkAddFile(State, CU_JIT_INPUT_CUBIN, CUCPU_API_LINK_MAIN, 0,
                          nullptr, nullptr))
      << "an image file";
  EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND,
            cuLinkAddFile(State, CU_JIT_INPUT_CUBIN, "/nonexistent/k.cubin", 0,
                          nullptr, nullptr))
      << "no such file";
  EXPECT_CU(CUDA_SUCCESS,
            cuLinkAddFile(State, CU_JIT_INPUT_CUBIN, CUCPU_API_LINK_LIB, 0,
                          nullptr, nullptr));
  void *Cubin = nullptr;
  size_t Size = 0;
  EXPECT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size))
      << "files link as data does; error log: " << ErrorLog;
}

TEST_F(Link, AddFileNeedsAPath) {
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuLinkAddFile(State, CU_JIT_INPUT_CUBIN, nullptr, 0, nullptr, nullptr))
      << "no path";
  EXPECT_CU(CUDA_SUCCESS,
            cuLinkAddFile(State, CU_JIT_INPUT_CUBIN, CUCPU_API_LINK_LIB, 0,
                          nullptr, nullptr));
}

TEST_F(Link, CompleteNeedsAnImagePointer) {
  ASSERT_CU(CUDA_SUCCESS, add(Main, "link_main"));
  ASSERT_CU(CUDA_SUCCESS, add(Lib, "link_lib"));
  size_t Size = 0;
  void *Cubin = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(State, nullptr, &Size))
      << "nowhere to write the image";
  EXPECT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, nullptr))
      << "the size is optional (as on NVIDIA's driver)";
  EXPECT_NE(nullptr, Cubin);
}

TEST_F(Link, HostObjectsAreNotSupported) {
  if (isNvidia())
    GTEST_SKIP() << "NVIDIA's driver takes nvcc's host objects";
  // An x86-64 ELF header: what nvcc -dc writes (a host object).
  std::vector<char> Object(64, 0);
  const char Ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  std::memcpy(Object.data(), Ident, sizeof(Ident));
  Object[16] = 1;  // ET_REL
  Object[18] = 62; // EM_X86_64
  Object[20] = 1;  // EV_CURRENT
  Object[52] = 64; // e_ehsize
  CUresult R = cuLinkAddData(State, CU_JIT_INPUT_OBJECT, Object.data(),
                             Object.size(), "host.o", 0, nullptr, nullptr);
  EXPECT_NE(CUDA_SUCCESS, R) << "a host object holds no cucpu image";
  EXPECT_CU(CUDA_SUCCESS,
            cuLinkAddData(State, CU_JIT_INPUT_OBJECT, Lib.data(), Lib.size(),
                          "link_lib.o", 0, nullptr, nullptr))
      << "cucc -dc writes its image as <stem>.o";
}

TEST_F(Link, DestroyedStateIsAnInvalidHandle) {
#if CUCPU_ONLY
  CUlinkState Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(0, nullptr, nullptr, &Other));
  EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(Other)) << "a live state";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(Other))
      << "destroyed already";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLinkAddData(Other, CU_JIT_INPUT_CUBIN, Lib.data(), Lib.size(),
                          "late", 0, nullptr, nullptr))
      << "destroyed already";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver does not check link states";
#endif
}

} // namespace

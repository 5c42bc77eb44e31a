//===- PtxLinkTest.cpp - Linking PTX with cuLink*
//--------------------------===//
//
// PTX added to a link (CU_JIT_INPUT_PTX, as text or a file, or inside a fat
// binary with CU_JIT_INPUT_FATBINARY) is compiled as relocatable code: its
// .extern functions and variables resolve to definitions of the other
// inputs, PTX or the toolkit's relocatable images (kernels/link_main.cu).
// The PTX is written for both drivers (PtxTestKernels.h).
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"
#include "PtxTestKernels.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cuapi;

namespace {

/// A link with an error and an info log.
class PtxLink : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    CUjit_option Options[] = {
        CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_LOG_VERBOSE};
    Values[0] = ErrorLog;
    Values[1] = reinterpret_cast<void *>(sizeof(ErrorLog));
    Values[2] = InfoLog;
    Values[3] = reinterpret_cast<void *>(sizeof(InfoLog));
    Values[4] = reinterpret_cast<void *>(uintptr_t(1));
    ASSERT_CU(CUDA_SUCCESS, cuLinkCreate(5, Options, Values, &State));
  }
  void TearDown() override {
    if (State) {
      EXPECT_CU(CUDA_SUCCESS, cuLinkDestroy(State));
    }
    DriverTest::TearDown();
  }

  CUresult addPtx(const std::string &Text, const char *Name) {
    return cuLinkAddData(State, CU_JIT_INPUT_PTX,
                         const_cast<char *>(Text.c_str()), Text.size() + 1,
                         Name, 0, nullptr, nullptr);
  }

  /// Completes the link, loads the image and runs applyScale over 100 ints
  /// set to 4: expects 3 * 4 + \p Offset (+ \p Bias) everywhere.
  void expectScaled(int Offset) {
    void *Cubin = nullptr;
    size_t Size = 0;
    ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, &Size)) << ErrorLog;
    ASSERT_NE(nullptr, Cubin);
    CUmodule Mod = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin));
    std::string Failure;
    std::vector<int> Out = ptx::runOver100(Mod, "applyScale", 4, Failure);
    ASSERT_FALSE(Out.empty()) << Failure;
    for (size_t I = 0; I < Out.size(); ++I)
      ASSERT_EQ(3 * 4 + Offset, Out[I]) << "element " << I;
    EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
  }

  CUlinkState State = nullptr;
  char ErrorLog[8192] = {};
  char InfoLog[8192] = {};
  void *Values[5] = {};
};

TEST_F(PtxLink, PtxInputsLinkAcrossExterns) {
  ASSERT_CU(CUDA_SUCCESS, addPtx(ptx::ScaleMain, "main.ptx")) << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS, addPtx(ptx::ScaleLib, "lib.ptx")) << ErrorLog;
  expectScaled(5);
  ptx::reportText("ptx.link.info_log", InfoLog);
}

TEST_F(PtxLink, PtxFilesLink) {
  std::string Stem = "/tmp/cucpu-api-ptxlink-" + std::to_string(getpid());
  std::string Main = Stem + "-main.ptx", Lib = Stem + "-lib.ptx";
  std::ofstream(Main, std::ios::binary) << ptx::ScaleMain;
  std::ofstream(Lib, std::ios::binary) << ptx::ScaleLib;
  CUresult AddMain =
      cuLinkAddFile(State, CU_JIT_INPUT_PTX, Main.c_str(), 0, nullptr, nullptr);
  CUresult AddLib =
      cuLinkAddFile(State, CU_JIT_INPUT_PTX, Lib.c_str(), 0, nullptr, nullptr);
  std::remove(Main.c_str());
  std::remove(Lib.c_str());
  ASSERT_CU(CUDA_SUCCESS, AddMain) << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS, AddLib) << ErrorLog;
  expectScaled(5);
}

TEST_F(PtxLink, FatBinaryOfPtxLinks) {
  std::vector<uint8_t> Fat =
      ptx::fatBinary({ptx::ptxEntry(ptx::ScaleLib, 50, ptx::Packing::Zstd)});
  ASSERT_CU(CUDA_SUCCESS, addPtx(ptx::ScaleMain, "main.ptx")) << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddData(State, CU_JIT_INPUT_FATBINARY, Fat.data(), Fat.size(),
                          "lib.fatbin", 0, nullptr, nullptr))
      << "a fat binary whose only entry is (compressed) PTX: " << ErrorLog;
  expectScaled(5);
}

TEST_F(PtxLink, PtxLinksWithTheToolkitsImage) {
  // kernels/link_main.cu (cucc -rdc for cucpu, nvcc -cubin -rdc for NVIDIA)
  // calls scale(int) and reads offset; the PTX defines them.
  std::ifstream In(CUCPU_API_LINK_MAIN, std::ios::binary);
  std::vector<char> Main((std::istreambuf_iterator<char>(In)),
                         std::istreambuf_iterator<char>());
  ASSERT_FALSE(Main.empty()) << "setup: " << CUCPU_API_LINK_MAIN;
  std::string Lib = ptx::ScaleLib;
  for (size_t At; (At = Lib.find("scale(")) != std::string::npos;)
    Lib.replace(At, 5, "_Z5scalei");
  Lib.replace(Lib.find("offset = 5"), 10, "offset = 100");
  ASSERT_CU(CUDA_SUCCESS,
            cuLinkAddData(State, CU_JIT_INPUT_CUBIN, Main.data(), Main.size(),
                          "link_main", 0, nullptr, nullptr))
      << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS, addPtx(Lib, "lib.ptx")) << ErrorLog;
  void *Cubin = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, nullptr)) << ErrorLog;
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin));
  CUfunction Apply = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Apply, Mod, "applyScale"));
  constexpr int N = 64;
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, N * sizeof(int)));
  int Count = N;
  void *Args[] = {&Out, &Count};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(Apply, 2, 1, 1, 32, 1, 1, 0, nullptr,
                                         Args, nullptr));
  int Host[N] = {};
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host, Out, sizeof(Host)));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(3 * I + 100 + 7, Host[I]) << "scale(i) + offset + bias at " << I;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxLink, ToolkitPtxIsCompiledAndLinked) {
  // The toolkit's PTX of kernels/link_main.cu and link_lib.cu (-rdc=true),
  // without the module images cucc's PTX carries: the JIT compiles both.
  std::string Text[2];
  const char *Paths[2] = {CUCPU_API_LINK_MAIN_PTX, CUCPU_API_LINK_LIB_PTX};
  for (int I = 0; I < 2; ++I) {
    std::ifstream In(Paths[I], std::ios::binary);
    Text[I].assign(std::istreambuf_iterator<char>(In),
                   std::istreambuf_iterator<char>());
    ASSERT_FALSE(Text[I].empty()) << "setup: " << Paths[I];
    Text[I] = Text[I].substr(0, Text[I].find("//cucpu-image-begin"));
  }
  ASSERT_CU(CUDA_SUCCESS, addPtx(Text[0], "link_main.ptx")) << ErrorLog;
  ASSERT_CU(CUDA_SUCCESS, addPtx(Text[1], "link_lib.ptx")) << ErrorLog;
  void *Cubin = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLinkComplete(State, &Cubin, nullptr)) << ErrorLog;
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Cubin));
  CUfunction Apply = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Apply, Mod, "applyScale"));
  constexpr int N = 64;
  CUdeviceptr Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, N * sizeof(int)));
  int Count = N;
  void *Args[] = {&Out, &Count};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(Apply, 2, 1, 1, 32, 1, 1, 0, nullptr,
                                         Args, nullptr));
  int Host[N] = {};
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Host, Out, sizeof(Host)));
  for (int I = 0; I < N; ++I)
    EXPECT_EQ(3 * I + 100 + 7, Host[I]) << "scale(i) + offset + bias at " << I;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxLink, UndefinedExternIsInvalidSource) {
  ASSERT_CU(CUDA_SUCCESS, addPtx(ptx::ScaleMain, "main.ptx")) << ErrorLog;
  void *Cubin = nullptr;
  CUresult R = cuLinkComplete(State, &Cubin, nullptr);
  report("ptx.link.undefined", int(R));
  ptx::reportText("ptx.link.undefined.error_log", ErrorLog);
  EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, R)
      << "scale and offset are defined by no input";
  EXPECT_NE(nullptr, std::strstr(ErrorLog, "scale")) << ErrorLog;
}

TEST_F(PtxLink, DefinedTwiceIsInvalidSource) {
  ASSERT_CU(CUDA_SUCCESS, addPtx(ptx::ScaleLib, "lib.ptx")) << ErrorLog;
  CUresult R = addPtx(ptx::ScaleLib, "lib_again.ptx");
  report("ptx.link.twice.add", int(R));
  if (R == CUDA_SUCCESS) {
    void *Cubin = nullptr;
    R = cuLinkComplete(State, &Cubin, nullptr);
  }
  report("ptx.link.twice", int(R));
  EXPECT_CU(CUDA_ERROR_INVALID_SOURCE, R)
      << "scale and offset are defined twice (when added or at the link)";
}

TEST_F(PtxLink, MalformedPtxIsInvalidPtx) {
  std::string Text = ptx::ScaleLib;
  Text.replace(Text.find("mul.lo.s32"), 10, "frobnicate.s32");
  CUresult R = addPtx(Text, "bad.ptx");
  ptx::reportText("ptx.link.malformed.error_log", ErrorLog);
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, R) << "an unknown instruction";
  EXPECT_NE(nullptr, std::strstr(ErrorLog, "frobnicate")) << ErrorLog;
}

} // namespace

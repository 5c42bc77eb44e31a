//===- PtxLoadingTest.cpp - PTX JIT compilation at module load ------------===//
//
// PTX handed to the driver as text (cuModuleLoad, cuModuleLoadData(Ex),
// cuLibraryLoadData) or inside a fat binary (uncompressed, LZ4 and
// Zstandard entries, as nvcc 13 writes them): JIT-compiled with the JIT
// options honoured, the logs written back, bad PTX answered with the line
// that is wrong. The PTX is written for both drivers (PtxTestKernels.h).
// CUDA_DISABLE_PTX_JIT and CUDA_FORCE_PTX_JIT are checked in a second
// process (PtxEnvProbe.cpp), since a driver reads them at cuInit.
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"
#include "PtxTestKernels.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cuapi;

namespace {

/// A module load with every log option: info and error logs, wall time and
/// verbosity, plus what a test adds.
struct JitLogs {
  char Info[8192] = {};
  char Error[8192] = {};
  std::vector<CUjit_option> Options = {
      CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_WALL_TIME,        CU_JIT_LOG_VERBOSE};
  std::vector<void *> Values = {
      Info,    reinterpret_cast<void *>(sizeof(Info)),
      Error,   reinterpret_cast<void *>(sizeof(Error)),
      nullptr, reinterpret_cast<void *>(uintptr_t(1))};

  void add(CUjit_option O, uintptr_t V) {
    Options.push_back(O);
    Values.push_back(reinterpret_cast<void *>(V));
  }
  CUresult load(CUmodule *Mod, const void *Image) {
    return cuModuleLoadDataEx(Mod, Image, unsigned(Options.size()),
                              Options.data(), Values.data());
  }
  size_t infoSize() const { return reinterpret_cast<uintptr_t>(Values[1]); }
  size_t errorSize() const { return reinterpret_cast<uintptr_t>(Values[3]); }
  float wallTime() const {
    float Ms;
    std::memcpy(&Ms, &Values[4], sizeof(Ms));
    return Ms;
  }
};

/// Expects \p Mod's \p Kernel to turn 41 into \p Expected everywhere, then
/// unloads it.
void expectRunsAndUnload(CUmodule Mod, const char *Kernel = "addOne",
                         int Expected = 42) {
  std::string Failure;
  std::vector<int> Out = ptx::runOver100(Mod, Kernel, 41, Failure);
  ASSERT_FALSE(Out.empty()) << Failure;
  for (size_t I = 0; I < Out.size(); ++I)
    ASSERT_EQ(Expected, Out[I]) << "element " << I;
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

/// The 1-based line of \p Text on which \p Needle starts.
int lineOf(const std::string &Text, const char *Needle) {
  size_t At = Text.find(Needle);
  return 1 + int(std::count(Text.begin(), Text.begin() + At, '\n'));
}

/// \p Text with a comment that makes it unlike any text loaded before.
std::string uniqueText(const char *Text) {
  return std::string(Text) + "// " + std::to_string(getpid()) + " " +
         std::to_string(
             std::chrono::steady_clock::now().time_since_epoch().count()) +
         "\n";
}

using PtxLoading = DriverTest;

TEST_F(PtxLoading, TextWithJitOptionsLoadsAndRuns) {
  JitLogs Logs;
  Logs.add(CU_JIT_OPTIMIZATION_LEVEL, 4);
  Logs.add(CU_JIT_TARGET_FROM_CUCONTEXT, 0);
  Logs.add(CU_JIT_GENERATE_LINE_INFO, 1);
  Logs.add(CU_JIT_CACHE_MODE, CU_JIT_CACHE_OPTION_CA);
  Logs.add(CU_JIT_FALLBACK_STRATEGY, CU_PREFER_PTX);
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, ptx::AddOne)) << Logs.Error;
  report("ptx.load.info_size", Logs.infoSize());
  report("ptx.load.error_size", Logs.errorSize());
  ptx::reportText("ptx.load.info_log", Logs.Info);
  EXPECT_GE(Logs.wallTime(), 0.0f) << "CU_JIT_WALL_TIME: a float of ms";
  EXPECT_EQ(std::strlen(Logs.Info), Logs.infoSize())
      << "the info log's length is written back (without its NUL)";
  EXPECT_EQ(0u, Logs.errorSize()) << "no error: an empty error log";
  EXPECT_STREQ("", Logs.Error);
  expectRunsAndUnload(Mod);
}

TEST_F(PtxLoading, VerboseInfoLogNamesTheKernel) {
  JitLogs Logs;
  CUmodule Mod = nullptr;
  // Text no earlier run compiled: a driver's compute cache may answer text
  // it has compiled before without compiling (and logging) anything.
  std::string Text = uniqueText(ptx::AddOne);
  ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, Text.c_str())) << Logs.Error;
  ptx::reportText("ptx.verbose.info_log", Logs.Info);
  EXPECT_NE(nullptr, std::strstr(Logs.Info, "addOne"))
      << "CU_JIT_LOG_VERBOSE: the log names the entry function: " << Logs.Info;
  EXPECT_EQ(std::strlen(Logs.Info), Logs.infoSize())
      << "the size written back is the log's length";
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxLoading, EveryOptimizationLevelRuns) {
  for (uintptr_t Level = 0; Level <= 4; ++Level) {
    SCOPED_TRACE("CU_JIT_OPTIMIZATION_LEVEL " + std::to_string(Level));
    JitLogs Logs;
    Logs.add(CU_JIT_OPTIMIZATION_LEVEL, Level);
    CUmodule Mod = nullptr;
    ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, ptx::AddOne)) << Logs.Error;
    expectRunsAndUnload(Mod);
  }
}

TEST_F(PtxLoading, OptimizationLevelAboveFourIsTheHighest) {
  JitLogs Logs;
  Logs.add(CU_JIT_OPTIMIZATION_LEVEL, 5);
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, ptx::AddOne))
      << "observed on NVIDIA: level 5 loads (cuda.h documents 0 to 4)";
  expectRunsAndUnload(Mod);
}

TEST_F(PtxLoading, DebugInfoIsRefusedWithAnOptimizationLevel) {
  JitLogs Optimized;
  Optimized.add(CU_JIT_GENERATE_DEBUG_INFO, 1);
  Optimized.add(CU_JIT_OPTIMIZATION_LEVEL, 4);
  CUmodule Mod = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, Optimized.load(&Mod, ptx::AddOne))
      << "observed on NVIDIA: \"Optimized debugging not supported\"";
  EXPECT_GT(std::strlen(Optimized.Error), 0u) << "the error log says why";
  for (bool GiveLevelZero : {false, true}) {
    SCOPED_TRACE(GiveLevelZero ? "level 0" : "no level");
    JitLogs Logs;
    Logs.add(CU_JIT_GENERATE_DEBUG_INFO, 1);
    if (GiveLevelZero)
      Logs.add(CU_JIT_OPTIMIZATION_LEVEL, 0);
    ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, ptx::AddOne))
        << "observed on NVIDIA: debug information alone loads: " << Logs.Error;
    expectRunsAndUnload(Mod);
  }
}

TEST_F(PtxLoading, TargetOfTheDeviceLoads) {
  int Major = 0, Minor = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev));
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev));
  JitLogs Logs;
  Logs.add(CU_JIT_TARGET, uintptr_t(Major * 10 + Minor));
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, ptx::AddOne))
      << "CU_JIT_TARGET of the device's own compute capability: " << Logs.Error;
  expectRunsAndUnload(Mod);
}

TEST_F(PtxLoading, TargetOlderThanThePtxIsRefused) {
  std::string Text = ptx::withTarget(ptx::AddOne, "sm_75");
  JitLogs Logs;
  Logs.add(CU_JIT_TARGET, CU_TARGET_COMPUTE_52);
  CUmodule Mod = nullptr;
  CUresult R = Logs.load(&Mod, Text.c_str());
  report("ptx.target_52_for_sm_75", int(R));
  ptx::reportText("ptx.target_52_for_sm_75.error_log", Logs.Error);
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, R)
      << "ptxas refuses .target sm_75 for compute_52";
  EXPECT_GT(std::strlen(Logs.Error), 0u) << "the error log says why";
  if (R == CUDA_SUCCESS)
    cuModuleUnload(Mod);
}

TEST_F(PtxLoading, UnknownTargetValueIsRejected) {
  JitLogs Logs;
  Logs.add(CU_JIT_TARGET, 12345);
  CUmodule Mod = nullptr;
  CUresult R = Logs.load(&Mod, ptx::AddOne);
  report("ptx.target_12345", int(R));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, R) << "12345 is no CUjit_target";
  if (R == CUDA_SUCCESS)
    cuModuleUnload(Mod);
}

TEST_F(PtxLoading, MalformedPtxNamesTheLineInTheErrorLog) {
  std::string Text = ptx::AddOne;
  size_t At = Text.find("add.s32");
  ASSERT_NE(std::string::npos, At) << "setup";
  Text.replace(At, 7, "frobnicate.s32");
  int Line = lineOf(Text, "frobnicate");
  JitLogs Logs;
  CUmodule Mod = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, Logs.load(&Mod, Text.c_str()))
      << "an unknown instruction";
  ptx::reportText("ptx.malformed.error_log", Logs.Error);
  report("ptx.malformed.error_size", Logs.errorSize());
  std::string Wanted = "line " + std::to_string(Line);
  EXPECT_NE(nullptr, std::strstr(Logs.Error, Wanted.c_str()))
      << "the error log names " << Wanted << ": " << Logs.Error;
  EXPECT_NE(nullptr, std::strstr(Logs.Error, "frobnicate"))
      << "and the construct: " << Logs.Error;
  EXPECT_EQ(std::strlen(Logs.Error), Logs.errorSize())
      << "the error log's length is written back (without its NUL)";
}

TEST_F(PtxLoading, ErrorLogStopsAtItsBuffer) {
  std::string Text = ptx::AddOne;
  Text.replace(Text.find("add.s32"), 7, "frobnicate.s32");
  char Error[32];
  std::memset(Error, 'Z', sizeof(Error));
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Error, reinterpret_cast<void *>(uintptr_t(8))};
  CUmodule Mod = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_PTX,
            cuModuleLoadDataEx(&Mod, Text.c_str(), 2, Options, Values));
  size_t Written = reinterpret_cast<uintptr_t>(Values[1]);
  report("ptx.small_error_log.size", Written);
  EXPECT_LE(Written, 8u) << "at most the buffer's size is reported";
  EXPECT_LT(std::strlen(Error), 8u) << "NUL-terminated inside the buffer";
  for (size_t I = 8; I < sizeof(Error); ++I)
    ASSERT_EQ('Z', Error[I]) << "nothing written past the buffer, byte " << I;
}

TEST_F(PtxLoading, NewerPtxVersionIsUnsupported) {
  std::string Text = ptx::AddOne;
  Text.replace(Text.find(".version 7.0"), 12, ".version 9.9");
  JitLogs Logs;
  CUmodule Mod = nullptr;
  CUresult R = Logs.load(&Mod, Text.c_str());
  ptx::reportText("ptx.version_9_9.error_log", Logs.Error);
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, R)
      << "PTX ISA 9.9 is newer than the driver's";
  if (R == CUDA_SUCCESS)
    cuModuleUnload(Mod);
}

TEST_F(PtxLoading, UndefinedExternIsRefused) {
  JitLogs Logs;
  CUmodule Mod = nullptr;
  CUresult R = Logs.load(&Mod, ptx::ScaleMain);
  report("ptx.undefined_extern", int(R));
  ptx::reportText("ptx.undefined_extern.error_log", Logs.Error);
  EXPECT_CU(CUDA_ERROR_INVALID_PTX, R)
      << "scale and offset are .extern and defined nowhere";
  EXPECT_NE(nullptr, std::strstr(Logs.Error, "scale")) << Logs.Error;
  if (R == CUDA_SUCCESS)
    cuModuleUnload(Mod);
}

TEST_F(PtxLoading, TextWithoutFunctionsLoads) {
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, ".version 7.0\n.target sm_50\n"
                                                 ".address_size 64\n"))
      << "directives alone are a module without kernels";
  unsigned Count = 99;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&Count, Mod));
  EXPECT_EQ(0u, Count);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
}

TEST_F(PtxLoading, FileLoadsAndRuns) {
  std::string Path = "/tmp/cucpu-api-ptx-" + std::to_string(getpid()) + ".ptx";
  {
    std::ofstream Out(Path, std::ios::binary);
    Out << ptx::AddOne;
  }
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoad(&Mod, Path.c_str());
  std::remove(Path.c_str());
  ASSERT_CU(CUDA_SUCCESS, R) << "cuModuleLoad of a .ptx file";
  expectRunsAndUnload(Mod);
}

TEST_F(PtxLoading, LibraryOfPtxLoadsAndRuns) {
  CUlibrary Lib = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryLoadData(&Lib, ptx::AddOne, nullptr, nullptr,
                                            0, nullptr, nullptr, 0));
  CUkernel Kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&Kernel, Lib, "addOne"));
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetModule(&Mod, Lib));
  std::string Failure;
  std::vector<int> Out = ptx::runOver100(Mod, "addOne", 41, Failure);
  ASSERT_FALSE(Out.empty()) << Failure;
  EXPECT_EQ(42, Out[99]);
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(Lib));
}

TEST_F(PtxLoading, LibraryOfMalformedPtxWritesTheErrorLog) {
  std::string Text = ptx::AddOne;
  Text.replace(Text.find("add.s32"), 7, "frobnicate.s32");
  char Error[1024] = {};
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Error, reinterpret_cast<void *>(sizeof(Error))};
  CUlibrary Lib = nullptr;
  CUresult R = cuLibraryLoadData(&Lib, Text.c_str(), Options, Values, 2,
                                 nullptr, nullptr, 0);
  if (isNvidia()) {
    // NVIDIA loads libraries lazily: the PTX is compiled, and refused, when
    // a kernel is first asked for.
    ASSERT_CU(CUDA_SUCCESS, R) << "observed on NVIDIA: lazy loading";
    CUkernel Kernel = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX,
              cuLibraryGetKernel(&Kernel, Lib, "addOne"))
        << "observed on NVIDIA: the compilation fails here";
    EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(Lib));
  } else {
    // Deviation (docs/conformance.md): cucpu compiles at load, so the
    // failure and its log come from cuLibraryLoadData.
    EXPECT_CU(CUDA_ERROR_INVALID_PTX, R) << "an unknown instruction";
    EXPECT_NE(nullptr, std::strstr(Error, "frobnicate")) << Error;
  }
}

// --- Fat binaries ----------------------------------------------------------

using PtxFatBinary = DriverTest;

TEST_F(PtxFatBinary, PtxEntryLoadsAndRuns) {
  std::vector<uint8_t> Fat = ptx::fatBinary({ptx::ptxEntry(ptx::AddOne, 50)});
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Fat.data()));
  expectRunsAndUnload(Mod);
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&Mod, Fat.data()));
  expectRunsAndUnload(Mod);
  JitLogs Logs;
  ASSERT_CU(CUDA_SUCCESS, Logs.load(&Mod, Fat.data())) << Logs.Error;
  ptx::reportText("ptx.fatbin.info_log", Logs.Info);
  expectRunsAndUnload(Mod);
}

TEST_F(PtxFatBinary, Lz4EntryLoadsAndRuns) {
  std::vector<uint8_t> Fat =
      ptx::fatBinary({ptx::ptxEntry(ptx::AddOne, 50, ptx::Packing::Lz4)});
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&Mod, Fat.data()))
      << "an LZ4 entry (flag 0x2000, nvcc --compress-mode=speed)";
  expectRunsAndUnload(Mod);
}

TEST_F(PtxFatBinary, ZstdEntryLoadsAndRuns) {
  std::vector<uint8_t> Fat =
      ptx::fatBinary({ptx::ptxEntry(ptx::AddOne, 50, ptx::Packing::Zstd)});
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadFatBinary(&Mod, Fat.data()))
      << "a Zstandard entry (flag 0x8000, nvcc 13's default)";
  expectRunsAndUnload(Mod);
}

TEST_F(PtxFatBinary, NewestPtxTheDeviceRunsIsChosen) {
  // addOne adds 1 for sm_50, 2 for sm_52 and 3 for sm_100: both devices
  // run sm_52, neither sm_100.
  auto Adding = [](int N, const char *Target) {
    std::string Text = ptx::withTarget(ptx::AddOne, Target);
    Text.replace(Text.find("%r6, 1;"), 7, "%r6, " + std::to_string(N) + ";");
    if (std::strcmp(Target, "sm_100") == 0)
      Text.replace(Text.find(".version 7.0"), 12, ".version 8.6");
    return Text;
  };
  std::vector<uint8_t> Fat = ptx::fatBinary(
      {ptx::ptxEntry(Adding(1, "sm_50"), 50),
       ptx::ptxEntry(Adding(3, "sm_100"), 100, ptx::Packing::Zstd),
       ptx::ptxEntry(Adding(2, "sm_52"), 52, ptx::Packing::Lz4)});
  CUmodule Mod = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Fat.data()));
  expectRunsAndUnload(Mod, "addOne", 43);
}

TEST_F(PtxFatBinary, OnlyPtxForNewerDevices) {
  std::string Text = ptx::withTarget(ptx::AddOne, "sm_100");
  Text.replace(Text.find(".version 7.0"), 12, ".version 8.6");
  std::vector<uint8_t> Fat = ptx::fatBinary({ptx::ptxEntry(Text, 100)});
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadData(&Mod, Fat.data());
  report("ptx.fatbin.only_sm_100", int(R));
  if (isNvidia()) {
    EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, R)
        << "an H200 (9.0) cannot run compute_100 PTX";
  } else {
    // Deviation (docs/conformance.md): every target is the same to a CPU,
    // so PTX for newer devices is compiled rather than refused.
    EXPECT_CU(CUDA_SUCCESS, R) << "cucpu compiles PTX of any target";
  }
  if (R == CUDA_SUCCESS)
    expectRunsAndUnload(Mod);
}

TEST_F(PtxFatBinary, SassOnlyIsNoBinaryForGpu) {
  std::vector<uint8_t> Fat =
      ptx::fatBinary({{2, 20, ptx::sassOnlyCubin(), ptx::Packing::None}});
  CUmodule Mod = nullptr;
  EXPECT_CU(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&Mod, Fat.data()))
      << "machine code for another GPU and no PTX";
}

TEST_F(PtxFatBinary, MalformedLz4EntryIsRejected) {
#if !CUCPU_ONLY
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver crashes (segfault) on this "
                  "LZ4 block";
#endif
  std::vector<uint8_t> Fat =
      ptx::fatBinary({ptx::ptxEntry(ptx::AddOne, 50, ptx::Packing::Lz4)});
  // The block's first token announces 15+ literals; make it a match whose
  // offset reaches before the start of the output.
  size_t Payload = 16 + 80;
  Fat[Payload] = 0x1f; // 1 literal, then a match
  Fat[Payload + 2] = 0xff;
  Fat[Payload + 3] = 0x7f; // offset 32767
  CUmodule Mod = nullptr;
  CUresult R = cuModuleLoadData(&Mod, Fat.data());
  report("ptx.fatbin.bad_lz4", int(R));
  EXPECT_NE(CUDA_SUCCESS, R) << "a corrupt compressed entry does not load";
  if (!isNvidia()) {
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, R) << "cucpu: a malformed image";
  }
  if (R == CUDA_SUCCESS)
    cuModuleUnload(Mod);
}

// --- CUDA_DISABLE_PTX_JIT and CUDA_FORCE_PTX_JIT ---------------------------

/// What the probe (PtxEnvProbe.cpp) answered for \p Mode with \p Env set:
/// "result=<CUresult> jit=<0|1> ran=<0|1>".
std::string probe(const char *Env, const char *Mode) {
  // Without the compute cache: a driver may load PTX it compiled before
  // from there even with CUDA_DISABLE_PTX_JIT=1, and log nothing.
  std::string Command = std::string("env CUDA_CACHE_DISABLE=1 ") + Env +
                        " " CUCPU_API_PTX_PROBE " " + Mode + " 2>&1";
  std::string Out;
  if (FILE *P = popen(Command.c_str(), "r")) {
    std::array<char, 256> Buf;
    while (std::fgets(Buf.data(), Buf.size(), P))
      Out += Buf.data();
    pclose(P);
  }
  while (!Out.empty() && Out.back() == '\n')
    Out.pop_back();
  ptx::reportText(std::string("ptx.env.") + Env + "." + Mode, Out.c_str());
  return Out;
}

using PtxJitEnvironment = DriverTest;

TEST_F(PtxJitEnvironment, DisabledJitRefusesPtxOnly) {
  EXPECT_EQ("result=0 jit=1 ran=1", probe("CUDA_DISABLE_PTX_JIT=0", "ptx"))
      << "the probe works with the JIT enabled";
  EXPECT_EQ("result=223 jit=0 ran=0",
            probe("CUDA_DISABLE_PTX_JIT=1", "fatbin-ptx"))
      << "a fat binary of PTX only: CUDA_ERROR_JIT_COMPILATION_DISABLED";
  EXPECT_EQ("result=223 jit=0 ran=0", probe("CUDA_DISABLE_PTX_JIT=1", "ptx"))
      << "PTX text: CUDA_ERROR_JIT_COMPILATION_DISABLED";
  EXPECT_EQ("result=0 jit=0 ran=1", probe("CUDA_DISABLE_PTX_JIT=1", "binary"))
      << "a binary for the device needs no JIT";
  // Deviation (docs/conformance.md): the image cucc's PTX carries is a
  // binary for cucpu; NVIDIA has only the PTX.
  EXPECT_EQ(isNvidia() ? "result=223 jit=0 ran=0" : "result=0 jit=0 ran=1",
            probe("CUDA_DISABLE_PTX_JIT=1", "carried-ptx"));
}

TEST_F(PtxJitEnvironment, ForcedJitCompilesThePtx) {
  EXPECT_EQ(isNvidia() ? "result=0 jit=1 ran=1" : "result=0 jit=0 ran=1",
            probe("CUDA_FORCE_PTX_JIT=0", "carried-ptx"))
      << "cucpu loads the image cucc's PTX carries";
  EXPECT_EQ("result=0 jit=1 ran=1",
            probe("CUDA_FORCE_PTX_JIT=1", "carried-ptx"))
      << "forced: the PTX text is JIT-compiled, not the image it carries";
  EXPECT_EQ("result=0 jit=1 ran=1", probe("CUDA_FORCE_PTX_JIT=1", "fatbin-ptx"))
      << "a fat binary of PTX";
  EXPECT_EQ("result=0 jit=0 ran=1", probe("CUDA_FORCE_PTX_JIT=1", "binary"))
      << "observed on NVIDIA: a binary without PTX still loads";
  EXPECT_EQ("result=223 jit=0 ran=0",
            probe("CUDA_FORCE_PTX_JIT=1 CUDA_DISABLE_PTX_JIT=1", "ptx"))
      << "observed on NVIDIA: disabling wins over forcing";
}

} // namespace

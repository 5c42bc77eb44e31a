//===- ProcAddressTest.cpp - cuGetProcAddress version and stream choice ---===//
//
// cuGetProcAddress(_v2) against driver/api/ProcVersions.def and the symbols
// of the loaded libcuda: version selection, stream flags, not-found and
// too-old cases, argument checks, and use before cuInit.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

/// The CUDA 11.3 form, which cuda.h hides behind cuGetProcAddress_v2.
using GetProcAddressV1 = CUresult (*)(const char *, void **, int, cuuint64_t);

struct ProcRow {
  std::string Base;
  int Version;
  std::string Symbol;
  int PtVersion;
  std::string PtSymbol;
};

// Arguments are only stringized, so cuda.h's renaming macros do not apply.
const std::vector<ProcRow> &procRows() {
  static const std::vector<ProcRow> Rows = {
#define CU_PROC(Base, Version, Symbol) {#Base, Version, #Symbol, 0, ""},
#define CU_PROC_PT(Base, Version, Symbol, PtVersion, PtSymbol)                 \
  {#Base, Version, #Symbol, PtVersion, #PtSymbol},
#include "api/ProcVersions.def"
#undef CU_PROC
#undef CU_PROC_PT
  };
  return Rows;
}

const std::vector<std::string> &exportedNames() {
  static const std::vector<std::string> Names = {
#define CU_IMPL(Name) #Name,
#define CU_ALIAS(Name, Target) #Name,
#define CU_LEGACY(Name) #Name,
#define CU_TODO(Name) #Name,
#include "api/Exports.def"
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO
  };
  return Names;
}

/// Our libcuda.so.1, loaded on its own: this test binary links the driver's
/// objects statically, and the addresses cuGetProcAddress hands out must be
/// those of the shared library's exported symbols, so everything here goes
/// through the shared library.
void *libcuda() {
#ifdef CUCPU_LIBCUDA_PATH
  static void *Handle = dlopen(CUCPU_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  return Handle;
#else
  return nullptr;
#endif
}

/// The address of \p Name exported by our libcuda.so.1.
void *sym(const std::string &Name) {
  return libcuda() ? dlsym(libcuda(), Name.c_str()) : nullptr;
}

/// cuGetProcAddress_v2 of the shared library.
CUresult getProcAddress(const char *Symbol, void **Pfn, int Version,
                        cuuint64_t Flags,
                        CUdriverProcAddressQueryResult *Status) {
  static auto Fn = reinterpret_cast<decltype(&cuGetProcAddress_v2)>(
      sym("cuGetProcAddress_v2"));
  if (!Fn) {
    ADD_FAILURE() << "cuGetProcAddress_v2 not found in the shared library";
    return CUDA_ERROR_UNKNOWN;
  }
  return Fn(Symbol, Pfn, Version, Flags, Status);
}

/// Runs cuGetProcAddress_v2 and returns the pointer; status and result go to
/// the out-parameters.
void *get(const char *Symbol, int Version, cuuint64_t Flags, CUresult &Result,
          CUdriverProcAddressQueryResult &Status) {
  void *Fn = reinterpret_cast<void *>(0x1); // Must be overwritten.
  Status = static_cast<CUdriverProcAddressQueryResult>(-1);
  Result = getProcAddress(Symbol, &Fn, Version, Flags, &Status);
  return Fn;
}

/// The pointer for a lookup that must succeed.
void *getOk(const char *Symbol, int Version,
            cuuint64_t Flags = CU_GET_PROC_ADDRESS_DEFAULT) {
  CUresult Result;
  CUdriverProcAddressQueryResult Status;
  void *Fn = get(Symbol, Version, Flags, Result, Status);
  EXPECT_EQ(Result, CUDA_SUCCESS) << Symbol << " at " << Version;
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_SUCCESS) << Symbol << " at " << Version;
  return Fn;
}

TEST(ProcAddressTest, SharedLibraryLoads) {
#ifndef CUCPU_LIBCUDA_PATH
  FAIL() << "CUCPU_LIBCUDA_PATH is not defined: tests/unit/CMakeLists.txt "
            "must define it to the path of the built libcuda.so.1";
#else
  ASSERT_NE(libcuda(), nullptr)
      << "cannot load " << CUCPU_LIBCUDA_PATH << ": " << dlerror();
#endif
}

TEST(ProcAddressTest, PicksTheNewestVersionNotAboveTheRequest) {
  EXPECT_EQ(getOk("cuMemAlloc", 2000), sym("cuMemAlloc"))
      << "before CUDA 3.2 the 32-bit form";
  EXPECT_EQ(getOk("cuMemAlloc", 3010), sym("cuMemAlloc"));
  EXPECT_EQ(getOk("cuMemAlloc", 3020), sym("cuMemAlloc_v2"));
  EXPECT_EQ(getOk("cuMemAlloc", CUDA_VERSION), sym("cuMemAlloc_v2"));

  EXPECT_EQ(getOk("cuCtxCreate", 2000), sym("cuCtxCreate"));
  EXPECT_EQ(getOk("cuCtxCreate", 3020), sym("cuCtxCreate_v2"));
  EXPECT_EQ(getOk("cuCtxCreate", 11030), sym("cuCtxCreate_v2"));
  EXPECT_EQ(getOk("cuCtxCreate", 11040), sym("cuCtxCreate_v3"));
  EXPECT_EQ(getOk("cuCtxCreate", 12040), sym("cuCtxCreate_v3"));
  EXPECT_EQ(getOk("cuCtxCreate", 12050), sym("cuCtxCreate_v4"));
  EXPECT_EQ(getOk("cuCtxCreate", CUDA_VERSION), sym("cuCtxCreate_v4"));

  EXPECT_EQ(getOk("cuGetProcAddress", 11030), sym("cuGetProcAddress"));
  EXPECT_EQ(getOk("cuGetProcAddress", 12000), sym("cuGetProcAddress_v2"));
  EXPECT_EQ(getOk("cuTexRefSetAddress2D", 3020),
            sym("cuTexRefSetAddress2D_v2"));
  EXPECT_EQ(getOk("cuTexRefSetAddress2D", 4010),
            sym("cuTexRefSetAddress2D_v3"));
  EXPECT_EQ(getOk("cuInit", 2000), sym("cuInit"));
  EXPECT_EQ(getOk("cuInit", CUDA_VERSION), sym("cuInit"));
}

TEST(ProcAddressTest, NamesDeclaredWithALiteralV2Suffix) {
  EXPECT_EQ(getOk("cuCtxSynchronize", 12090), sym("cuCtxSynchronize"));
  EXPECT_EQ(getOk("cuCtxSynchronize", 13000), sym("cuCtxSynchronize_v2"));
  EXPECT_EQ(getOk("cuCtxSynchronize_v2", 13000), sym("cuCtxSynchronize_v2"));
  EXPECT_EQ(getOk("cuCtxGetDevice_v2", 13000), sym("cuCtxGetDevice_v2"));
  EXPECT_EQ(getOk("cuStreamGetCtx_v2", 12050), sym("cuStreamGetCtx_v2"));
}

TEST(ProcAddressTest, StreamFlagsChoosePerThreadVariants) {
  const int V = CUDA_VERSION;
  EXPECT_EQ(getOk("cuMemcpyHtoD", V, CU_GET_PROC_ADDRESS_DEFAULT),
            sym("cuMemcpyHtoD_v2"))
      << "DEFAULT means legacy stream";
  EXPECT_EQ(getOk("cuMemcpyHtoD", V, CU_GET_PROC_ADDRESS_LEGACY_STREAM),
            sym("cuMemcpyHtoD_v2"));
  EXPECT_EQ(
      getOk("cuMemcpyHtoD", V, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
      sym("cuMemcpyHtoD_v2_ptds"));
  EXPECT_EQ(getOk("cuMemcpyHtoD", 3020,
                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            sym("cuMemcpyHtoD_v2"))
      << "before CUDA 7.0 there was no per-thread variant: legacy it is";
  EXPECT_EQ(
      getOk("cuStreamQuery", V, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
      sym("cuStreamQuery_ptsz"));
  EXPECT_EQ(getOk("cuStreamQuery", V, CU_GET_PROC_ADDRESS_LEGACY_STREAM),
            sym("cuStreamQuery"));
  EXPECT_EQ(getOk("cuStreamBeginCapture", 10000,
                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            sym("cuStreamBeginCapture_ptsz"));
  EXPECT_EQ(getOk("cuStreamBeginCapture", 10010,
                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            sym("cuStreamBeginCapture_v2_ptsz"));
  EXPECT_EQ(
      getOk("cuMemAlloc", V, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
      sym("cuMemAlloc_v2"))
      << "a function without a per-thread variant gives its only form";
}

// As NVIDIA's driver (tests/api/nvidia-results): the form with a status
// answers CUDA_SUCCESS with a NULL function and the reason in the status.
TEST(ProcAddressTest, UnknownSymbolIsNotFound) {
  CUresult Result;
  CUdriverProcAddressQueryResult Status;
  EXPECT_EQ(get("cuNoSuchFunction", CUDA_VERSION, 0, Result, Status), nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);

  // The symbol is the base name: versioned spellings are not looked up.
  EXPECT_EQ(get("cuMemAlloc_v2", CUDA_VERSION, 0, Result, Status), nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  EXPECT_EQ(get("cuStreamQuery_ptsz", CUDA_VERSION, 0, Result, Status),
            nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);
  EXPECT_EQ(get("", CUDA_VERSION, 0, Result, Status), nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);

  // Status is optional; the answer is still success with a NULL function.
  void *Fn = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(getProcAddress("cuNoSuchFunction", &Fn, CUDA_VERSION, 0, nullptr),
            CUDA_SUCCESS);
  EXPECT_EQ(Fn, nullptr);
}

TEST(ProcAddressTest, TooOldVersionIsNotSufficient) {
  CUresult Result;
  CUdriverProcAddressQueryResult Status;
  EXPECT_EQ(get("cuCtxCreate", 1000, 0, Result, Status), nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);

  EXPECT_EQ(get("cuGetProcAddress", 11020, 0, Result, Status), nullptr);
  EXPECT_EQ(Result, CUDA_SUCCESS);
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);

  EXPECT_EQ(get("cuStreamGetDevice", 12070, 0, Result, Status), nullptr);
  EXPECT_EQ(Status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  EXPECT_EQ(getOk("cuStreamGetDevice", 12080), sym("cuStreamGetDevice"));
}

TEST(ProcAddressTest, InvalidArguments) {
  void *Fn = reinterpret_cast<void *>(0x1);
  CUdriverProcAddressQueryResult Status;
  EXPECT_EQ(getProcAddress(nullptr, &Fn, CUDA_VERSION, 0, &Status),
            CUDA_ERROR_INVALID_VALUE)
      << "null symbol";
  EXPECT_EQ(Fn, nullptr);
  EXPECT_EQ(getProcAddress("cuInit", nullptr, CUDA_VERSION, 0, &Status),
            CUDA_ERROR_INVALID_VALUE)
      << "null output";
  for (cuuint64_t Flags : {cuuint64_t(3), cuuint64_t(4), cuuint64_t(1) << 40}) {
    Fn = reinterpret_cast<void *>(0x1);
    EXPECT_EQ(getProcAddress("cuInit", &Fn, CUDA_VERSION, Flags, &Status),
              CUDA_ERROR_INVALID_VALUE)
        << "flags " << Flags;
    EXPECT_EQ(Fn, nullptr);
  }
  // CUDA 13.0: a version newer than the driver's is an invalid value.
  auto DriverGetVersion = reinterpret_cast<decltype(&cuDriverGetVersion)>(
      sym("cuDriverGetVersion"));
  ASSERT_NE(DriverGetVersion, nullptr);
  int Driver = 0;
  ASSERT_EQ(DriverGetVersion(&Driver), CUDA_SUCCESS);
  EXPECT_EQ(getProcAddress("cuInit", &Fn, Driver + 10, 0, &Status),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(Fn, nullptr);
}

TEST(ProcAddressTest, VersionOneForm) {
  auto GetV1 = reinterpret_cast<GetProcAddressV1>(sym("cuGetProcAddress"));
  ASSERT_NE(GetV1, nullptr);
  void *Fn = nullptr;
  EXPECT_EQ(GetV1("cuMemAlloc", &Fn, 3020, 0), CUDA_SUCCESS);
  EXPECT_EQ(Fn, sym("cuMemAlloc_v2"));
  EXPECT_EQ(GetV1("cuMemcpyDtoH", &Fn, 7000,
                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            CUDA_SUCCESS);
  EXPECT_EQ(Fn, sym("cuMemcpyDtoH_v2_ptds"));
  EXPECT_EQ(GetV1("cuNoSuchFunction", &Fn, 3020, 0), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(Fn, nullptr);
  EXPECT_EQ(GetV1("cuCtxCreate", nullptr, 1000, 0), CUDA_ERROR_INVALID_VALUE)
      << "null output";
  EXPECT_EQ(GetV1("cuCtxCreate", &Fn, 1000, 0), CUDA_ERROR_NOT_FOUND)
      << "too old a version is not found in the first form";
  EXPECT_EQ(Fn, nullptr);
  EXPECT_EQ(GetV1("cuInit", &Fn, CUDA_VERSION, 3), CUDA_ERROR_INVALID_VALUE);
}

TEST(ProcAddressTest, ReturnedPointersWork) {
  auto GetVersion = reinterpret_cast<decltype(&cuDriverGetVersion)>(
      getOk("cuDriverGetVersion", CUDA_VERSION));
  ASSERT_NE(GetVersion, nullptr);
  int Version = 0;
  EXPECT_EQ(GetVersion(&Version), CUDA_SUCCESS);
  EXPECT_EQ(Version, CUDA_VERSION);

  auto GetName = reinterpret_cast<decltype(&cuGetErrorName)>(
      getOk("cuGetErrorName", CUDA_VERSION));
  ASSERT_NE(GetName, nullptr);
  const char *Name = nullptr;
  EXPECT_EQ(GetName(CUDA_ERROR_NOT_FOUND, &Name), CUDA_SUCCESS);
  EXPECT_STREQ(Name, "CUDA_ERROR_NOT_FOUND");
}

/// Runs in a fresh process: looks cuInit up before initializing, then calls
/// it through the pointer. Exits 0 on success.
[[noreturn]] void lookUpCuInitThenInitialize() {
  void *Fn = nullptr;
  CUdriverProcAddressQueryResult Status;
  if (getProcAddress("cuInit", &Fn, CUDA_VERSION, 0, &Status) != CUDA_SUCCESS ||
      Fn != sym("cuInit") || Status != CU_GET_PROC_ADDRESS_SUCCESS)
    std::exit(1);
  auto Init = reinterpret_cast<decltype(&cuInit)>(Fn);
  std::exit(Init(0) == CUDA_SUCCESS ? 0 : 2);
}

TEST(ProcAddressTest, WorksBeforeCuInit) {
  // A fresh process, since cuInit cannot be undone: the CUDA runtime fetches
  // every entry point, cuInit included, before initializing the driver.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(lookUpCuInitThenInitialize(), ::testing::ExitedWithCode(0), "");
}

TEST(ProcAddressTest, TableIsConsistentWithTheExports) {
  std::set<std::string> Exported(exportedNames().begin(),
                                 exportedNames().end());
  std::set<std::string> Reachable;
  std::map<std::string, int> LastVersion;
  for (const ProcRow &R : procRows()) {
    EXPECT_TRUE(Exported.count(R.Symbol))
        << R.Symbol << " (for " << R.Base << ") is not in Exports.def";
    Reachable.insert(R.Symbol);
    if (!R.PtSymbol.empty()) {
      EXPECT_TRUE(Exported.count(R.PtSymbol))
          << R.PtSymbol << " (for " << R.Base << ") is not in Exports.def";
      EXPECT_GE(R.PtVersion, R.Version) << R.PtSymbol;
      Reachable.insert(R.PtSymbol);
    }
    auto [It, New] = LastVersion.try_emplace(R.Base, R.Version);
    if (!New) {
      EXPECT_LT(It->second, R.Version)
          << R.Base << ": rows must have strictly increasing versions";
      It->second = R.Version;
    }
  }
  for (const std::string &Name : Exported)
    EXPECT_TRUE(Reachable.count(Name) || Name.rfind("cucpu", 0) == 0)
        << Name
        << " is exported but cuGetProcAddress can never return it "
           "(only cucpu's own additions are looked up with dlsym instead)";
}

TEST(ProcAddressTest, EveryRowIsWhatTheLookupReturns) {
  const std::vector<ProcRow> &Rows = procRows();
  for (size_t I = 0; I < Rows.size(); ++I) {
    const ProcRow &R = Rows[I];
    const bool HasNext = I + 1 < Rows.size() && Rows[I + 1].Base == R.Base;
    const int NextVersion = HasNext ? Rows[I + 1].Version : 1 << 30;
    if (R.Version > CUDA_VERSION)
      continue;
    void *Want = sym(R.Symbol);
    ASSERT_NE(Want, nullptr) << R.Symbol;
    EXPECT_EQ(
        getOk(R.Base.c_str(), R.Version, CU_GET_PROC_ADDRESS_LEGACY_STREAM),
        Want)
        << R.Base << " at " << R.Version;
    EXPECT_EQ(
        getOk(R.Base.c_str(),
              NextVersion - 10 > CUDA_VERSION ? CUDA_VERSION : NextVersion - 10,
              CU_GET_PROC_ADDRESS_LEGACY_STREAM),
        Want)
        << R.Base << " just before its next version";
    if (!R.PtSymbol.empty() && R.PtVersion < NextVersion &&
        R.PtVersion <= CUDA_VERSION) {
      EXPECT_EQ(getOk(R.Base.c_str(), R.PtVersion,
                      CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
                sym(R.PtSymbol))
          << R.Base << " per-thread at " << R.PtVersion;
    }
  }
}

} // namespace

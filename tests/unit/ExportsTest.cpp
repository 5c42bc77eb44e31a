//===- ExportsTest.cpp - Every libcuda.so.1 name exists and answers -------===//
//
// Checks driver/api/Exports.def against NVIDIA's export list and against the
// built library: every name resolves in our libcuda.so.1, unimplemented names
// answer CUDA_ERROR_NOT_SUPPORTED, and aliases reach their targets.
//
// tests/unit/CMakeLists.txt must define CUCPU_REFERENCE_EXPORTS to the
// absolute path of tests/unit/data/nvidia-libcuda-13.0-exports.txt and
// CUCPU_LIBCUDA_PATH to the built libcuda.so.1.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

namespace {

enum class Form { Impl, Alias, Legacy, Todo };

struct ExportLine {
  std::string Name;
  Form Kind;
  std::string Target; ///< For aliases only.
};

// Arguments are only stringized, so cuda.h's renaming macros do not apply.
const std::vector<ExportLine> &exportLines() {
  static const std::vector<ExportLine> Lines = {
#define CU_IMPL(Name) {#Name, Form::Impl, ""},
#define CU_ALIAS(Name, Target) {#Name, Form::Alias, #Target},
#define CU_LEGACY(Name) {#Name, Form::Legacy, ""},
#define CU_TODO(Name) {#Name, Form::Todo, ""},
#include "api/Exports.def"
#undef CU_IMPL
#undef CU_ALIAS
#undef CU_LEGACY
#undef CU_TODO
  };
  return Lines;
}

const ExportLine *findLine(const std::string &Name) {
  for (const ExportLine &L : exportLines())
    if (L.Name == Name)
      return &L;
  return nullptr;
}

/// cucpu's own additions (include/cucpu/cucpu.h), which NVIDIA's driver
/// does not have.
const std::vector<std::string> CucpuNames = {"cucpuGetLastErrorMessage"};

/// The OpenGL interoperability names of the seeds' Appendix E.10, which the
/// reference list does not contain.
const std::vector<std::string> OpenGLNames = {
    "cuGLInit",
    "cuGLCtxCreate",
    "cuGLCtxCreate_v2",
    "cuGLRegisterBufferObject",
    "cuGLMapBufferObject",
    "cuGLMapBufferObject_v2",
    "cuGLMapBufferObject_v2_ptds",
    "cuGLUnmapBufferObject",
    "cuGLUnregisterBufferObject",
    "cuGLMapBufferObjectAsync",
    "cuGLMapBufferObjectAsync_v2",
    "cuGLMapBufferObjectAsync_v2_ptsz",
    "cuGLUnmapBufferObjectAsync",
    "cuGLSetBufferObjectMapFlags",
    "cuGraphicsGLRegisterBuffer",
    "cuGraphicsGLRegisterImage",
    "cuGLGetDevices",
    "cuGLGetDevices_v2",
};

/// Reads NVIDIA's list; records a failure and returns {} if it cannot.
std::vector<std::string> readReferenceList() {
#ifndef CUCPU_REFERENCE_EXPORTS
  ADD_FAILURE() << "CUCPU_REFERENCE_EXPORTS is not defined: tests/unit/"
                   "CMakeLists.txt must define it to the absolute path of "
                   "tests/unit/data/nvidia-libcuda-13.0-exports.txt";
  return {};
#else
  std::ifstream In(CUCPU_REFERENCE_EXPORTS);
  if (!In) {
    ADD_FAILURE() << "Cannot read NVIDIA's export list at "
                  << CUCPU_REFERENCE_EXPORTS << ".";
    return {};
  }
  std::vector<std::string> Names;
  for (std::string Line; std::getline(In, Line);) {
    while (!Line.empty() && (Line.back() == '\r' || Line.back() == ' '))
      Line.pop_back();
    if (!Line.empty())
      Names.push_back(Line);
  }
  return Names;
#endif
}

/// Our libcuda.so.1, loaded on its own: this test binary links the driver's
/// objects statically, so the shared library is a second, separate instance
/// that every check below goes through.
struct Library {
  void *Handle = nullptr;
  std::string Path;
  std::string Error;
};

const Library &library() {
  static const Library Lib = [] {
    Library L;
#ifndef CUCPU_LIBCUDA_PATH
    L.Error = "CUCPU_LIBCUDA_PATH is not defined: tests/unit/CMakeLists.txt "
              "must define it to the path of the built libcuda.so.1";
#else
    L.Path = CUCPU_LIBCUDA_PATH;
    L.Handle = dlopen(CUCPU_LIBCUDA_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!L.Handle)
      L.Error = dlerror();
#endif
    return L;
  }();
  return Lib;
}

/// The address of \p Name in our library, or nullptr; \p Where receives the
/// file that holds the definition found.
void *symbolInLibrary(const std::string &Name, std::string &Where) {
  void *Address = dlsym(library().Handle, Name.c_str());
  if (!Address)
    return nullptr;
  Dl_info Info{};
  if (dladdr(Address, &Info) && Info.dli_fname)
    Where = Info.dli_fname;
  return Address;
}

/// The path of the object that defines cuInit in the loaded library, which is
/// how the dynamic loader spells the library's own path.
const std::string &libraryFile() {
  static const std::string File = [] {
    std::string Where;
    symbolInLibrary("cuInit", Where);
    return Where;
  }();
  return File;
}

using NoArgFn = int (*)();

class ExportsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_NE(library().Handle, nullptr)
        << "cannot load " << library().Path << ": " << library().Error;
  }
};

TEST_F(ExportsTest, ListCoversNvidiaExportsAndOpenGL) {
  std::vector<std::string> Reference = readReferenceList();
  ASSERT_EQ(Reference.size(), 637u)
      << "NVIDIA's CUDA 13.0 libcuda.so.1 exports 637 names";

  std::set<std::string> Listed;
  for (const ExportLine &L : exportLines())
    EXPECT_TRUE(Listed.insert(L.Name).second)
        << L.Name << " appears twice in Exports.def";

  std::set<std::string> Expected(Reference.begin(), Reference.end());
  Expected.insert(OpenGLNames.begin(), OpenGLNames.end());
  Expected.insert(CucpuNames.begin(), CucpuNames.end());
  for (const std::string &Name : Expected)
    EXPECT_TRUE(Listed.count(Name))
        << Name << " is exported by NVIDIA's driver but not in Exports.def";
  for (const std::string &Name : Listed)
    EXPECT_TRUE(Expected.count(Name))
        << Name << " is in Exports.def but NVIDIA's driver does not export it";
  EXPECT_EQ(Listed.size(), 637u + OpenGLNames.size() + CucpuNames.size());
}

TEST_F(ExportsTest, EveryReferenceNameResolvesInOurLibrary) {
  std::vector<std::string> Names = readReferenceList();
  Names.insert(Names.end(), OpenGLNames.begin(), OpenGLNames.end());
  ASSERT_GT(Names.size(), OpenGLNames.size());
  for (const std::string &Name : Names) {
    std::string Where;
    EXPECT_NE(symbolInLibrary(Name, Where), nullptr)
        << Name << " does not resolve in " << library().Path;
    EXPECT_EQ(Where, libraryFile())
        << Name << " resolves to a definition outside our libcuda";
  }
}

TEST_F(ExportsTest, AliasTargetsAreListedAndNotAliases) {
  for (const ExportLine &L : exportLines()) {
    if (L.Kind != Form::Alias)
      continue;
    const ExportLine *T = findLine(L.Target);
    ASSERT_NE(T, nullptr) << L.Name << " aliases the unlisted " << L.Target;
    EXPECT_NE(T->Kind, Form::Alias)
        << L.Name << " aliases another alias, " << L.Target;
    EXPECT_NE(T->Kind, Form::Legacy)
        << L.Name << " aliases the pre-3.2 symbol " << L.Target;
  }
}

TEST_F(ExportsTest, UnimplementedNamesAnswerNotSupported) {
  // A CU_TODO or CU_LEGACY stub ignores its arguments, so calling it with
  // none is safe whatever its real signature.
  std::string Where;
  auto LastMessage = reinterpret_cast<const char *(*)()>(
      symbolInLibrary("cucpuGetLastErrorMessage", Where));
  EXPECT_NE(LastMessage, nullptr) << "cucpuGetLastErrorMessage is exported";
  int Called = 0;
  for (const ExportLine &L : exportLines()) {
    if (L.Kind != Form::Todo && L.Kind != Form::Legacy)
      continue;
    auto Fn = reinterpret_cast<NoArgFn>(symbolInLibrary(L.Name, Where));
    ASSERT_NE(Fn, nullptr) << L.Name;
    EXPECT_EQ(Fn(), CUDA_ERROR_NOT_SUPPORTED)
        << L.Name << " is not implemented and must say so";
    std::string Message = LastMessage ? LastMessage() : "";
    EXPECT_NE(Message.find(L.Name), std::string::npos)
        << "the message names the function: " << Message;
    if (L.Kind == Form::Legacy) {
      EXPECT_NE(Message.find("3.2"), std::string::npos)
          << "the message explains the pre-3.2 ABI: " << Message;
    }
    ++Called;
  }
  EXPECT_GT(Called, 0);
}

TEST_F(ExportsTest, AliasOfUnimplementedTargetAnswersNotSupported) {
  // The alias jumps to the target's stub, which ignores the arguments.
  int Called = 0;
  for (const ExportLine &L : exportLines()) {
    if (L.Kind != Form::Alias)
      continue;
    const ExportLine *T = findLine(L.Target);
    ASSERT_NE(T, nullptr);
    if (T->Kind != Form::Todo)
      continue;
    std::string Where;
    auto Fn = reinterpret_cast<NoArgFn>(symbolInLibrary(L.Name, Where));
    ASSERT_NE(Fn, nullptr) << L.Name;
    EXPECT_EQ(Fn(), CUDA_ERROR_NOT_SUPPORTED)
        << L.Name << " must reach its unimplemented target " << L.Target;
    ++Called;
  }
  EXPECT_GT(Called, 0);
}

TEST_F(ExportsTest, AliasesAreSeparateSymbols) {
  // An alias is its own ELF symbol (what a program imports), not just
  // another name dlsym maps to the target's address.
  for (const ExportLine &L : exportLines()) {
    if (L.Kind != Form::Alias)
      continue;
    std::string Where;
    void *Alias = symbolInLibrary(L.Name, Where);
    void *Target = symbolInLibrary(L.Target, Where);
    ASSERT_NE(Alias, nullptr) << L.Name;
    ASSERT_NE(Target, nullptr) << L.Target;
    Dl_info Info{};
    ASSERT_TRUE(dladdr(Alias, &Info));
    ASSERT_NE(Info.dli_sname, nullptr) << L.Name;
    EXPECT_EQ(std::string(Info.dli_sname), L.Name);
  }
}

template <typename Fn> Fn lookupAs(const char *Name) {
  std::string Where;
  return reinterpret_cast<Fn>(symbolInLibrary(Name, Where));
}

TEST_F(ExportsTest, AliasesBehaveLikeTheirImplementedTargets) {
  // Every call goes to the shared library's own instance of the driver.
  auto Init = lookupAs<decltype(&cuInit)>("cuInit");
  auto DeviceGet = lookupAs<decltype(&cuDeviceGet)>("cuDeviceGet");
  auto GetCurrent = lookupAs<decltype(&cuCtxGetCurrent)>("cuCtxGetCurrent");
  auto StreamQuery = lookupAs<decltype(&cuStreamQuery)>("cuStreamQuery");
  // cuda.h declares the _v2 forms under the plain names; these are their
  // C types.
  using CtxCreateV2 = CUresult (*)(CUcontext *, unsigned int, CUdevice);
  using CtxPopV2 = CUresult (*)(CUcontext *);
  using CtxPushV2 = CUresult (*)(CUcontext);
  using CtxDestroyV2 = CUresult (*)(CUcontext);
  auto PopV2 = lookupAs<CtxPopV2>("cuCtxPopCurrent_v2");
  auto Pop = lookupAs<CtxPopV2>("cuCtxPopCurrent");
  auto Create = lookupAs<CtxCreateV2>("cuCtxCreate");
  auto Push = lookupAs<CtxPushV2>("cuCtxPushCurrent");
  auto Destroy = lookupAs<CtxDestroyV2>("cuCtxDestroy");
  auto QueryPtsz = lookupAs<decltype(&cuStreamQuery)>("cuStreamQuery_ptsz");
  for (void *Fn :
       {reinterpret_cast<void *>(Init), reinterpret_cast<void *>(DeviceGet),
        reinterpret_cast<void *>(GetCurrent),
        reinterpret_cast<void *>(StreamQuery), reinterpret_cast<void *>(PopV2),
        reinterpret_cast<void *>(Pop), reinterpret_cast<void *>(Create),
        reinterpret_cast<void *>(Push), reinterpret_cast<void *>(Destroy),
        reinterpret_cast<void *>(QueryPtsz)})
    ASSERT_NE(Fn, nullptr);

  ASSERT_EQ(Init(0), CUDA_SUCCESS);
  auto SetCurrent = lookupAs<decltype(&cuCtxSetCurrent)>("cuCtxSetCurrent");
  ASSERT_NE(SetCurrent, nullptr);
  CUcontext Saved = nullptr;
  ASSERT_EQ(GetCurrent(&Saved), CUDA_SUCCESS);
  if (Saved) {
    ASSERT_EQ(SetCurrent(nullptr), CUDA_SUCCESS);
  }

  // With no context current, both forms of pop fail the same way.
  CUcontext C1 = nullptr, C2 = nullptr;
  CUresult ViaAlias = Pop(&C1);
  CUresult Direct = PopV2(&C2);
  EXPECT_NE(ViaAlias, CUDA_ERROR_NOT_SUPPORTED)
      << "cuCtxPopCurrent must reach cuCtxPopCurrent_v2";
  EXPECT_EQ(ViaAlias, Direct)
      << "cuCtxPopCurrent and cuCtxPopCurrent_v2 must agree";

  // A real round trip through the aliases: create, pop, push, destroy.
  CUdevice Dev = 0;
  ASSERT_EQ(DeviceGet(&Dev, 0), CUDA_SUCCESS);
  CUcontext Ctx = nullptr;
  ASSERT_EQ(Create(&Ctx, 0, Dev), CUDA_SUCCESS) << "cuCtxCreate -> _v2";
  ASSERT_NE(Ctx, nullptr);
  CUcontext Popped = nullptr;
  EXPECT_EQ(Pop(&Popped), CUDA_SUCCESS) << "cuCtxPopCurrent -> _v2";
  EXPECT_EQ(Popped, Ctx);
  EXPECT_EQ(Push(Ctx), CUDA_SUCCESS) << "cuCtxPushCurrent -> _v2";
  CUcontext Current = nullptr;
  EXPECT_EQ(GetCurrent(&Current), CUDA_SUCCESS);
  EXPECT_EQ(Current, Ctx);

  // A per-thread-stream variant on the default stream of that context.
  EXPECT_EQ(QueryPtsz(nullptr), StreamQuery(nullptr))
      << "cuStreamQuery_ptsz must reach cuStreamQuery";
  EXPECT_EQ(QueryPtsz(nullptr), CUDA_SUCCESS);

  EXPECT_EQ(Destroy(Ctx), CUDA_SUCCESS) << "cuCtxDestroy -> _v2";
  EXPECT_EQ(GetCurrent(&Current), CUDA_SUCCESS);
  EXPECT_EQ(Current, nullptr);
  if (Saved) {
    EXPECT_EQ(SetCurrent(Saved), CUDA_SUCCESS);
  }
}

} // namespace

/// Every exported function called with every argument zero: null handles,
/// null pointers, zero sizes and flags, the default stream. Passed as 16
/// integer and 8 floating-point zeros, which covers every signature of the
/// API (extra arguments are ignored by the callee).
using ZeroArgFn = int (*)(uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                          uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                          uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                          uintptr_t);

/// Calls every export with every argument \p Arg, each after \p Prepare;
/// each must return a CUresult the library can name (no crash, no hang).
template <typename PrepareFn>
void callEveryExportWith(uintptr_t Arg, const char *State, PrepareFn Prepare,
                         const std::set<std::string> &Skip = {}) {
  using NameFn = int (*)(int, const char **);
  auto ErrorName =
      reinterpret_cast<NameFn>(dlsym(library().Handle, "cuGetErrorName"));
  ASSERT_NE(nullptr, ErrorName);
  for (const ExportLine &L : exportLines()) {
    if (L.Name == "cucpuGetLastErrorMessage" || Skip.count(L.Name))
      continue; // Returns the message, not a CUresult.
    Prepare();
    auto Fn =
        reinterpret_cast<ZeroArgFn>(dlsym(library().Handle, L.Name.c_str()));
    ASSERT_NE(nullptr, Fn) << L.Name;
    int Result = Fn(Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg, Arg,
                    Arg, Arg, Arg, Arg);
    const char *Name = nullptr;
    EXPECT_EQ(0, ErrorName(Result, &Name))
        << L.Name << "(" << Arg << ", ...) " << State << " returned " << Result
        << ", which is not a CUresult";
  }
}

TEST_F(ExportsTest, EveryExportSurvivesZeroArguments) {
  using InitFn = int (*)(unsigned);
  using CtxCreateFn = int (*)(void **, unsigned, int);
  using CtxFn = int (*)(void *);
  auto Init = reinterpret_cast<InitFn>(dlsym(library().Handle, "cuInit"));
  auto Create =
      reinterpret_cast<CtxCreateFn>(dlsym(library().Handle, "cuCtxCreate_v2"));
  auto Destroy =
      reinterpret_cast<CtxFn>(dlsym(library().Handle, "cuCtxDestroy_v2"));
  ASSERT_TRUE(Init && Create && Destroy);
  auto SetCurrent =
      reinterpret_cast<CtxFn>(dlsym(library().Handle, "cuCtxSetCurrent"));
  ASSERT_TRUE(SetCurrent);
  ASSERT_EQ(0, Init(0));
  callEveryExportWith(0, "without a context", [&] { SetCurrent(nullptr); });
  void *Ctx = nullptr;
  ASSERT_EQ(0, Create(&Ctx, 0, 0));
  // Some calls change the current context (cuCtxSetCurrent(NULL), ...):
  // each call starts with the context current again.
  callEveryExportWith(0, "with a current context", [&] { SetCurrent(Ctx); });
  EXPECT_EQ(0, Destroy(Ctx));
}

/// Calls every export with every argument the address \p Offset bytes into
/// a zeroed scratch buffer, with a context current: output pointers land in
/// the buffer, handles name no object, sizes and counts are huge, strings
/// are empty.
void callEveryExportWithScratch(uintptr_t Offset, const char *State) {
  using InitFn = int (*)(unsigned);
  using CtxCreateFn = int (*)(void **, unsigned, int);
  using CtxFn = int (*)(void *);
  auto Init = reinterpret_cast<InitFn>(dlsym(library().Handle, "cuInit"));
  auto Create =
      reinterpret_cast<CtxCreateFn>(dlsym(library().Handle, "cuCtxCreate_v2"));
  auto Destroy =
      reinterpret_cast<CtxFn>(dlsym(library().Handle, "cuCtxDestroy_v2"));
  auto SetCurrent =
      reinterpret_cast<CtxFn>(dlsym(library().Handle, "cuCtxSetCurrent"));
  ASSERT_TRUE(Init && Create && Destroy && SetCurrent);
  ASSERT_EQ(0, Init(0));
  void *Ctx = nullptr;
  ASSERT_EQ(0, Create(&Ctx, 0, 0));
  static std::vector<uint64_t> Scratch(1 << 16);
  // Copies between host memory the driver does not know of are plain
  // memmoves: like NVIDIA's, the driver cannot tell a garbage host pointer
  // or size from a real one there.
  const std::set<std::string> HostToHost = {
      "cuMemcpy", "cuMemcpy_ptds", "cuMemcpyAsync", "cuMemcpyAsync_ptsz"};
  uintptr_t Arg = reinterpret_cast<uintptr_t>(Scratch.data()) + Offset;
  callEveryExportWith(
      Arg, State,
      [&] {
        std::fill(Scratch.begin(), Scratch.end(), 0);
        SetCurrent(Ctx);
      },
      HostToHost);
  EXPECT_EQ(0, Destroy(Ctx));
}

TEST_F(ExportsTest, EveryExportSurvivesGarbageHandlesAndHugeSizes) {
  callEveryExportWithScratch(0, "with a current context");
}

TEST_F(ExportsTest, EveryExportSurvivesMisalignedPointers) {
  // Output pointers are misaligned for every type the API writes.
  callEveryExportWithScratch(1, "with misaligned pointers");
}

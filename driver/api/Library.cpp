//===- Library.cpp - Library and kernel entry points (cuLibrary*,
// cuKernel*)-===//
//
// CUDA 12's context-independent loading: a library is loaded once and used
// in every context; its kernels are handles valid in all of them, and a
// CUkernel may be launched wherever a CUfunction is expected (Kernels.h).
//
//===----------------------------------------------------------------------===//
#include "api/Handles.h"
#include "api/Kernels.h"
#include "core/EntryPoint.h"
#include "core/JitOptions.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// More library options than this is a garbage count, not an array to read
/// (there are CU_LIBRARY_NUM_OPTIONS kinds).
constexpr unsigned MaxLibraryOptions = 64;

/// Checks the library option arrays. The image is always copied, so
/// CU_LIBRARY_BINARY_IS_PRESERVED changes nothing; it is refused for a file,
/// whose bytes the caller never had (as NVIDIA's driver refuses it).
llvm::Error checkLibraryOptions(const CUlibraryOption *Options,
                                void *const *Values, unsigned Count,
                                bool FromFile) {
  if (Count == 0)
    return llvm::Error::success();
  CU_INVALID_IF(Count > MaxLibraryOptions, CUDA_ERROR_INVALID_VALUE,
                "{0} library options is more than any program passes (at most "
                "{1}).",
                Count, MaxLibraryOptions);
  CU_INVALID_IF(!Options || !Values, CUDA_ERROR_INVALID_VALUE,
                "{0} library options were announced but an array is NULL.",
                Count);
  for (unsigned I = 0; I < Count; ++I)
    CU_INVALID_IF(Options[I] < 0 || Options[I] >= CU_LIBRARY_NUM_OPTIONS,
                  CUDA_ERROR_INVALID_VALUE,
                  "Library option {0} (index {1}) is not a CUlibraryOption.",
                  static_cast<int>(Options[I]), I);
  for (unsigned I = 0; I < Count; ++I)
    CU_INVALID_IF(FromFile && Options[I] == CU_LIBRARY_BINARY_IS_PRESERVED,
                  CUDA_ERROR_INVALID_VALUE,
                  "CU_LIBRARY_BINARY_IS_PRESERVED is for images in memory, "
                  "not for cuLibraryLoadFromFile.");
  return llvm::Error::success();
}

/// cuLibraryLoadData and cuLibraryLoadFromFile (\p FromFile): \p Size is 0
/// when the caller gave none.
llvm::Error loadLibrary(CUlibrary *Out, const void *Code, size_t Size,
                        bool FromFile, CUjit_option *JitOptions,
                        void **JitValues, unsigned NumJit,
                        CUlibraryOption *LibOptions, void **LibValues,
                        unsigned NumLib) {
  CU_TRY(checkLibraryOptions(LibOptions, LibValues, NumLib, FromFile));
  return loadWithJitOptions(
      NumJit, JitOptions, JitValues,
      [&](const cucpu::JitOptions &Jit, std::string *Info) -> llvm::Error {
        CU_TRY_ASSIGN(std::shared_ptr<Library> L,
                      Library::load(Code, Size, current::top(), Info, Jit));
        *Out = toHandle(*L);
        return llvm::Error::success();
      });
}

/// The context a per-device kernel query or setting applies to: the
/// current one, which must belong to device \p Dev, or null if there is
/// none (the query needs no context on NVIDIA's driver).
llvm::Expected<std::shared_ptr<Context>> contextOfDevice(CUdevice Dev) {
  CU_TRY(lookupDevice(Dev).takeError());
  if (!current::hasEntry())
    return nullptr;
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_INVALID_IF(Ctx->device().ordinal() != Dev, CUDA_ERROR_INVALID_DEVICE,
                "The current context belongs to device {0}, not {1}.",
                Ctx->device().ordinal(), Dev);
  return Ctx;
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuLibraryLoadData(
    CUlibrary *Out, const void *Code, CUjit_option *JitOptions,
    void **JitValues, unsigned int NumJit, CUlibraryOption *LibOptions,
    void **LibValues, unsigned int NumLib) {
  return CU_ENTRY(Out, Code, JitOptions, JitValues, NumJit, LibOptions,
                  LibValues, NumLib)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                      "The library pointer is NULL.");
        CU_INVALID_IF(!Code, CUDA_ERROR_INVALID_VALUE,
                      "The image pointer is NULL.");
        return loadLibrary(Out, Code, 0, /*FromFile=*/false, JitOptions,
                           JitValues, NumJit, LibOptions, LibValues, NumLib);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryLoadFromFile(
    CUlibrary *Out, const char *Path, CUjit_option *JitOptions,
    void **JitValues, unsigned int NumJit, CUlibraryOption *LibOptions,
    void **LibValues, unsigned int NumLib) {
  return CU_ENTRY(Out, Path, JitOptions, JitValues, NumJit, LibOptions,
                  LibValues, NumLib)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(!Out || !Path, CUDA_ERROR_INVALID_VALUE,
                      "The library and file name pointers must not be NULL.");
        CU_TRY_ASSIGN(std::vector<char> Bytes, readModuleFile(Path));
        return loadLibrary(Out, Bytes.data(), Bytes.size() - 1,
                           /*FromFile=*/true, JitOptions, JitValues, NumJit,
                           LibOptions, LibValues, NumLib);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryUnload(CUlibrary H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    return L->unload();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetKernel(CUkernel *Out, CUlibrary H,
                                                 const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The kernel and name pointers must not be NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, L->kernel(Name));
    *Out = toHandle(*K);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int *Count,
                                                      CUlibrary H) {
  return CU_ENTRY(Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE,
                  "The count pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    *Count = static_cast<unsigned>(L->kernels().size());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel *Kernels,
                                                        unsigned int Count,
                                                        CUlibrary H) {
  return CU_ENTRY(Kernels, Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Kernels && Count > 0, CUDA_ERROR_INVALID_VALUE,
                  "The kernel array is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    const auto &All = L->kernels();
    for (unsigned I = 0; I < Count && I < All.size(); ++I)
      Kernels[I] = toHandle(*All[I]);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetModule(CUmodule *Out, CUlibrary H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The module pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, L->module(Ctx));
    *Out = toHandle(*M);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr *Ptr,
                                                 size_t *Bytes, CUlibrary H,
                                                 const char *Name) {
  return CU_ENTRY(Ptr, Bytes, H, Name).run([&]() -> llvm::Error {
    CU_TRY(checkGlobalQuery(Ptr, Bytes, Name));
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, L->module(Ctx));
    CU_TRY_ASSIGN(modules::GlobalEntry G, M->global(Name));
    writeGlobal(Ptr, Bytes, G);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr *Ptr,
                                                  size_t *Bytes, CUlibrary H,
                                                  const char *Name) {
  return CU_ENTRY(Ptr, Bytes, H, Name).run([&]() -> llvm::Error {
    CU_TRY(checkGlobalQuery(Ptr, Bytes, Name));
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    // cucc images hold no __managed__ variables.
    return makeError(CUDA_ERROR_NOT_FOUND,
                     llvm::formatv("The library has no managed variable "
                                   "named \"{0}\".",
                                   Name));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLibraryGetUnifiedFunction(void **Out,
                                                          CUlibrary H,
                                                          const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The function and name pointers must not be NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Library> L, lookupLibrary(H));
    // cucc images hold no unified (host-and-device) functions.
    return makeError(CUDA_ERROR_NOT_FOUND,
                     llvm::formatv("The library has no unified function "
                                   "named \"{0}\".",
                                   Name));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelGetFunction(CUfunction *Out, CUkernel H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The function pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, K->function(Ctx));
    *Out = toHandle(*F);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelGetLibrary(CUlibrary *Out, CUkernel H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The library pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    std::shared_ptr<Library> L = K->library();
    CU_INVALID_IF(!L, CUDA_ERROR_INVALID_HANDLE,
                  "The kernel's library has been unloaded.");
    *Out = toHandle(*L);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelGetName(const char **Name, CUkernel H) {
  return CU_ENTRY(Name, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Name, CUDA_ERROR_INVALID_VALUE, "The name pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    *Name = K->name().c_str(); // Valid while the library is loaded.
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelGetParamInfo(CUkernel H, size_t Index,
                                                   size_t *Offset,
                                                   size_t *Size) {
  return CU_ENTRY(H, Index, Offset, Size).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Offset && !Size, CUDA_ERROR_INVALID_VALUE,
                  "Both the offset and the size pointers are NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    const auto &Params = K->info().Params;
    CU_INVALID_IF(Index >= Params.size(), CUDA_ERROR_INVALID_VALUE,
                  "Kernel {0} has {1} parameters; there is none at index {2}.",
                  K->name(), Params.size(), Index);
    if (Offset)
      *Offset = Params[Index].Offset;
    if (Size)
      *Size = Params[Index].Size;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelGetAttribute(int *Value,
                                                   CUfunction_attribute Attrib,
                                                   CUkernel H, CUdevice Dev) {
  return CU_ENTRY(Value, Attrib, H, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, contextOfDevice(Dev));
    CU_TRY_ASSIGN(*Value, K->attribute(Ctx, Attrib));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute Attrib,
                                                   int Value, CUkernel H,
                                                   CUdevice Dev) {
  return CU_ENTRY(Attrib, Value, H, Dev).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, contextOfDevice(Dev));
    return K->setAttribute(Ctx, Attrib, Value);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel H,
                                                     CUfunc_cache Config,
                                                     CUdevice Dev) {
  return CU_ENTRY(H, Config, Dev).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Kernel> K, lookupKernel(H));
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, contextOfDevice(Dev));
    return K->setCacheConfig(Ctx, Config);
  });
}

//===- Module.cpp - Module management entry points (E.4) ------------------===//
#include "api/Handles.h"
#include "core/Entry.h"

#include "ImageKind.h"

#include <fstream>
#include <iterator>
#include <vector>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Options cuModuleLoadDataEx accepts: every CUjit_option cucpu knows.
constexpr int JitOptionCount = CU_JIT_NUM_OPTIONS;

/// Loads the image at \p Image into the current context. \p Size is 0 when
/// the caller did not give one (cuModuleLoadData).
llvm::Error loadImage(CUmodule *Out, const void *Image, size_t Size) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The module pointer is NULL.");
  CU_INVALID_IF(!Image, CUDA_ERROR_INVALID_VALUE, "The image pointer is NULL.");
  CU_TRY(current::require());
  std::string Why;
  loader::ImageKind Kind = loader::classifyImage(Image, Size, Why);
  switch (Kind) {
  case loader::ImageKind::Ptx:
  case loader::ImageKind::NvidiaCubin:
    return makeError(CUDA_ERROR_NO_BINARY_FOR_GPU,
                     llvm::formatv("The module is {0}, which only NVIDIA GPUs "
                                   "run; compile the kernel source with cucc "
                                   "(cucc -cubin -o k.cubin k.cu) to get an "
                                   "image for cucpu.",
                                   loader::describe(Kind)));
  case loader::ImageKind::CucpuImage:
  case loader::ImageKind::FatBinary:
  case loader::ImageKind::FatBinaryWrapper:
    return makeError(CUDA_ERROR_NOT_SUPPORTED,
                     llvm::formatv("The module is {0}; loading kernels is not "
                                   "implemented yet.",
                                   loader::describe(Kind)));
  default:
    return makeError(CUDA_ERROR_INVALID_IMAGE,
                     llvm::formatv("The module is {0}: {1}",
                                   loader::describe(Kind), Why));
  }
}

llvm::Error checkJitOptions(unsigned NumOptions, const CUjit_option *Options,
                            void *const *Values) {
  CU_INVALID_IF(NumOptions > 0 && (!Options || !Values),
                CUDA_ERROR_INVALID_VALUE,
                "{0} JIT options were given but the option or value array is "
                "NULL.",
                NumOptions);
  for (unsigned I = 0; I < NumOptions; ++I)
    CU_INVALID_IF(Options[I] < 0 || Options[I] >= JitOptionCount,
                  CUDA_ERROR_INVALID_VALUE,
                  "JIT option {0} at index {1} is not a valid CUjit_option.",
                  static_cast<int>(Options[I]), I);
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoad(CUmodule *Out, const char *Path) {
  return CU_ENTRY(Out, Path).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Path, CUDA_ERROR_INVALID_VALUE,
                  "The module and file name pointers must not be NULL.");
    CU_TRY(current::require());
    std::ifstream In(Path, std::ios::binary);
    CU_INVALID_IF(!In, CUDA_ERROR_FILE_NOT_FOUND,
                  "The module file \"{0}\" cannot be opened.", Path);
    std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
    CU_INVALID_IF(Bytes.empty(), CUDA_ERROR_INVALID_IMAGE,
                  "The module file \"{0}\" is empty.", Path);
    Bytes.push_back('\0'); // Text images are read as strings.
    return loadImage(Out, Bytes.data(), Bytes.size() - 1);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoadData(CUmodule *Out,
                                               const void *Image) {
  return CU_ENTRY(Out, Image).run([&] { return loadImage(Out, Image, 0); });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *Out,
                                                 const void *Image,
                                                 unsigned int NumOptions,
                                                 CUjit_option *Options,
                                                 void **OptionValues) {
  return CU_ENTRY(Out, Image, NumOptions, Options, OptionValues)
      .run([&]() -> llvm::Error {
        CU_TRY(checkJitOptions(NumOptions, Options, OptionValues));
        return loadImage(Out, Image, 0);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *Out,
                                                    const void *FatCubin) {
  return CU_ENTRY(Out, FatCubin).run([&] { return loadImage(Out, FatCubin, 0); });
}

namespace {
/// Checks that \p H names a live module. Module loading does not create
/// module objects yet, so today no handle passes.
llvm::Error checkModule(CUmodule H) {
  CU_INVALID_IF(!HandleRegistry::get().find(H, ObjectKind::Module),
                CUDA_ERROR_INVALID_HANDLE,
                "{0} is not a live module (destroyed, or not a module).",
                static_cast<const void *>(H));
  return llvm::Error::success();
}

/// Answer of a lookup in a module that has no such symbol.
llvm::Error notFound(const char *What, const char *Name) {
  return makeError(CUDA_ERROR_NOT_FOUND,
                   llvm::formatv("The module has no {0} named \"{1}\".", What,
                                 Name));
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY(current::require());
    return checkModule(H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *Out, CUmodule H,
                                                  const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The function and name pointers must not be NULL.");
    CU_TRY(current::require());
    CU_TRY(checkModule(H));
    return notFound("kernel", Name);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *Ptr,
                                                   size_t *Bytes, CUmodule H,
                                                   const char *Name) {
  return CU_ENTRY(Ptr, Bytes, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Ptr && !Bytes, CUDA_ERROR_INVALID_VALUE,
                  "At least one of the address and size outputs is needed.");
    CU_INVALID_IF(!Name, CUDA_ERROR_INVALID_VALUE, "The name pointer is NULL.");
    CU_TRY(current::require());
    CU_TRY(checkModule(H));
    return notFound("global variable", Name);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetTexRef(CUtexref *Out, CUmodule H,
                                                const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The texture reference and name pointers must not be NULL.");
    CU_TRY(current::require());
    CU_TRY(checkModule(H));
    return notFound("texture reference", Name);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetSurfRef(CUsurfref *Out, CUmodule H,
                                                 const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The surface reference and name pointers must not be NULL.");
    CU_TRY(current::require());
    CU_TRY(checkModule(H));
    return notFound("surface reference", Name);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *Count,
                                                       CUmodule H) {
  return CU_ENTRY(Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE, "The count pointer is NULL.");
    CU_TRY(current::require());
    return checkModule(H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *Functions,
                                                         unsigned int Count,
                                                         CUmodule H) {
  return CU_ENTRY(Functions, Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Functions && Count > 0, CUDA_ERROR_INVALID_VALUE,
                  "The function array is NULL.");
    CU_TRY(current::require());
    return checkModule(H);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode *Mode) {
  return CU_ENTRY(Mode).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Mode, CUDA_ERROR_INVALID_VALUE, "The mode pointer is NULL.");
    // "The CUDA driver API does not attempt to lazily allocate the resources
    // needed by a module" (E.4.1): modules load eagerly.
    *Mode = CU_MODULE_EAGER_LOADING;
    return llvm::Error::success();
  });
}

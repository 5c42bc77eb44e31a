//===- Module.cpp - Module management entry points (E.4) ------------------===//
#include "api/Handles.h"
#include "api/Kernels.h"
#include "core/EntryPoint.h"
#include "core/ExecutionEngine.h"
#include "core/JitOptions.h"

#include <fstream>
#include <iterator>
#include <vector>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Loads the image at \p Image into the current context. \p Size is 0 when
/// the caller did not give one (cuModuleLoadData).
llvm::Error loadImage(CUmodule *Out, const void *Image, size_t Size,
                      std::string *InfoLog = nullptr,
                      const JitOptions &Jit = {}) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The module pointer is NULL.");
  CU_INVALID_IF(!Image, CUDA_ERROR_INVALID_VALUE, "The image pointer is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Module> M,
                Module::loadBytes(Ctx, Image, Size, InfoLog, Jit));
  *Out = toHandle(*M);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::vector<char>> api::readModuleFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  CU_INVALID_IF(!In, CUDA_ERROR_FILE_NOT_FOUND,
                "The module file \"{0}\" cannot be opened.", Path);
  std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                          std::istreambuf_iterator<char>());
  CU_INVALID_IF(Bytes.empty(), CUDA_ERROR_INVALID_IMAGE,
                "The module file \"{0}\" is empty.", Path);
  Bytes.push_back('\0'); // Text images are read as strings.
  return Bytes;
}

llvm::Error api::checkGlobalQuery(const CUdeviceptr *Ptr, const size_t *Bytes,
                                  const char *Name) {
  CU_INVALID_IF(!Ptr && !Bytes, CUDA_ERROR_INVALID_VALUE,
                "At least one of the address and size outputs is needed.");
  CU_INVALID_IF(!Name, CUDA_ERROR_INVALID_VALUE, "The name pointer is NULL.");
  return llvm::Error::success();
}

void api::writeGlobal(CUdeviceptr *Ptr, size_t *Bytes,
                      const modules::GlobalEntry &G) {
  // NVIDIA reports the variable's own size (observed: 4 for an int, 16 for
  // a float[4]).
  if (Ptr)
    *Ptr = reinterpret_cast<CUdeviceptr>(G.Address);
  if (Bytes)
    *Bytes = G.Size;
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoad(CUmodule *Out, const char *Path) {
  return CU_ENTRY(Out, Path).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Path, CUDA_ERROR_INVALID_VALUE,
                  "The module and file name pointers must not be NULL.");
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::vector<char> Bytes, readModuleFile(Path));
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
  return CU_ENTRY(Out, Image, NumOptions, Options, OptionValues).run([&] {
    return loadWithJitOptions(NumOptions, Options, OptionValues,
                              [&](const JitOptions &Jit, std::string *Info) {
                                return loadImage(Out, Image, 0, Info, Jit);
                              });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *Out,
                                                    const void *FatCubin) {
  return CU_ENTRY(Out, FatCubin).run([&] {
    return loadImage(Out, FatCubin, 0);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    // Queued launches of its kernels complete first.
    if (std::shared_ptr<Context> Ctx = M->context())
      CU_TRY(Ctx->queues().drain());
    M->unload();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *Out, CUmodule H,
                                                  const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The function and name pointers must not be NULL.");
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<Function> F, M->function(Name));
    *Out = toHandle(*F);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *Ptr,
                                                   size_t *Bytes, CUmodule H,
                                                   const char *Name) {
  return CU_ENTRY(Ptr, Bytes, H, Name).run([&]() -> llvm::Error {
    CU_TRY(checkGlobalQuery(Ptr, Bytes, Name));
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    CU_TRY_ASSIGN(modules::GlobalEntry G, M->global(Name));
    writeGlobal(Ptr, Bytes, G);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetTexRef(CUtexref *Out, CUmodule H,
                                                const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The texture reference and name pointers must not be NULL.");
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<TexRef> R, M->texRef(Name));
    *Out = toHandle(*R);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetSurfRef(CUsurfref *Out, CUmodule H,
                                                 const char *Name) {
  return CU_ENTRY(Out, H, Name).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !Name, CUDA_ERROR_INVALID_VALUE,
                  "The surface reference and name pointers must not be NULL.");
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    CU_TRY_ASSIGN(std::shared_ptr<SurfRef> R, M->surfRef(Name));
    *Out = reinterpret_cast<CUsurfref>(R.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int *Count,
                                                       CUmodule H) {
  return CU_ENTRY(Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE,
                  "The count pointer is NULL.");
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    *Count = static_cast<unsigned>(M->functions().size());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction *Functions,
                                                         unsigned int Count,
                                                         CUmodule H) {
  return CU_ENTRY(Functions, Count, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Functions && Count > 0, CUDA_ERROR_INVALID_VALUE,
                  "The function array is NULL.");
    // A dead module is INVALID_HANDLE even when its context, destroyed with
    // it, left no current context (observed on NVIDIA).
    CU_TRY_ASSIGN(std::shared_ptr<Module> M, lookupModule(H));
    CU_TRY(current::require());
    const auto &All = M->functions();
    for (unsigned I = 0; I < Count && I < All.size(); ++I)
      Functions[I] = toHandle(*All[I]);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuModuleGetLoadingMode(CUmoduleLoadingMode *Mode) {
  return CU_ENTRY(Mode).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Mode, CUDA_ERROR_INVALID_VALUE, "The mode pointer is NULL.");
    // "The CUDA driver API does not attempt to lazily allocate the resources
    // needed by a module" (E.4.1): modules load eagerly.
    *Mode = CU_MODULE_EAGER_LOADING;
    return llvm::Error::success();
  });
}

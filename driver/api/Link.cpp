//===- Link.cpp - JIT linker entry points (cuLink*) -----------------------===//
//
// Relocatable device code (cucc -rdc=true) is linked at run time, as on
// NVIDIA's driver: cuLinkCreate, cuLinkAddData/cuLinkAddFile per image,
// cuLinkComplete for the linked image, cuModuleLoadData to load it.
//
//===----------------------------------------------------------------------===//
#include "core/CurrentContext.h"
#include "core/EntryPoint.h"
#include "core/LinkState.h"

using namespace cucpu;

CUCPU_EXPORT CUresult CUDAAPI cuLinkCreate_v2(unsigned int NumOptions,
                                              CUjit_option *Options,
                                              void **OptionValues,
                                              CUlinkState *StateOut) {
  return CU_ENTRY(NumOptions, Options, OptionValues, StateOut)
      .run([&]() -> llvm::Error {
        CU_INVALID_IF(!StateOut, CUDA_ERROR_INVALID_VALUE,
                      "The link state pointer is NULL.");
        CU_TRY(current::require());
        CU_TRY_ASSIGN(*StateOut,
                      LinkState::create(NumOptions, Options, OptionValues));
        return llvm::Error::success();
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLinkAddData_v2(CUlinkState State,
                                               CUjitInputType Type, void *Data,
                                               size_t Size, const char *Name,
                                               unsigned int NumOptions,
                                               CUjit_option *Options,
                                               void **OptionValues) {
  return CU_ENTRY(State, Type, Data, Size, Name, NumOptions, Options,
                  OptionValues)
      .run([&]() -> llvm::Error {
        CU_TRY_ASSIGN(std::shared_ptr<LinkState> S, LinkState::lookup(State));
        return S->addData(Type, Data, Size, Name, NumOptions, Options,
                          OptionValues);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLinkAddFile_v2(
    CUlinkState State, CUjitInputType Type, const char *Path,
    unsigned int NumOptions, CUjit_option *Options, void **OptionValues) {
  return CU_ENTRY(State, Type, Path, NumOptions, Options, OptionValues)
      .run([&]() -> llvm::Error {
        CU_TRY_ASSIGN(std::shared_ptr<LinkState> S, LinkState::lookup(State));
        return S->addFile(Type, Path, NumOptions, Options, OptionValues);
      });
}

CUCPU_EXPORT CUresult CUDAAPI cuLinkComplete(CUlinkState State, void **CubinOut,
                                             size_t *SizeOut) {
  return CU_ENTRY(State, CubinOut, SizeOut).run([&]() -> llvm::Error {
    // NVIDIA's driver needs only the image pointer; the size is optional.
    CU_INVALID_IF(!CubinOut, CUDA_ERROR_INVALID_VALUE,
                  "The image pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<LinkState> S, LinkState::lookup(State));
    return S->complete(CubinOut, SizeOut);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuLinkDestroy(CUlinkState State) {
  return CU_ENTRY(State).run(
      [&]() -> llvm::Error { return LinkState::destroy(State); });
}

//===- Errors.cpp - cuGetErrorName and cuGetErrorString -------------------===//
#include "core/Entry.h"
#include "core/ErrorStrings.h"

using namespace cucpu;

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult Error,
                                             const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&]() -> llvm::Error {
    CU_INVALID_IF(!PStr, CUDA_ERROR_INVALID_VALUE,
                  "The string pointer is NULL.");
    *PStr = knownErrorName(Error);
    CU_INVALID_IF(!*PStr, CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUresult value.", static_cast<int>(Error));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult Error,
                                               const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&]() -> llvm::Error {
    CU_INVALID_IF(!PStr, CUDA_ERROR_INVALID_VALUE,
                  "The string pointer is NULL.");
    *PStr = errorDescription(Error);
    CU_INVALID_IF(!*PStr, CUDA_ERROR_INVALID_VALUE,
                  "{0} is not a CUresult value.", static_cast<int>(Error));
    return llvm::Error::success();
  });
}

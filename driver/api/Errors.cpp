//===- Errors.cpp - cuGetErrorName and cuGetErrorString -------------------===//
#include "core/EntryPoint.h"
#include "core/ErrorStrings.h"

using namespace cucpu;

namespace {
/// Stores \p Text, the answer for \p Error (null if \p Error is no CUresult
/// value), in *PStr.
llvm::Error answer(CUresult Error, const char **PStr, const char *Text) {
  CU_INVALID_IF(!PStr, CUDA_ERROR_INVALID_VALUE, "The string pointer is NULL.");
  *PStr = Text;
  CU_INVALID_IF(!Text, CUDA_ERROR_INVALID_VALUE, "{0} is not a CUresult value.",
                static_cast<int>(Error));
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorName(CUresult Error,
                                             const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&] {
    return answer(Error, PStr, knownErrorName(Error));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGetErrorString(CUresult Error,
                                               const char **PStr) {
  return CU_ENTRY(Error, PStr).runBeforeInit([&] {
    return answer(Error, PStr, errorDescription(Error));
  });
}

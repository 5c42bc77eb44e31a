//===- Error.cpp - Errors that carry a CUresult ---------------------------===//
#include "core/Error.h"

using namespace cucpu;

char CuError::ID = 0;

void CuError::log(llvm::raw_ostream &OS) const { OS << Message; }

std::error_code CuError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error cucpu::makeError(CUresult Code, const llvm::Twine &Message) {
  return llvm::make_error<CuError>(Code, Message.str());
}

CUresult cucpu::toResult(llvm::Error E, std::string &Message) {
  CUresult Result = CUDA_SUCCESS;
  llvm::handleAllErrors(
      std::move(E),
      [&](const CuError &CE) {
        Result = CE.code();
        Message = CE.text();
      },
      [&](const llvm::ErrorInfoBase &Other) {
        Result = CUDA_ERROR_UNKNOWN;
        Message = Other.message();
      });
  return Result;
}

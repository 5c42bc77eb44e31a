//===- LoaderError.cpp - Errors of reading module images ------------------===//
#include "cucpu/loader/LoaderError.h"

using namespace cucpu::loader;

char ImageError::ID = 0;

void ImageError::log(llvm::raw_ostream &OS) const { OS << Message; }

std::error_code ImageError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error cucpu::loader::addContext(llvm::Error E,
                                      const llvm::Twine &Context) {
  return llvm::handleErrors(std::move(E),
                            [&](std::unique_ptr<ImageError> IE) -> llvm::Error {
                              return llvm::make_error<ImageError>(
                                  IE->kind(), (Context + IE->text()).str());
                            });
}

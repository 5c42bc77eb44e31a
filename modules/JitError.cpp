//===- JitError.cpp - Why a module could not be compiled ------------------===//
#include "cucpu/modules/JitError.h"

#include "llvm/Support/raw_ostream.h"

using namespace cucpu::modules;

char JitError::ID = 0;

void JitError::log(llvm::raw_ostream &OS) const { OS << Message; }

std::error_code JitError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

llvm::Error cucpu::modules::makeJitError(JitErrorKind Kind,
                                         const llvm::Twine &Message) {
  return llvm::make_error<JitError>(Kind, Message.str());
}

JitErrorKind cucpu::modules::takeJitError(llvm::Error E, std::string &Message) {
  JitErrorKind Kind = JitErrorKind::Internal;
  Message.clear();
  llvm::handleAllErrors(
      std::move(E),
      [&](const JitError &J) {
        Kind = J.kind();
        Message += J.text();
      },
      [&](const llvm::ErrorInfoBase &Other) { Message += Other.message(); });
  return Kind;
}

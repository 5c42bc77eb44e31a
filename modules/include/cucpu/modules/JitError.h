//===- JitError.h - Why a module could not be compiled ----------*- C++ -*-===//
//
// modules/ knows nothing of CUresult (driver -> modules, never back), so its
// errors say what kind of failure they are and the driver picks the code.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_JITERROR_H
#define CUCPU_MODULES_JITERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace cucpu::modules {

/// What went wrong while loading a module.
enum class JitErrorKind {
  /// The image is malformed: the bitcode does not parse or verify, or it does
  /// not match the image's kernel descriptions (CUDA_ERROR_INVALID_IMAGE).
  InvalidImage,
  /// The IR is valid but uses something cucpu cannot run on the CPU (an
  /// unknown NVVM intrinsic, inline PTX, an unresolved external function).
  Unsupported,
  /// A symbol that was asked for does not exist (CUDA_ERROR_NOT_FOUND).
  NotFound,
  /// The JIT itself failed (a bug in cucpu or LLVM).
  Internal,
};

/// An error of modules/; the message is a complete sentence.
class JitError : public llvm::ErrorInfo<JitError> {
public:
  static char ID;

  JitError(JitErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}

  /// The kind of failure, from which the driver picks its CUresult.
  JitErrorKind kind() const { return Kind; }
  /// The explanation.
  const std::string &text() const { return Message; }

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  JitErrorKind Kind;
  std::string Message;
};

/// Builds a JitError of \p Kind with \p Message.
llvm::Error makeJitError(JitErrorKind Kind, const llvm::Twine &Message);

/// Consumes \p E: its kind (Internal for an error that is not a JitError)
/// and its message in \p Message. A success gives Internal and "".
JitErrorKind takeJitError(llvm::Error E, std::string &Message);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_JITERROR_H

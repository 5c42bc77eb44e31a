//===- PtxError.h - Errors of the PTX front end -----------------*- C++ -*-===//
#ifndef CUCPU_PTX_PTXERROR_H
#define CUCPU_PTX_PTXERROR_H

#include "llvm/Support/Error.h"

#include <string>

namespace cucpu::ptx {

/// Why PTX text could not be translated.
enum class PtxErrorKind {
  Invalid, ///< Malformed or unsupported PTX (CUDA_ERROR_INVALID_PTX).
  UnsupportedVersion, ///< A .version newer than the front end reads.
};

/// An error of the PTX front end: the line (0 if none) and what is wrong.
class PtxError : public llvm::ErrorInfo<PtxError> {
public:
  static char ID;
  PtxError(PtxErrorKind Kind, unsigned Line, std::string Message)
      : Kind(Kind), Line(Line), Message(std::move(Message)) {}
  /// "line 12: message", or the message alone for line 0.
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  PtxErrorKind kind() const { return Kind; }
  unsigned line() const { return Line; }

private:
  PtxErrorKind Kind;
  unsigned Line;
  std::string Message;
};

/// A PtxError of kind Invalid at \p Line.
inline llvm::Error ptxError(unsigned Line, const llvm::Twine &Message) {
  return llvm::make_error<PtxError>(PtxErrorKind::Invalid, Line, Message.str());
}

} // namespace cucpu::ptx

#endif // CUCPU_PTX_PTXERROR_H

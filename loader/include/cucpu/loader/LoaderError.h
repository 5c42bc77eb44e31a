//===- LoaderError.h - Errors of reading module images ----------*- C++ -*-===//
//
// Every failure of loader/ is an ImageError. It says whether the bytes were
// malformed (the driver answers CUDA_ERROR_INVALID_IMAGE) or well formed but
// held no code cucpu can run (CUDA_ERROR_NO_BINARY_FOR_GPU), and carries a
// sentence naming what was wrong. loader/ does not depend on cuda.h.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_LOADERERROR_H
#define CUCPU_LOADER_LOADERERROR_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace cucpu::loader {

/// Why an image could not be used.
enum class ImageErrorKind {
  Invalid,        ///< Malformed bytes: CUDA_ERROR_INVALID_IMAGE.
  NoBinaryForGpu, ///< Only PTX or NVIDIA code: CUDA_ERROR_NO_BINARY_FOR_GPU.
};

/// An error of reading, validating or writing a module image or fat binary.
class ImageError : public llvm::ErrorInfo<ImageError> {
public:
  static char ID;

  ImageError(ImageErrorKind Kind, std::string Message)
      : Kind(Kind), Message(std::move(Message)) {}

  /// Whether the image was malformed or just had no code for cucpu.
  ImageErrorKind kind() const { return Kind; }
  /// The complete sentence saying what was wrong.
  const std::string &text() const { return Message; }

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  ImageErrorKind Kind;
  std::string Message;
};

/// An ImageError of kind Invalid with a formatv-formatted message.
template <typename... Ts>
llvm::Error invalidImage(const char *Format, Ts &&...Args) {
  return llvm::make_error<ImageError>(
      ImageErrorKind::Invalid,
      llvm::formatv(Format, std::forward<Ts>(Args)...).str());
}

/// Prefixes the message of \p E (if it is an ImageError) with \p Context,
/// keeping its kind; other errors pass through unchanged.
llvm::Error addContext(llvm::Error E, const llvm::Twine &Context);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_LOADERERROR_H

//===- Error.h - Errors that carry a CUresult -------------------*- C++ -*-===//
//
// Internally every fallible operation returns llvm::Error / llvm::Expected<T>;
// the error carries the CUresult the entry point must return and a message
// that is a complete sentence, with the offending value and the limit.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ERROR_H
#define CUCPU_DRIVER_CORE_ERROR_H

#include <cuda.h>

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace cucpu {

/// An error that an entry point turns into its CUresult.
class CuError : public llvm::ErrorInfo<CuError> {
public:
  static char ID;

  CuError(CUresult Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}

  /// The driver API result code.
  CUresult code() const { return Code; }
  /// The human-readable explanation.
  const std::string &text() const { return Message; }

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  CUresult Code;
  std::string Message;
};

/// Builds an error with code \p Code and message \p Message.
llvm::Error makeError(CUresult Code, const llvm::Twine &Message);

/// Splits \p E into its CUresult and message; consumes the error.
/// A foreign (non-CuError) error becomes CUDA_ERROR_UNKNOWN.
CUresult toResult(llvm::Error E, std::string &Message);

} // namespace cucpu

#define CUCPU_CONCAT_IMPL(A, B) A##B
#define CUCPU_CONCAT(A, B) CUCPU_CONCAT_IMPL(A, B)

/// Returns an error with \p Code and a formatv-formatted message if \p Cond.
#define CU_INVALID_IF(Cond, Code, ...)                                         \
  do {                                                                         \
    if (Cond)                                                                  \
      return ::cucpu::makeError(Code, llvm::formatv(__VA_ARGS__).str());       \
  } while (false)

/// Evaluates the llvm::Expected \p Expr; on error returns it, otherwise
/// declares \p Decl bound to the value.
#define CU_TRY_ASSIGN(Decl, Expr)                                              \
  auto CUCPU_CONCAT(TryValue, __LINE__) = (Expr);                              \
  if (!CUCPU_CONCAT(TryValue, __LINE__))                                       \
    return CUCPU_CONCAT(TryValue, __LINE__).takeError();                       \
  Decl = *CUCPU_CONCAT(TryValue, __LINE__)

/// Evaluates the llvm::Error \p Expr and returns it if it failed.
#define CU_TRY(Expr)                                                           \
  do {                                                                         \
    if (llvm::Error TryErr = (Expr))                                           \
      return TryErr;                                                           \
  } while (false)

#endif // CUCPU_DRIVER_CORE_ERROR_H

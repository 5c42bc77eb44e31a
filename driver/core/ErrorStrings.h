//===- ErrorStrings.h - Names and descriptions of CUresult codes ----------===//
//
// The text behind cuGetErrorName / cuGetErrorString, also used by the
// driver's own logging.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ERRORSTRINGS_H
#define CUCPU_DRIVER_CORE_ERRORSTRINGS_H

#include <cuda.h>

namespace cucpu {

/// The enumerator name of \p Code ("CUDA_ERROR_INVALID_VALUE"), or nullptr if
/// \p Code is not a value of CUresult.
const char *knownErrorName(CUresult Code);

/// A one-sentence description of \p Code, or nullptr if \p Code is not a
/// value of CUresult.
const char *errorDescription(CUresult Code);

/// The enumerator name of \p Code for logs and messages; never null. For a
/// value that is not a CUresult it is "CUDA_ERROR_UNKNOWN_CODE(<value>)", in
/// a per-thread buffer that the next such call on the thread overwrites.
const char *errorName(CUresult Code);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_ERRORSTRINGS_H

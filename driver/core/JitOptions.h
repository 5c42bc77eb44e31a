//===- JitOptions.h - The JIT option lists of the driver ----------*- C++
//-*-===//
//
// cuModuleLoadDataEx and cuLinkCreate take an array of CUjit_option and an
// array of values. The driver uses the log buffers, the verbosity and the
// wall-time slot; the rest are hints for a GPU code generator. Outputs (log
// sizes, wall time) are written back into the value array, as NVIDIA's
// driver does.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_JITOPTIONS_H
#define CUCPU_DRIVER_CORE_JITOPTIONS_H

#include <cuda.h>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <string>

namespace cucpu {

/// What an option list asks of the driver.
struct JitOptions {
  char *InfoBuffer = nullptr;
  size_t InfoSize = 0;
  int InfoSizeIndex = -1; ///< Slot of CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES.
  char *ErrorBuffer = nullptr;
  size_t ErrorSize = 0;
  int ErrorSizeIndex = -1; ///< Slot of CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES.
  int WallTimeIndex = -1;  ///< Slot of CU_JIT_WALL_TIME.
  bool Verbose = false;    ///< CU_JIT_LOG_VERBOSE.
};

/// Checks the arrays (a sane count, no NULL array, every option known) and
/// reads what they ask for.
llvm::Expected<JitOptions> readJitOptions(unsigned NumOptions,
                                          const CUjit_option *Options,
                                          void *const *Values);

/// Copies \p Text into \p Buffer of \p Size bytes, NUL-terminated; returns
/// the bytes written including the NUL (0 without a buffer).
size_t writeJitLog(char *Buffer, size_t Size, const std::string &Text);

/// Writes \p Bytes into slot \p Index of \p Values (nothing for -1).
void writeJitSize(void **Values, int Index, size_t Bytes);

/// Writes \p Ms as a float into slot \p Index of \p Values (nothing for -1).
void writeJitWallTime(void **Values, int Index, float Ms);

/// Reads the option list, then runs \p Load, which compiles and writes its
/// notes into the string it is given; the wall time, the info log and, if
/// \p Load fails, its message as the error log are written back into
/// \p Values. Returns \p Load's error.
llvm::Error
loadWithJitOptions(unsigned NumOptions, CUjit_option *Options, void **Values,
                   llvm::function_ref<llvm::Error(std::string *)> Load);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_JITOPTIONS_H

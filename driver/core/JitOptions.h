//===- JitOptions.h - The JIT option lists of the driver --------*- C++ -*-===//
//
// cuModuleLoadDataEx and cuLinkCreate take an array of CUjit_option and an
// array of values. The driver uses the log buffers, the verbosity, the
// wall-time slot, the optimization level and the target; the rest are hints
// for a GPU code generator. Outputs (log sizes, wall time) are written back
// into the value array, as NVIDIA's driver does.
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
  /// CU_JIT_OPTIMIZATION_LEVEL: 0 to 4 (NVIDIA's default and highest); the
  /// CPU code is compiled at LLVM's -O0 to -O3 (4 is -O3).
  unsigned OptLevel = 4;
  bool OptLevelGiven = false; ///< Whether the list had the option.
  /// CU_JIT_TARGET as an SM number (75 for CU_TARGET_COMPUTE_75, also for
  /// its "a" and "f" variants); 0 when not given: the device's.
  unsigned TargetArch = 0;
  bool DebugInfo = false; ///< CU_JIT_GENERATE_DEBUG_INFO (accepted).
  bool LineInfo = false;  ///< CU_JIT_GENERATE_LINE_INFO (accepted).
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

/// Reads the option list, then runs \p Load with what it asks for; \p Load
/// compiles and writes its notes into the string it is given. The wall
/// time, the info log and, if \p Load fails, its message as the error log
/// are written back into \p Values. Returns \p Load's error.
llvm::Error loadWithJitOptions(
    unsigned NumOptions, CUjit_option *Options, void **Values,
    llvm::function_ref<llvm::Error(const JitOptions &, std::string *)> Load);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_JITOPTIONS_H

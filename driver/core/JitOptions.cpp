//===- JitOptions.cpp - The JIT option lists of the driver ----------------===//
#include "core/JitOptions.h"

#include "core/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

using namespace cucpu;

/// More JIT options than this is a garbage count, not an array to read.
static constexpr unsigned MaxJitOptions = 1024;

llvm::Expected<JitOptions> cucpu::readJitOptions(unsigned NumOptions,
                                                 const CUjit_option *Options,
                                                 void *const *Values) {
  CU_INVALID_IF(NumOptions > MaxJitOptions, CUDA_ERROR_INVALID_VALUE,
                "{0} JIT options is more than any program passes (at most "
                "{1}).",
                NumOptions, MaxJitOptions);
  CU_INVALID_IF(NumOptions > 0 && (!Options || !Values),
                CUDA_ERROR_INVALID_VALUE,
                "{0} JIT options were given but the option or value array is "
                "NULL.",
                NumOptions);
  for (unsigned I = 0; I < NumOptions; ++I)
    CU_INVALID_IF(Options[I] < 0 || Options[I] >= CU_JIT_NUM_OPTIONS,
                  CUDA_ERROR_INVALID_VALUE,
                  "JIT option {0} at index {1} is not a valid CUjit_option.",
                  static_cast<int>(Options[I]), I);
  JitOptions Read;
  for (unsigned I = 0; I < NumOptions; ++I) {
    auto Value = reinterpret_cast<uintptr_t>(Values[I]);
    switch (Options[I]) {
    case CU_JIT_INFO_LOG_BUFFER:
      Read.InfoBuffer = static_cast<char *>(Values[I]);
      break;
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      Read.InfoSize = Value;
      Read.InfoSizeIndex = static_cast<int>(I);
      break;
    case CU_JIT_ERROR_LOG_BUFFER:
      Read.ErrorBuffer = static_cast<char *>(Values[I]);
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      Read.ErrorSize = Value;
      Read.ErrorSizeIndex = static_cast<int>(I);
      break;
    case CU_JIT_WALL_TIME:
      Read.WallTimeIndex = static_cast<int>(I);
      break;
    case CU_JIT_LOG_VERBOSE:
      Read.Verbose = Value != 0;
      break;
    case CU_JIT_OPTIMIZATION_LEVEL:
      // "Level of optimizations to apply to generated code (0 - 4), with 4
      // being the default and highest level of optimizations" (cuda.h).
      // NVIDIA's driver takes a higher level as the highest (H200: 5 loads).
      Read.OptLevel = static_cast<unsigned>(std::min<uintptr_t>(Value, 4));
      Read.OptLevelGiven = true;
      break;
    case CU_JIT_TARGET: {
      // The "a" (arch-specific) and "f" (family) targets compile for the
      // same SM number.
      uint64_t Arch = Value & 0xffff;
      uint64_t Base = Value & ~uint64_t(0xffff);
      CU_INVALID_IF(
          (Base != 0 && Base != CU_COMPUTE_ACCELERATED_TARGET_BASE &&
           Base != CU_COMPUTE_FAMILY_TARGET_BASE) ||
              Arch < CU_TARGET_COMPUTE_30 || Arch > 999,
          CUDA_ERROR_INVALID_VALUE,
          "CU_JIT_TARGET {0} is not a CUjit_target (CU_TARGET_COMPUTE_30 to "
          "CU_TARGET_COMPUTE_121, possibly with its 'a' or 'f' base).",
          static_cast<uint64_t>(Value));
      Read.TargetArch = static_cast<unsigned>(Arch);
      break;
    }
    case CU_JIT_GENERATE_DEBUG_INFO:
      Read.DebugInfo = Value != 0;
      break;
    case CU_JIT_GENERATE_LINE_INFO:
      Read.LineInfo = Value != 0;
      break;
    default:
      // Optimization level, target, cache mode, ...: hints for a GPU code
      // generator; the CPU's code is compiled when the image is loaded.
      break;
    }
  }
  return Read;
}

size_t cucpu::writeJitLog(char *Buffer, size_t Size, const std::string &Text) {
  if (!Buffer || Size == 0)
    return 0;
  size_t N = std::min(Text.size(), Size - 1);
  std::memcpy(Buffer, Text.data(), N);
  Buffer[N] = '\0';
  return N + 1;
}

void cucpu::writeJitSize(void **Values, int Index, size_t Bytes) {
  if (Index >= 0)
    Values[Index] = reinterpret_cast<void *>(static_cast<uintptr_t>(Bytes));
}

void cucpu::writeJitWallTime(void **Values, int Index, float Ms) {
  if (Index < 0)
    return;
  Values[Index] = nullptr;
  std::memcpy(&Values[Index], &Ms, sizeof(Ms));
}

llvm::Error cucpu::loadWithJitOptions(
    unsigned NumOptions, CUjit_option *Options, void **Values,
    llvm::function_ref<llvm::Error(const JitOptions &, std::string *)> Load) {
  CU_TRY_ASSIGN(JitOptions Logs, readJitOptions(NumOptions, Options, Values));
  std::string Info;
  auto Start = std::chrono::steady_clock::now();
  llvm::Error E = Load(Logs, &Info);
  writeJitWallTime(Values, Logs.WallTimeIndex,
                   std::chrono::duration<float, std::milli>(
                       std::chrono::steady_clock::now() - Start)
                       .count());
  // A module load reports the log's length without its NUL, at most the
  // buffer's size (H200: 148 for a 148-character error log, 8 for one cut
  // to an 8-byte buffer).
  auto Reported = [](char *Buffer, size_t Size,
                     const std::string &Text) -> size_t {
    if (!writeJitLog(Buffer, Size, Text))
      return 0;
    return std::min(Text.size(), Size);
  };
  writeJitSize(Values, Logs.InfoSizeIndex,
               Reported(Logs.InfoBuffer, Logs.InfoSize, Info));
  if (!E) {
    writeJitSize(Values, Logs.ErrorSizeIndex, 0);
    return llvm::Error::success();
  }
  std::string Message;
  CUresult Code = toResult(std::move(E), Message);
  // The error log's lines end in a newline, as ptxas writes them.
  writeJitSize(Values, Logs.ErrorSizeIndex,
               Reported(Logs.ErrorBuffer, Logs.ErrorSize, Message + "\n"));
  return makeError(Code, Message);
}

//===- EntryPoint.h - The frame of every driver entry point -----*- C++ -*-===//
//
// An entry point is thin: it checks arguments, resolves handles, calls one
// method and turns the internal llvm::Error into a CUresult:
//
//   CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *Out, size_t Bytes) {
//     return CU_ENTRY(Out, Bytes).run([&]() -> llvm::Error { ... });
//   }
//
// CU_ENTRY records the function name and its arguments for CUCPU_LOG, and
// run() checks that cuInit succeeded, keeps the message of a failure for the
// calling thread and logs the call.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ENTRYPOINT_H
#define CUCPU_DRIVER_CORE_ENTRYPOINT_H

#include "core/Error.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <string_view>
#include <type_traits>

/// Marks a definition as part of libcuda's exported ABI (the library is
/// built with hidden visibility).
#define CUCPU_EXPORT extern "C" __attribute__((visibility("default")))

namespace cucpu::api {

/// How much the driver writes to stderr, from CUCPU_LOG.
enum class LogLevel {
  Off,    ///< Nothing (unset or "0").
  Errors, ///< Failed calls with their message ("errors").
  Calls   ///< Every call, its arguments and its result ("1", "all").
};

/// The level chosen by CUCPU_LOG, read once.
LogLevel logLevel();

/// The message of the last failed driver call on this thread ("" if none).
const std::string &lastMessage();

/// Records \p Message as this thread's last failure and logs it if enabled.
void recordFailure(const char *Function, CUresult Code,
                   const std::string &Message);

/// Whether cuInit has succeeded in this process.
bool isInitialized();

/// Answer of an exported name that cucpu does not implement: records a
/// message and returns CUDA_ERROR_NOT_SUPPORTED. \p Legacy marks the pre-3.2
/// ABI symbols that a program only reaches when built against an old header.
int notSupported(const char *Name, bool Legacy);

/// Writes one argument of a call for the log.
template <typename T> void formatArg(llvm::raw_ostream &OS, const T &Value) {
  if constexpr (std::is_same_v<T, const char *>) {
    if (Value)
      OS << '"' << Value << '"';
    else
      OS << "NULL";
  } else if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
    if (Value)
      OS << reinterpret_cast<const void *>(Value);
    else
      OS << "NULL";
  } else if constexpr (std::is_enum_v<T>) {
    OS << static_cast<long long>(Value);
  } else if constexpr (std::is_floating_point_v<T>) {
    OS << Value;
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (sizeof(T) == 8 && std::is_unsigned_v<T>)
      OS << llvm::format_hex(static_cast<uint64_t>(Value), 2);
    else
      OS << static_cast<long long>(Value);
  } else {
    OS << "{...}";
  }
}

/// One call of an entry point: its name and, when logging, its arguments.
class Entry {
public:
  template <typename... Args>
  Entry(const char *Name, std::string_view ArgNames, const Args &...Values)
      : Name(Name) {
    (void)ArgNames; // Unused by calls without arguments.
    if (logLevel() == LogLevel::Off)
      return;
    llvm::raw_string_ostream OS(Arguments);
    (formatNext(OS, ArgNames, Values), ...);
  }

  /// Runs \p Body once cuInit has succeeded; otherwise answers
  /// CUDA_ERROR_NOT_INITIALIZED without running it.
  template <typename Fn> CUresult run(Fn &&Body) {
    if (!isInitialized())
      return finish(makeError(CUDA_ERROR_NOT_INITIALIZED,
                              "cuInit has not been called successfully."));
    return finish(Body());
  }

  /// Runs \p Body whether or not cuInit was called (cuInit itself, version
  /// and error-string queries).
  template <typename Fn> CUresult runBeforeInit(Fn &&Body) {
    return finish(Body());
  }

private:
  template <typename T>
  void formatNext(llvm::raw_ostream &OS, std::string_view &ArgNames,
                  const T &Value) {
    size_t Comma = ArgNames.find(',');
    std::string_view ArgName = ArgNames.substr(0, Comma);
    while (!ArgName.empty() && ArgName.front() == ' ')
      ArgName.remove_prefix(1);
    ArgNames = Comma == std::string_view::npos ? std::string_view()
                                               : ArgNames.substr(Comma + 1);
    if (!Arguments.empty())
      OS << ", ";
    OS << ArgName << '=';
    formatArg(OS, Value);
  }

  CUresult finish(llvm::Error E);

  const char *Name;
  std::string Arguments;
};

} // namespace cucpu::api

/// Starts an entry point: CU_ENTRY(arg1, arg2).run([&]() -> llvm::Error {..}).
#define CU_ENTRY(...)                                                          \
  ::cucpu::api::Entry(__func__, #__VA_ARGS__ __VA_OPT__(, ) __VA_ARGS__)

#endif // CUCPU_DRIVER_CORE_ENTRYPOINT_H

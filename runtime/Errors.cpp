//===- Errors.cpp - Last errors, messages and error strings ---------------===//
#include "Errors.h"

#include <cucpu/cucpu.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

enum class LogLevel { Off, Errors, Calls };

LogLevel logLevel() {
  static const LogLevel Level = [] {
    const char *Value = std::getenv("CUCPU_LOG");
    if (!Value || !*Value || std::strcmp(Value, "0") == 0)
      return LogLevel::Off;
    return std::strcmp(Value, "errors") == 0 ? LogLevel::Errors
                                             : LogLevel::Calls;
  }();
  return Level;
}

/// The last error and its message, per host thread: "the last error that
/// has been produced by any of the runtime calls in the same host thread"
/// (cudaGetLastError).
thread_local cudaError_t LastError = cudaSuccess;
thread_local std::string LastMessage;

void writeLine(const std::string &Line) {
  // One fwrite per line keeps lines from concurrent threads whole.
  std::string Out = "cucpu: " + Line + "\n";
  std::fwrite(Out.data(), 1, Out.size(), stderr);
}

cudaError_t record(const char *Function, cudaError_t Code,
                   std::string Message) {
  LastError = Code;
  LastMessage = std::move(Message);
  if (logLevel() != LogLevel::Off)
    writeLine(std::string(Function) + " -> " + cudaGetErrorName(Code) + ": " +
              LastMessage);
  return Code;
}

} // namespace

cudaError_t cucpu::rt::fromDriver(CUresult R) {
  switch (static_cast<int>(R)) {
#define CUDART_ERROR(Name, Value, Text)                                        \
  case Value:                                                                  \
    return Name;
#include "ErrorCodes.def"
#undef CUDART_ERROR
  default:
    return cudaErrorUnknown;
  }
}

cudaError_t cucpu::rt::fail(const char *Function, cudaError_t Code,
                            const char *Format, ...) {
  char Buffer[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Buffer, sizeof(Buffer), Format, Args);
  va_end(Args);
  return record(Function, Code, Buffer);
}

cudaError_t cucpu::rt::failDriverAs(const char *Function, CUresult R,
                                    cudaError_t Code) {
  const char *Message = cucpuGetLastErrorMessage();
  if (!Message || !*Message) {
    const char *Text = nullptr;
    cuGetErrorString(R, &Text);
    Message = Text ? Text : "the driver call failed";
  }
  return record(Function, Code, Message);
}

cudaError_t cucpu::rt::failDriver(const char *Function, CUresult R) {
  return failDriverAs(Function, R, fromDriver(R));
}

void cucpu::rt::traceSuccess(const char *Function) {
  if (logLevel() == LogLevel::Calls)
    writeLine(std::string(Function) + " -> cudaSuccess");
}

extern "C" {

cudaError_t CUDARTAPI cudaGetLastError(void) {
  cudaError_t E = LastError;
  LastError = cudaSuccess;
  return E;
}

cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return LastError; }

const char *CUDARTAPI cudaGetErrorName(cudaError_t Error) {
  switch (static_cast<int>(Error)) {
#define CUDART_ERROR(Name, Value, Text)                                        \
  case Value:                                                                  \
    return #Name;
#include "ErrorCodes.def"
#undef CUDART_ERROR
  default:
    return "unrecognized error code";
  }
}

const char *CUDARTAPI cudaGetErrorString(cudaError_t Error) {
  switch (static_cast<int>(Error)) {
#define CUDART_ERROR(Name, Value, Text)                                        \
  case Value:                                                                  \
    return Text;
#include "ErrorCodes.def"
#undef CUDART_ERROR
  default:
    return "unrecognized error code";
  }
}

} // extern "C"

namespace cucpu::rt {
/// The answer of every function listed in NotSupported.def.
int notSupported(const char *Name) {
  return fail(Name, cudaErrorNotSupported,
              "%s is not supported by cucpu's runtime yet "
              "(docs/conformance.md lists what is missing).",
              Name);
}
} // namespace cucpu::rt

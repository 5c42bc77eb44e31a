//===- EntryPoint.cpp - The frame of every driver entry point -------------===//
#include "core/EntryPoint.h"

#include "core/ErrorStrings.h"
#include "core/Platform.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {
thread_local std::string LastMessage;

LogLevel readLogLevel() {
  const char *Value = std::getenv("CUCPU_LOG");
  if (!Value || !*Value || std::strcmp(Value, "0") == 0)
    return LogLevel::Off;
  if (std::strcmp(Value, "errors") == 0)
    return LogLevel::Errors;
  return LogLevel::Calls;
}

void writeLine(const std::string &Line) {
  // One fwrite per line keeps lines from concurrent threads whole.
  std::string Out = "cucpu: " + Line + "\n";
  std::fwrite(Out.data(), 1, Out.size(), stderr);
}
} // namespace

LogLevel api::logLevel() {
  static const LogLevel Level = readLogLevel();
  return Level;
}

const std::string &api::lastMessage() { return LastMessage; }

bool api::isInitialized() { return Platform::get().isInitialized(); }

void api::recordFailure(const char *Function, CUresult Code,
                        const std::string &Message) {
  LastMessage = Message;
  if (logLevel() == LogLevel::Errors)
    writeLine(std::string(Function) + " -> " + errorName(Code) + ": " +
              Message);
}

CUresult Entry::finish(llvm::Error E) {
  std::string Message;
  CUresult Result = toResult(std::move(E), Message);
  if (Result != CUDA_SUCCESS)
    recordFailure(Name, Result, Message);
  if (logLevel() == LogLevel::Calls) {
    std::string Line =
        std::string(Name) + "(" + Arguments + ") -> " + errorName(Result);
    if (Result != CUDA_SUCCESS)
      Line += ": " + Message;
    writeLine(Line);
  }
  return Result;
}

int api::notSupported(const char *Name, bool Legacy) {
  std::string Message =
      Legacy ? std::string(Name) +
                   " is the pre-CUDA-3.2 form with 32-bit device pointers; "
                   "rebuild the program against a current cuda.h, which "
                   "selects the _v2 entry point."
             : std::string(Name) + " is not implemented by cucpu.";
  recordFailure(Name, CUDA_ERROR_NOT_SUPPORTED, Message);
  if (logLevel() == LogLevel::Calls)
    writeLine(std::string(Name) +
              "(...) -> CUDA_ERROR_NOT_SUPPORTED: " + Message);
  return CUDA_ERROR_NOT_SUPPORTED;
}

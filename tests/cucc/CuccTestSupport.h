//===- CuccTestSupport.h - What the cucc tests share ------------*- C++ -*-===//
//
// Running the cucc binary, the sources in inputs/, and temporary files.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_CUCC_CUCCTESTSUPPORT_H
#define CUCPU_TESTS_CUCC_CUCCTESTSUPPORT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace cucpu::cucc::test {

/// The path of tests/cucc/inputs/<Name>.
inline std::string inputPath(llvm::StringRef Name) {
  llvm::SmallString<256> Path(CUCC_TEST_INPUTS);
  llvm::sys::path::append(Path, Name);
  return std::string(Path);
}

/// A temporary file that is removed at the end of the test.
struct TempFile {
  explicit TempFile(llvm::StringRef Suffix) {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("cucc-test", Suffix, Path));
  }
  ~TempFile() { llvm::sys::fs::remove(Path); }
  llvm::SmallString<256> Path;
};

/// Runs \p Program with \p Args; its stdout goes to \p Stdout and its stderr
/// to \p Stderr (inherited where empty).
inline int runProgram(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
                      llvm::StringRef Stderr = "",
                      llvm::StringRef Stdout = "") {
  std::vector<llvm::StringRef> Argv = {Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  auto Redirect = [](llvm::StringRef Path) {
    return Path.empty() ? std::optional<llvm::StringRef>()
                        : std::optional<llvm::StringRef>(Path);
  };
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Redirect(Stdout),
                                                Redirect(Stderr)};
  return llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects);
}

/// Runs cucc with \p Args; its stderr goes to \p Stderr.
inline int runCucc(llvm::ArrayRef<std::string> Args,
                   llvm::StringRef Stderr = "") {
  return runProgram(CUCC_PATH, Args, Stderr);
}

/// The contents of the file at \p Path; empty if it cannot be read.
inline std::string readText(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// A command line from string literals.
inline std::vector<std::string> args(std::initializer_list<const char *> List) {
  return std::vector<std::string>(List.begin(), List.end());
}

} // namespace cucpu::cucc::test

#endif // CUCPU_TESTS_CUCC_CUCCTESTSUPPORT_H

//===- Stages.cpp - Showing and running cucc's commands -------------------===//

#include "Stages.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace cucpu::cucc {

std::string quoteCommand(ArrayRef<std::string> Cmd) {
  std::string Line;
  for (const std::string &Arg : Cmd) {
    if (!Line.empty())
      Line += ' ';
    if (Arg.find_first_of(" \t\"'$\\") == std::string::npos && !Arg.empty()) {
      Line += Arg;
      continue;
    }
    Line += '\'';
    for (char C : Arg)
      Line += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Line += '\'';
  }
  return Line;
}

void Stages::show(const Twine &Line) {
  if (Verbose || DryRun)
    Log << "#$ " << Line << "\n";
}

Expected<int> Stages::run(ArrayRef<std::string> Cmd) {
  show(quoteCommand(Cmd));
  if (DryRun)
    return 0;
  SmallVector<StringRef, 32> Args(Cmd.begin(), Cmd.end());
  std::string ErrMsg;
  int RC =
      sys::ExecuteAndWait(Cmd.front(), Args, std::nullopt, {}, 0, 0, &ErrMsg);
  if (RC < 0)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("cannot run '{0}': {1}.", Cmd.front(), ErrMsg));
  return RC;
}

Expected<std::string> Stages::temporaryFile(const Twine &Stem,
                                            StringRef Suffix) {
  SmallString<256> Path;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cucc-" + Stem, Suffix, Path))
    return createStringError(
        inconvertibleErrorCode(),
        formatv("cannot create a temporary file: {0}.", EC.message()));
  Temporaries.push_back(std::make_unique<FileRemover>(Path));
  return std::string(Path);
}

} // namespace cucpu::cucc

//===- Stages.h - Showing and running cucc's commands -----------*- C++ -*-===//
//
// What every stage of a cucc run shares: the `#$ ` lines of -v and --dryrun,
// running a tool, and temporary files that go away when the run ends.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_STAGES_H
#define CUCPU_TOOLS_CUCC_STAGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace cucpu::cucc {

/// One command line as a shell would read it back.
std::string quoteCommand(llvm::ArrayRef<std::string> Cmd);

/// Shows and runs the commands of one cucc invocation and owns its
/// temporary files.
class Stages {
public:
  /// -v (\p Verbose) shows each stage on \p Log; --dryrun (\p DryRun) shows
  /// them and runs none.
  Stages(bool Verbose, bool DryRun, llvm::raw_ostream &Log)
      : Verbose(Verbose), DryRun(DryRun), Log(Log) {}

  /// True under --dryrun: stages are shown, nothing runs or is written.
  bool dryRun() const { return DryRun; }

  /// Shows \p Line as a `#$ ` line under -v or --dryrun.
  void show(const llvm::Twine &Line);

  /// Shows \p Cmd and, unless --dryrun, runs it (Cmd[0] is the program);
  /// returns its exit code (0 under --dryrun). A program that cannot be
  /// started is an error.
  llvm::Expected<int> run(llvm::ArrayRef<std::string> Cmd);

  /// A new temporary file "cucc-<Stem>-XXXXXX.<Suffix>", removed when this
  /// object goes away.
  llvm::Expected<std::string> temporaryFile(const llvm::Twine &Stem,
                                            llvm::StringRef Suffix);

private:
  bool Verbose;
  bool DryRun;
  llvm::raw_ostream &Log;
  std::vector<std::unique_ptr<llvm::FileRemover>> Temporaries;
};

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_STAGES_H

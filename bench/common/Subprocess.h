//===- Subprocess.h - Timing one operation in a fresh process -*- C++ -*-===//
//
// The module-load benchmarks time the first cuModuleLoad (or clBuildProgram)
// of a new process: the executable starts itself again with --child=<job>
// and an environment of its choosing, and the child prints the seconds the
// operation took as its last line.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_SUBPROCESS_H
#define CUCPU_BENCH_COMMON_SUBPROCESS_H

#include <string>
#include <utility>
#include <vector>

namespace bench {

/// Environment variables to set (or override) in a child.
using EnvList = std::vector<std::pair<std::string, std::string>>;

/// What a child reported.
struct ChildResult {
  /// The child exited with 0 and printed a number.
  bool Ok = false;
  /// The number it printed (seconds).
  double Seconds = 0;
  /// Why not Ok.
  std::string Error;
};

/// Runs this executable with `--child=<Job> Args...` and the environment
/// plus \p Env; waits for it and parses its output.
ChildResult runChild(const std::string &Job,
                     const std::vector<std::string> &Args, const EnvList &Env);

/// A fresh empty directory under $TMPDIR (or /tmp), removed with its
/// contents by the destructor.
class TempDir {
public:
  /// Creates the directory; \p Tag goes into its name.
  explicit TempDir(const char *Tag);
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  /// Its path.
  const std::string &path() const { return Path; }

private:
  std::string Path;
};

} // namespace bench

#endif

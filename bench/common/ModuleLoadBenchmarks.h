//===- ModuleLoadBenchmarks.h - Module loads in a fresh process -*- C++ -*-===//
//
// module_load.cold and module_load.warm time the first load (cuModuleLoad,
// clBuildProgram) of the matrixMul kernel in a new process (Subprocess.h):
// one child per repetition, after one untimed child (the warm-up, which for
// the warm case fills the cache). The child times the one call, checks the
// loaded kernel (MatrixMulCheck.h) and prints the seconds. Each form
// supplies the child's work and the children's environments. bench-cucpu
// --ptx times the same loads of nvcc's PTX of that kernel too
// (module_load.cold.ptx, module_load.warm.ptx).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_MODULELOADBENCHMARKS_H
#define CUCPU_BENCH_COMMON_MODULELOADBENCHMARKS_H

#include "Options.h"
#include "Subprocess.h"

#include <string>

namespace bench {

/// The environment of one module-load benchmark's children.
struct ChildEnv {
  /// Variables set (or overridden) in the child.
  EnvList Vars;
  /// A cache directory that the warm-up child must leave non-empty; "" for
  /// none.
  std::string CacheDir;
};

/// One form's module loads.
struct ModuleLoads {
  /// The child job (--child=<Job> <File>; "load", "build") and what its
  /// argument is, for the usage message ("the cubin's path").
  const char *Job, *Takes;
  /// The cache that the warm-up fills, for messages ("compute cache").
  const char *Cache;
  /// The file that the children load.
  std::string File;
  /// The same kernel as nvcc's PTX, which module_load.cold.ptx and
  /// module_load.warm.ptx load (--ptx); "" where the form takes no PTX.
  std::string PtxFile;
  /// The environment of module_load.warm's children (\p Warm) or
  /// module_load.cold's, of those loading PtxFile when \p FromPtx (a cache
  /// of their own); called when the benchmark first runs.
  ChildEnv (*Env)(bool Warm, bool FromPtx);
  /// In the child: loads \p File, sets \p Seconds to the time the load took
  /// and returns whether the loaded kernel computes the right product.
  bool (*LoadAndCheck)(const std::string &File, double &Seconds);
};

/// Registers module_load.cold and module_load.warm (with --ptx, each
/// followed by its .ptx variant, which loads L.PtxFile); \p L must outlive
/// the run.
void registerModuleLoadBenchmarks(const Options &O, const ModuleLoads &L);

/// The child's side (--child=<L.Job> <file>): loads and checks once, prints
/// the seconds as its last line; returns the exit code.
int runModuleLoadChild(const Options &O, const ModuleLoads &L);

/// A new temporary directory (for a cache), removed at exit; ends the run if
/// it cannot be made. \p Tag goes into its name, \p What into the message.
const std::string &cacheDir(const char *Tag, const char *What);

} // namespace bench

#endif

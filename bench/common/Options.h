//===- Options.h - Problem sizes and run settings ---------------*- C++ -*-===//
//
// The three benchmark executables (bench-cucpu, bench-pocl, bench-native)
// share one table of problem sizes per mode, so that every form of a kernel
// computes exactly the same thing. run.sh passes --mode=quick or --mode=full.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_OPTIONS_H
#define CUCPU_BENCH_COMMON_OPTIONS_H

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

/// How big the problems are and how long each is timed.
enum class Mode { Quick, Full };

/// The problem size of every benchmark, one table per Mode (Options.cpp).
struct Sizes {
  /// Elements of x and y.
  int SaxpyN;
  /// Rows (and columns) of the square matrices; a multiple of 16.
  int MatmulN;
  /// Floats summed; a multiple of 1024 (one block's share).
  int ReduceN;
  /// Rows (and columns) of the square matrix; a multiple of 32.
  int TransposeN;
  /// Bytes counted into the 256 bins.
  int HistogramN;
  /// Blocks of 256 threads that share the histogram input.
  int HistogramBlocks;
  /// Options priced.
  int BlackScholesN;
  /// Bodies; a multiple of 256.
  int NBodyN;
  /// Points per side of the square stencil grid; a multiple of 16.
  int StencilN;
  /// Bytes per host-device copy.
  size_t CopyBytes;
  /// Launches queued before one synchronize in launch.queued.
  int LaunchBatch;
  /// Batches timed per repetition of launch.queued.
  int LaunchBatches;
};

/// Everything an executable takes from its own flags (the rest goes to
/// Google Benchmark).
struct Options {
  /// --mode=quick|full (default full).
  Mode RunMode = Mode::Full;
  /// The sizes of RunMode.
  Sizes Size{};
  /// Repetitions whose median is reported (at least 5).
  int Repetitions = 5;
  /// Google Benchmark's minimum time per repetition, in seconds.
  double MinTime = 0.1;
  /// --scaling: only the compute-bound kernels (the thread-scaling runs).
  bool ScalingOnly = false;
  /// --ptx (bench-cucpu): every kernel benchmark and the module loads also
  /// run from nvcc's PTX of the same source (kernels/ptx-nvcc-13.0), each
  /// registered as <name>.ptx right after the benchmark of cucc's image.
  bool Ptx = false;
  /// Set when this process is a child started by runChild (--child=<what>):
  /// the child's job and its arguments.
  std::string Child;
  /// The arguments after --child=<what>.
  std::vector<std::string> ChildArgs;
};

/// Reads and removes this harness's flags (--mode=, --scaling, --ptx,
/// --child=) from argv; exits with a message on a malformed one.
Options parseOptions(int &Argc, char **Argv);

/// "quick" or "full".
const char *modeName(Mode M);

/// One line listing the sizes in \p S (for the JSON context).
std::string describe(const Sizes &S);

} // namespace bench

#endif

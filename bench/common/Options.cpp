//===- Options.cpp - Problem sizes and run settings of the benchmarks -----===//
//
// Full sizes make every kernel take at least ~10 ms natively on a 2-core
// machine whose L3 cache holds 300 MiB: the memory-bound kernels' data must
// not fit in it. Quick sizes keep `run.sh --quick` within a few minutes
// even with a slow execution engine (the fiber-per-thread one took up to
// 2 s per run of matmul at 512).
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {
namespace {
constexpr size_t MiB = size_t(1) << 20;

// Sizes per mode. Change a size here and all three forms follow.
constexpr Sizes FullSizes = {
    /*SaxpyN=*/128 << 20,      /*MatmulN=*/1024,
    /*ReduceN=*/128 << 20,     /*TransposeN=*/4096,
    /*HistogramN=*/64 << 20,   /*HistogramBlocks=*/128,
    /*BlackScholesN=*/4 << 20, /*NBodyN=*/16384,
    /*StencilN=*/8192,         /*CopyBytes=*/64 * MiB,
    /*LaunchBatch=*/1000,      /*LaunchBatches=*/5};

constexpr Sizes QuickSizes = {
    /*SaxpyN=*/16 << 20,       /*MatmulN=*/512,
    /*ReduceN=*/4 << 20,       /*TransposeN=*/2048,
    /*HistogramN=*/16 << 20,   /*HistogramBlocks=*/128,
    /*BlackScholesN=*/4 << 20, /*NBodyN=*/8192,
    /*StencilN=*/4096,         /*CopyBytes=*/64 * MiB,
    /*LaunchBatch=*/1000,      /*LaunchBatches=*/3};

[[noreturn]] void usage(const char *Arg) {
  std::fprintf(stderr,
               "Unknown or malformed flag '%s'. This harness takes "
               "--mode=quick|full, --scaling and (bench-cucpu) --ptx; other "
               "flags go to Google Benchmark.\n",
               Arg);
  std::exit(2);
}
} // namespace

const char *modeName(Mode M) { return M == Mode::Quick ? "quick" : "full"; }

std::string describe(const Sizes &S) {
  char Text[512];
  std::snprintf(Text, sizeof(Text),
                "saxpy n=%d; matmul %dx%d; reduce n=%d; transpose %dx%d; "
                "histogram n=%d bytes, %d blocks; blackscholes n=%d; nbody "
                "n=%d; stencil %dx%d; copies %zu bytes; launch.queued %d "
                "launches x %d batches",
                S.SaxpyN, S.MatmulN, S.MatmulN, S.ReduceN, S.TransposeN,
                S.TransposeN, S.HistogramN, S.HistogramBlocks, S.BlackScholesN,
                S.NBodyN, S.StencilN, S.StencilN, S.CopyBytes, S.LaunchBatch,
                S.LaunchBatches);
  return Text;
}

Options parseOptions(int &Argc, char **Argv) {
  Options O;
  int Kept = 1;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    if (std::strncmp(A, "--mode=", 7) == 0) {
      if (std::strcmp(A + 7, "quick") == 0)
        O.RunMode = Mode::Quick;
      else if (std::strcmp(A + 7, "full") == 0)
        O.RunMode = Mode::Full;
      else
        usage(A);
    } else if (std::strcmp(A, "--scaling") == 0) {
      O.ScalingOnly = true;
    } else if (std::strcmp(A, "--ptx") == 0) {
      O.Ptx = true;
    } else if (std::strncmp(A, "--child=", 8) == 0) {
      // A child takes every remaining argument as its own.
      O.Child = A + 8;
      for (int J = I + 1; J < Argc; ++J)
        O.ChildArgs.emplace_back(Argv[J]);
      break;
    } else {
      Argv[Kept++] = Argv[I];
    }
  }
  Argc = Kept;
  Argv[Argc] = nullptr;
  O.Size = O.RunMode == Mode::Quick ? QuickSizes : FullSizes;
  O.Repetitions = O.RunMode == Mode::Quick ? 5 : 7;
  O.MinTime = O.RunMode == Mode::Quick ? 0.05 : 0.2;
  return O;
}

} // namespace bench

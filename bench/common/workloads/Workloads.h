//===- Workloads.h - The kernel benchmarks' Workload builders -*- C++ -*-===//
//
// One builder per kernel, each in its own file beside this header: inputs,
// arguments, launch shape and the host-reference check.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_WORKLOADS_WORKLOADS_H
#define CUCPU_BENCH_COMMON_WORKLOADS_WORKLOADS_H

#include "../Workload.h"

namespace bench {

/// y = a * x + y over Sizes::SaxpyN floats.
Workload makeSaxpy(const Sizes &S);
/// C = A * B, square MatmulN matrices, 16 x 16 shared tiles.
Workload makeMatmul(const Sizes &S);
/// Per-block sums of ReduceN floats (1024 per block of 256 threads).
Workload makeReduce(const Sizes &S);
/// The same sums, the last 64 added by a warp through volatile shared memory
/// without __syncwarp (the legacy warp-synchronous idiom).
Workload makeReduceWarpSync(const Sizes &S);
/// Transpose of a square TransposeN matrix through a 32 x 33 tile.
Workload makeTranspose(const Sizes &S);
/// 256-bin histogram of HistogramN bytes with shared atomics.
Workload makeHistogram(const Sizes &S);
/// Black-Scholes call and put prices of BlackScholesN options.
Workload makeBlackScholes(const Sizes &S);
/// Accelerations of NBodyN bodies from all bodies (all pairs).
Workload makeNBody(const Sizes &S);
/// One 5-point stencil sweep over a StencilN x StencilN grid.
Workload makeStencil(const Sizes &S);

} // namespace bench

#endif

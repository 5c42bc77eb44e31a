//===- NativeHarness.h - The native C++ forms of the benchmarks -*- C++ -*-===//
//
// bench-native: each kernel as plain C++ with OpenMP (compiled with -O3
// -march=native), using OMP_NUM_THREADS threads, which run.sh sets to
// cucpu's worker count. A kernel function gets the Workload (for its scalar
// arguments and sizes) and pointers to working copies of its buffers. The
// form's parts (common/Form.h) are in KernelBenchmarks.cpp and Baselines.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_NATIVE_NATIVEHARNESS_H
#define CUCPU_BENCH_NATIVE_NATIVEHARNESS_H

#include "../common/Form.h"

#include <vector>

namespace bench::native {

/// A kernel's native form: computes on \p Buffers (Workload order) what the
/// CUDA kernel computes, with the Workload's arguments.
using NativeKernel = void (*)(const Workload &W,
                              const std::vector<void *> &Buffers);

/// y = a * x + y.
void saxpy(const Workload &W, const std::vector<void *> &Buffers);
/// C = A * B.
void matmul(const Workload &W, const std::vector<void *> &Buffers);
/// A plain sum per 1024-float block.
void reduce(const Workload &W, const std::vector<void *> &Buffers);
/// out = transpose(in), in 32 x 32 blocks.
void transpose(const Workload &W, const std::vector<void *> &Buffers);
/// 256-bin histogram, one private histogram per thread.
void histogram(const Workload &W, const std::vector<void *> &Buffers);
/// Black-Scholes call and put prices.
void blackScholes(const Workload &W, const std::vector<void *> &Buffers);
/// All-pairs accelerations.
void nbody(const Workload &W, const std::vector<void *> &Buffers);
/// One 5-point stencil sweep.
void stencil(const Workload &W, const std::vector<void *> &Buffers);

/// The native form of the Workload named \p Name; null if none.
NativeKernel kernelFor(const char *Name);

} // namespace bench::native

#endif

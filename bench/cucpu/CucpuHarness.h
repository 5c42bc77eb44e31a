//===- CucpuHarness.h - Driver-API helpers of bench-cucpu -------*- C++ -*-===//
//
// bench-cucpu uses only the public driver API (include/cuda.h), like the
// samples: one context on device 0, the kernels' cubins (compiled by cucc
// at build time) loaded once with cuModuleLoad. Every CUresult is checked;
// a failed call ends the run with its name and message.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_CUCPU_CUCPUHARNESS_H
#define CUCPU_BENCH_CUCPU_CUCPUHARNESS_H

#include "../common/Options.h"

#include <cuda.h>

#include <string>

namespace bench::cucpu {

/// Ends the run (bench::fatal) unless \p R is CUDA_SUCCESS; \p What is the
/// call's text.
void check(CUresult R, const char *What);

/// Checks a driver call: CU_CHECK(cuMemAlloc(&P, N)).
#define CU_CHECK(Call) ::bench::cucpu::check((Call), #Call)

/// cuInit, device 0 and its context, made current on the calling thread.
/// Returns the context (created once).
CUcontext context();

/// The device's worker count (its multiprocessor count).
int workers();

/// The path of the cubin that cucc compiled from bench/kernels/<Name>.cu.
std::string cubinPath(const std::string &Name);

/// The kernel \p Kernel of bench/kernels/<File>.cu, its module loaded on
/// first use.
CUfunction function(const std::string &File, const std::string &Kernel);

/// Registers one benchmark per Workload (the kernels).
void registerKernelBenchmarks(const Options &O);
/// Frees the device memory of the last kernel benchmark (call before exit).
void releaseKernelBenchmarks();
/// Registers launch.sync (cuLaunchGrid + cuCtxSynchronize) and launch.queued.
void registerLaunchBenchmarks(const Options &O);
/// Registers module_load.cold and module_load.warm.
void registerModuleLoadBenchmarks(const Options &O);
/// Registers the copy.* benchmarks (cuMemcpyHtoD / cuMemcpyDtoH).
void registerCopyBenchmarks(const Options &O);
/// Frees the copy benchmarks' buffers (call before exit).
void releaseCopyBenchmarks();

/// The child job of the module-load benchmarks (--child=load <cubin>): loads
/// the cubin once in this fresh process and prints the seconds
/// cuModuleLoad took. Returns the exit code.
int runLoadChild(const Options &O);

} // namespace bench::cucpu

#endif

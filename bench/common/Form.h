//===- Form.h - What each benchmark executable implements -------*- C++ -*-===//
//
// bench-cucpu, bench-pocl and bench-native register the same benchmarks in
// the same order, check and time them the same way (benchMain), and differ
// only in how they run them on their device. Each executable defines the
// functions below once, in its own harness files; the shared code calls
// them. Never two forms in one process: our libcuda and PoCL each link an
// LLVM of their own.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_COMMON_FORM_H
#define CUCPU_BENCH_COMMON_FORM_H

#include "CopyBenchmarks.h"
#include "KernelBenchmarks.h"
#include "ModuleLoadBenchmarks.h"

#include <cstddef>
#include <memory>

namespace bench::form {

/// "cucpu", "pocl" or "native": the form in the JSON context and the first
/// word of every failure message.
const char *name();

/// The thread count (cucpu's workers, PoCL's compute units, OpenMP's
/// threads), for the JSON context.
int threads();

/// Whether the form can load the kernels from nvcc's PTX (--ptx, which
/// the others refuse): only cucpu's.
bool takesPtx();

/// Sets up \p W on the device: buffers with their initial contents, kernel
/// and arguments (ends the run on a failed API call).
std::unique_ptr<DeviceWorkload> prepareWorkload(Workload W);

/// Registers launch.sync and launch.queued, with the form's empty kernel
/// (bench::registerLaunchBenchmarks<>).
void registerLaunchBenchmarks(const Options &O);

/// The module-load benchmarks and their child job; null where the form has
/// none (native).
const ModuleLoads *moduleLoads();

/// Allocates the copy benchmarks' device and page-locked buffers of \p Bytes
/// each (ends the run on a failed API call).
std::unique_ptr<CopyDevice> makeCopyDevice(size_t Bytes);

} // namespace bench::form

#endif

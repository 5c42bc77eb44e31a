//===- CucpuHarness.h - Driver-API helpers of bench-cucpu -------*- C++ -*-===//
//
// bench-cucpu uses only the public driver API (include/cuda.h), like the
// samples: one context on device 0, the kernels' cubins (compiled by cucc
// at build time) or, with --ptx, nvcc's PTX of the same sources
// (kernels/ptx-nvcc-13.0, compiled by the driver's PTX JIT) loaded once
// with cuModuleLoad. Every CUresult is checked;
// a failed call ends the run with its name and message. The form's parts
// (common/Form.h) are defined in the .cpp files beside this one.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_CUCPU_CUCPUHARNESS_H
#define CUCPU_BENCH_CUCPU_CUCPUHARNESS_H

#include "../common/Form.h"

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

/// The path of the cubin that cucc compiled from bench/kernels/<Name>.cu.
std::string cubinPath(const std::string &Name);

/// The path of nvcc 13.0's PTX of bench/kernels/<Name>.cu (or of the
/// matrixMul sample's kernel), committed in bench/kernels/ptx-nvcc-13.0.
std::string ptxPath(const std::string &Name);

/// The kernel \p Kernel of bench/kernels/<File>.cu, from cucc's cubin or,
/// when \p FromPtx, from nvcc's PTX; its module loaded on first use.
CUfunction function(const std::string &File, const std::string &Kernel,
                    bool FromPtx);

} // namespace bench::cucpu

#endif

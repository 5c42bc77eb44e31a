//===- Launch.h - The driver-API side of a kernel test ----------*- C++ -*-===//
//
// Loading the cubin, matching the ARGs to the kernel's parameters,
// launching, and cleaning up: public <cuda.h> calls only, so that the same
// code runs on cucpu and on NVIDIA's driver.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_LAUNCH_H
#define CUCPU_TESTS_KERNELS_LAUNCH_H

#include "Args.h"

#include <cuda.h>

#include <vector>

namespace kernelrunner {

/// The kernel under test and what holds it.
struct Kernel {
  CUcontext Ctx = nullptr; ///< A context of its own on device 0.
  CUmodule Mod = nullptr;  ///< The loaded cubin.
  CUfunction Fn = nullptr; ///< The kernel.
};

/// cuInit, a context on device 0, the module Cubin and its function Name
/// into K. Returns 0, or 1 after printing which step failed.
int loadKernel(const char *Cubin, const char *Name, Kernel &K);

/// Fills Params with pointers to the bytes of the ARGs that are parameters
/// (not global:), checking them one for one against the parameters of Fn.
/// Returns 0, or 1 after printing the mismatch.
int kernelParams(CUfunction Fn, std::vector<Arg> &Args,
                 std::vector<void *> &Params);

/// Launches K on Grid x Block threads with Shared bytes of dynamic shared
/// memory and synchronizes; the first failure, or CUDA_SUCCESS.
CUresult launch(const Kernel &K, const unsigned Grid[3],
                const unsigned Block[3], unsigned Shared,
                std::vector<void *> &Params);

/// Frees the ARGs' buffers, unloads the module and destroys the context.
void release(Kernel &K, std::vector<Arg> &Args);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_LAUNCH_H

//===- PoclHarness.h - OpenCL helpers of bench-pocl -------------*- C++ -*-===//
//
// bench-pocl runs the OpenCL C forms of the kernels (bench/kernels/*.cl) on
// PoCL's CPU device, with POCL_MAX_PTHREAD_COUNT threads (run.sh sets it to
// cucpu's worker count). Every cl_int is checked; a failed call ends the run
// with its name and code. The form's parts (common/Form.h) are defined in
// the .cpp files beside this one.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_BENCH_POCL_POCLHARNESS_H
#define CUCPU_BENCH_POCL_POCLHARNESS_H

#include "../common/Form.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

namespace bench::pocl {

/// Ends the run (bench::fatal) unless \p Err is CL_SUCCESS; \p What is the
/// call's text.
void check(cl_int Err, const char *What);

/// Checks an OpenCL call: CL_CHECK(clFinish(Q)).
#define CL_CHECK(Call) ::bench::pocl::check((Call), #Call)

/// The PoCL CPU device, its context and an in-order queue (created once).
struct Device {
  /// PoCL's platform.
  cl_platform_id Platform = nullptr;
  /// Its CPU device.
  cl_device_id Id = nullptr;
  /// A context on it.
  cl_context Context = nullptr;
  /// An in-order command queue.
  cl_command_queue Queue = nullptr;
};

/// The device (found and set up on first use).
Device &device();

/// The path of bench/kernels/<Name>.cl.
std::string sourcePath(const std::string &Name);

/// The text of \p Path; ends the run if it cannot be read.
std::string readFile(const std::string &Path);

/// Builds \p Program for the device; on failure ends the run with the build
/// log.
void build(cl_program Program, const std::string &What);

/// The kernel \p Kernel of bench/kernels/<File>.cl, its program built on
/// first use (a new cl_kernel per call).
cl_kernel kernel(const std::string &File, const std::string &Kernel);

} // namespace bench::pocl

#endif

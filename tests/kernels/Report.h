//===- Report.h - How kernel_runner reports a failure -----------*- C++ -*-===//
//
// Every failure is one line on stderr, and the exit status 1.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_REPORT_H
#define CUCPU_TESTS_KERNELS_REPORT_H

#include <cuda.h>

#include <string>

namespace kernelrunner {

/// Prints Format (up to two %s: A and B) and a newline to stderr; returns 1,
/// the exit status of a failed test.
int fail(const char *Format, const std::string &A = "",
         const std::string &B = "");

/// The name of R (cuGetErrorName), or "?" if the driver knows none.
const char *resultName(CUresult R);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_REPORT_H

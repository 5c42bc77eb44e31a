//===- Checks.h - The CHECKs of a kernel test -------------------*- C++ -*-===//
//
// After a successful launch, each buffer named by a CHECK is read back and
// compared with an expression, a list, or a host reference.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_CHECKS_H
#define CUCPU_TESTS_KERNELS_CHECKS_H

#include "Args.h"

#include <string>
#include <vector>

namespace kernelrunner {

/// Runs the CHECKs (K:EXPR[~TOL], K:[E0,...], K:F(A,...)[~BOUND,...]) on
/// the buffers among Args. Returns 0 if every element matches, or 1 after
/// printing the first mismatches and their count, or why a check is bad.
int runChecks(const std::vector<std::string> &Checks,
              const std::vector<Arg> &Args);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_CHECKS_H

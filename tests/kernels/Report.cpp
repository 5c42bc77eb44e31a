//===- Report.cpp - How kernel_runner reports a failure -------------------===//
//
// fail() takes strings rather than varargs so that callers can pass numbers
// through std::to_string and names as they are.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <cstdio>

namespace kernelrunner {

int fail(const char *Format, const std::string &A, const std::string &B) {
  std::fprintf(stderr, Format, A.c_str(), B.c_str());
  std::fprintf(stderr, "\n");
  return 1;
}

const char *resultName(CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return Name ? Name : "?";
}

} // namespace kernelrunner

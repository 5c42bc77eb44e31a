//===- ReferenceCheck.h - Checks K:F(A[,B[,C]])[~BOUND,...] -----*- C++ -*-===//
//
// A buffer compared element by element with a host reference applied to the
// elements of other buffers: bit for bit, or within ulp or absolute bounds.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_REFERENCECHECK_H
#define CUCPU_TESTS_KERNELS_REFERENCECHECK_H

#include <cstddef>
#include <string>
#include <vector>

namespace kernelrunner {

/// A buffer's elements on the host, as a reference check sees them.
struct Buffer {
  std::string Type;          ///< Element type.
  size_t Count;              ///< Elements.
  const unsigned char *Data; ///< Its contents, or null if not a buffer.
};

/// Runs a reference check "F(A,B,...)[~BOUND,...]" on buffer Out (its
/// contents after the launch) with the arguments' initial contents Args;
/// returns the number of mismatching elements (printing the first ten), or
/// -1 with Error set if the check is malformed.
long referenceCheck(const std::string &Check, const Buffer &Out,
                    const std::vector<Buffer> &Args, std::string &Error);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_REFERENCECHECK_H

//===- BufferInit.h - The INIT of buf: and global: arguments ----*- C++ -*-===//
//
// A buffer's initial contents from its INIT: an expression of i, a list, a
// math sweep (sweep, range) or pseudo-random bits (KernelRunner.cpp documents
// each form).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_BUFFERINIT_H
#define CUCPU_TESTS_KERNELS_BUFFERINIT_H

#include <cstddef>
#include <string>

namespace kernelrunner {

/// Fills Host (Count elements of Type) from INIT; false on a bad INIT.
bool initBuffer(const std::string &Type, const std::string &Init, size_t Count,
                unsigned char *Host);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_BUFFERINIT_H

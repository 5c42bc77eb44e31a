//===- HostTarget.h - The CPU that JIT-compiled kernels run on --*- C++ -*-===//
#ifndef CUCPU_MODULES_HOSTTARGET_H
#define CUCPU_MODULES_HOSTTARGET_H

#include <string>

namespace cucpu::modules {

/// What the JIT compiles kernels for: the host's triple, CPU and features.
/// The description also keys the compute cache, so that code compiled for
/// one CPU is never run on another.
struct HostTarget {
  std::string Triple;   ///< e.g. "x86_64-pc-linux-gnu".
  std::string Cpu;      ///< e.g. "znver4".
  std::string Features; ///< Comma-separated "+avx2,+fma,..." (enabled only).
  unsigned VectorBits = 128; ///< Widest vector register the CPU has.

  /// Detects the machine this process runs on.
  static HostTarget detect();
  /// One line for logs and cache keys.
  std::string describe() const;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_HOSTTARGET_H

//===- Args.h - The ARGs of a kernel test -----------------------*- C++ -*-===//
//
// One ARG each: a scalar, a device buffer (buf:), a struct by value (rec:)
// or a module variable (global:), with its bytes for the parameter list and
// a buffer's initial contents kept for the checks.
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_KERNELS_ARGS_H
#define CUCPU_TESTS_KERNELS_ARGS_H

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kernelrunner {

/// A kernel argument: its bytes in the parameter list, and for buffers the
/// device allocation.
struct Arg {
  std::string Type;                ///< Element type, or "rec".
  size_t Count = 0;                ///< Elements, for buffers.
  CUdeviceptr Dev = 0;             ///< For buffers.
  size_t Bytes = 0;                ///< Size of the parameter.
  bool Param = true;               ///< False for module variables (global:).
  std::vector<unsigned char> Host; ///< A buffer's initial contents.
  std::vector<uint64_t> Storage = std::vector<uint64_t>(1, 0); ///< Its value.
  /// The parameter's bytes (Storage), as the launch passes them.
  unsigned char *data() {
    return reinterpret_cast<unsigned char *>(Storage.data());
  }
};

/// Builds A from the ARG Text: a buffer is allocated (or, for global:, the
/// module variable of Mod looked up) and initialized on the device. Returns
/// 0, or 1 after printing why Text is bad or the driver failed.
int parseArg(const std::string &Text, CUmodule Mod, Arg &A);

} // namespace kernelrunner

#endif // CUCPU_TESTS_KERNELS_ARGS_H

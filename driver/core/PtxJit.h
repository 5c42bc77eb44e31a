//===- PtxJit.h - PTX text to a cucpu module image --------------*- C++ -*-===//
//
// The driver's PTX JIT as the loader sees it: PTX text goes through the PTX
// front end (ptx/) and comes back as a module image, so everything after
// (linking, lowering, the compute cache, launches) is the path cucc's images
// take.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_PTXJIT_H
#define CUCPU_DRIVER_CORE_PTXJIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace cucpu {

/// The module image of the PTX text \p Text (which need not be
/// NUL-terminated). Errors carry CUDA_ERROR_INVALID_PTX or
/// CUDA_ERROR_UNSUPPORTED_PTX_VERSION and name the line.
llvm::Expected<std::vector<uint8_t>> imageFromPtx(llvm::StringRef Text);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_PTXJIT_H

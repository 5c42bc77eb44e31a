//===- LibdeviceSignatures.h - libdevice's C types --------------*- C++ -*-===//
//
// PTX calls libdevice's __nv_* functions through .param memory with .bNN
// types only (clang's PTX declares them .extern), while cucpu's runtime
// implements them with their C signatures: floats in floating-point
// registers. The PTX JIT calls them with these types.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_LIBDEVICESIGNATURES_H
#define CUCPU_DRIVER_CORE_LIBDEVICESIGNATURES_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class FunctionType;
class LLVMContext;
} // namespace llvm

namespace cucpu {

/// The C signature of the libdevice function \p Name (as clang declares it
/// in __clang_cuda_libdevice_declares.h), or null for any other name.
llvm::FunctionType *libdeviceSignature(llvm::StringRef Name,
                                       llvm::LLVMContext &C);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_LIBDEVICESIGNATURES_H

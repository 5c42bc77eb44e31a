//===- DeviceLink.h - Linking relocatable device code -----------*- C++ -*-===//
//
// A translation unit compiled with -rdc=true does not register its fat
// binary itself: clang's host pass calls __cudaRegisterLinkedBinary_<id>,
// which nvcc's device link (-dlink) defines after linking the device code of
// every unit. cucc's device link defines each of these functions as a call
// of the runtime's __cudaRegisterRelocatableBinary with a token of the
// program (or shared library) being linked; the runtime links the units'
// relocatable images with the driver's JIT linker when the program first
// uses them (docs/cucc.md, Relocatable device code).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_DEVICELINK_H
#define CUCPU_TOOLS_CUCC_DEVICELINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// The __cudaRegisterLinkedBinary_<id> functions that the objects and
/// archive members among \p Inputs use without defining, sorted and
/// without repeats. Files that are neither objects nor archives (shared
/// libraries, linker scripts) are skipped; a file that cannot be read is an
/// error.
llvm::Expected<std::vector<std::string>>
linkedBinaryRegistrations(llvm::ArrayRef<std::string> Inputs);

/// The C source of the device-link object: each of \p Registrations defined
/// as a call of __cudaRegisterRelocatableBinary with one token per link.
std::string deviceLinkSource(llvm::ArrayRef<std::string> Registrations);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_DEVICELINK_H

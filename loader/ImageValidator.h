//===- ImageValidator.h - Semantic rules of a module image ------*- C++ -*-===//
//
// The rules a ModuleImage obeys whatever its encoding: names, parameter
// layouts, global sizes and initializers, texture descriptions. readImage()
// applies them after decoding, writeImage() before encoding, so nothing
// cucc writes can be refused by the driver and nothing refused is written.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_IMAGEVALIDATOR_H
#define CUCPU_LOADER_IMAGEVALIDATOR_H

#include "cucpu/loader/ModuleImage.h"

#include "llvm/ADT/StringRef.h"

namespace cucpu::loader {

/// Checks every rule of docs/module-format.md ("Validation") that concerns
/// the decoded contents of \p Image; the error names the offending entity.
llvm::Error validateImage(const ModuleImage &Image);

/// The number of the architecture \p TargetArch names ("sm_90a" -> 90), or
/// 0 when it has no number.
uint32_t archNumber(llvm::StringRef TargetArch);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_IMAGEVALIDATOR_H

//===- SizelessImage.h - The extent of a sizeless image ---------*- C++ -*-===//
//
// cuModuleLoadData, cuModuleLoadDataEx and cuModuleLoadFatBinary get a
// pointer and no size. The image's extent is what its header claims, and
// every claim is checked against memory that is really readable
// (ReadableMemory.h) before anything reads past the bytes already checked.
// Nothing is read in place: the bytes are copied by the kernel into a
// buffer the loader owns, which from there on goes through the same
// validating readers as an image with a known size.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_SIZELESSIMAGE_H
#define CUCPU_LOADER_SIZELESSIMAGE_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace cucpu::loader {

/// Largest extent a header may claim for an image given without its size.
inline constexpr uint64_t MaxSizelessImage = uint64_t(1) << 32;

/// A copy of the image at \p Data, whose size the caller did not give:
/// - an ELF file: up to the end of its furthest part (section header table,
///   program header table or section contents);
/// - a fat binary: the 16-byte header and the entries' size it states;
/// - a fat-binary wrapper: its magic, version and data pointer (16 bytes);
/// - anything else is text: up to and including its first NUL byte.
/// Fails with an ImageError of kind Invalid naming the header field whose
/// claim reaches past readable memory (or past MaxSizelessImage), or saying
/// that text has no NUL before unreadable memory.
llvm::Expected<std::vector<uint8_t>> sizelessImage(const void *Data);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_SIZELESSIMAGE_H

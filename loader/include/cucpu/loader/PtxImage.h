//===- PtxImage.h - A module image carried inside PTX text ------*- C++ -*-===//
//
// `cucc --ptx` writes the PTX of clang's NVPTX back end followed by the
// module image it compiles from the same source, in PTX comments:
//
//   //cucpu-image-begin
//   //<base64, 76 characters a line>
//   //cucpu-image-end
//
// NVIDIA's driver JIT-compiles the PTX and ignores the comments; cucpu's
// loads the image, so a program that builds its kernels with `nvcc -ptx`
// (cuda-samples' memMapIPCDrv, ...) runs on both. PTX without the block
// needs a PTX JIT (docs/module-format.md).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_PTXIMAGE_H
#define CUCPU_LOADER_PTXIMAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cucpu::loader {

/// The comment block that carries \p Image, to append to PTX text.
std::string ptxImageBlock(llvm::ArrayRef<uint8_t> Image);

/// Whether PTX text \p Ptx has an image block (not checked further).
bool hasPtxImage(llvm::StringRef Ptx);

/// The image carried by PTX text \p Ptx; none if it has no block. A block
/// that is cut off or not base64 is an ImageError of kind Invalid.
llvm::Expected<std::optional<std::vector<uint8_t>>>
imageInPtx(llvm::StringRef Ptx);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_PTXIMAGE_H

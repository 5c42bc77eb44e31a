//===- FatCompression.h - Compressed fat-binary entries ---------*- C++ -*-===//
//
// nvcc compresses the entries of a fat binary (CUDA 12.4 and later; by
// default in CUDA 13): the entry's flags say how, its payload holds the
// compressed bytes and the header's field at byte 56 the size they expand
// to. --compress-mode=speed writes an LZ4 block (flag 0x2000), size,
// balance and default a Zstandard frame (flag 0x8000).
// docs/module-format.md ("Compressed entries") has the layout.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_FATCOMPRESSION_H
#define CUCPU_LOADER_FATCOMPRESSION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace cucpu::loader {

/// Entry flag: the payload is an LZ4 block (nvcc --compress-mode=speed).
inline constexpr uint64_t FatFlagCompressedLz4 = 0x2000;
/// Entry flag: the payload is a Zstandard frame (nvcc's default).
inline constexpr uint64_t FatFlagCompressedZstd = 0x8000;
/// The largest size a compressed entry may expand to (less for a small
/// entry: a bounded multiple of its compressed size).
inline constexpr uint64_t MaxDecompressedEntry = uint64_t(1) << 30;

/// Expands the LZ4 block \p In (the raw block format: sequences of a token,
/// literals, a 2-byte offset and a match length) into exactly
/// \p ExpectedSize bytes; an ImageError of kind Invalid for a block that is
/// malformed, reaches outside its output or expands to another size.
llvm::Expected<std::vector<uint8_t>>
decompressLz4Block(llvm::ArrayRef<uint8_t> In, uint64_t ExpectedSize);

/// Expands the Zstandard frame \p In into exactly \p ExpectedSize bytes (with
/// LLVM's zstd); kind NoBinaryForGpu when this build has no zstd.
llvm::Expected<std::vector<uint8_t>>
decompressZstdFrame(llvm::ArrayRef<uint8_t> In, uint64_t ExpectedSize);

/// The LZ4 block that holds \p Data as literals only: what a compressor
/// writes for data without repeats (for tests and tools).
std::vector<uint8_t> lz4LiteralBlock(llvm::ArrayRef<uint8_t> Data);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_FATCOMPRESSION_H

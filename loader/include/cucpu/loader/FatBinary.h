//===- FatBinary.h - NVIDIA's fat-binary container --------------*- C++ -*-===//
//
// A fat binary holds several images of one module (PTX, NVIDIA cubins,
// cucpu images) in NVIDIA's framing: a 16-byte header with the magic
// 0xBA55ED50, then entries, each a 64-byte header and its padded payload.
// docs/module-format.md ("Fat binaries") gives the layout field by field.
// cucpu images are ELF entries whose payload is a cucpu module image.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_FATBINARY_H
#define CUCPU_LOADER_FATBINARY_H

#include "cucpu/loader/FatCompression.h"
#include "cucpu/loader/ImageKind.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace cucpu::loader {

/// Magic number of a fat binary's header.
inline constexpr uint32_t FatBinaryMagic = 0xBA55ED50;
/// Magic number of the __fatBinC_Wrapper_t that nvcc puts in host objects.
inline constexpr uint32_t FatBinaryWrapperMagic = 0x466243B1;
/// Size of the container header.
inline constexpr uint32_t FatHeaderSize = 16;
/// Size of the entry headers writeFatBinary() writes (readers accept 16+).
inline constexpr uint32_t FatEntryHeaderSize = 64;
/// Largest container accepted when the caller does not know its size.
inline constexpr uint64_t MaxFatBinarySize = uint64_t(1) << 32;

/// What an entry's payload is, as its header says.
enum class FatEntryKind : uint16_t {
  Ptx = 1, ///< PTX text.
  Elf = 2, ///< An ELF image: an NVIDIA cubin or a cucpu image.
};

/// Entry flags that say the payload is compressed (FatCompression.h).
inline constexpr uint64_t FatFlagCompressed =
    FatFlagCompressedLz4 | FatFlagCompressedZstd;
/// Entry flag: code for 64-bit addresses (writeFatBinary sets it).
inline constexpr uint64_t FatFlag64Bit = 0x1;

/// One entry of a fat binary.
struct FatBinaryEntry {
  uint16_t Kind = 0;    ///< FatEntryKind value, or another known kind (4/8/16).
  uint16_t Version = 0; ///< Entry header version (NVIDIA writes 0x0101).
  uint32_t Arch =
      0; ///< SM number the payload claims (90 for sm_90), 0 if none.
  uint64_t Flags = 0;  ///< FatFlag* bits.
  uint64_t Offset = 0; ///< Offset of the entry header in the container.
  /// What a compressed payload expands to (the header's field at byte 56).
  uint64_t UncompressedSize = 0;
  llvm::ArrayRef<uint8_t> Payload; ///< The payload, without padding when known.
  /// What the payload is: Ptx for a PTX entry, compressed or not; Unknown
  /// for a compressed ELF entry (cucc does not compress, so it is NVIDIA's).
  ImageKind PayloadKind = ImageKind::Unknown;
};

/// Parses and validates a fat binary of exactly \p Bytes (trailing bytes
/// fewer than an entry header are ignored, as NVIDIA's driver does). The
/// entries' payloads point into \p Bytes.
llvm::Expected<std::vector<FatBinaryEntry>>
readFatBinary(llvm::ArrayRef<uint8_t> Bytes);

/// The size of the fat binary at \p Data, read from its header alone (for
/// cuModuleLoadData and cuModuleLoadFatBinary, which get no size), at most
/// MaxFatBinarySize. Reads 16 bytes.
llvm::Expected<uint64_t> fatBinarySize(const void *Data);

/// The fat binary a __fatBinC_Wrapper_t at \p Wrapper points to (version 1
/// or 2); reads the wrapper's 24 bytes.
llvm::Expected<const void *> unwrapFatBinary(const void *Wrapper);

/// One image to put into a fat binary.
struct FatBinaryInput {
  uint16_t Kind = uint16_t(FatEntryKind::Elf); ///< FatEntryKind value.
  uint32_t Arch = 0;                           ///< SM number, e.g. 52.
  llvm::ArrayRef<uint8_t> Payload;             ///< Image bytes (not empty).
};

/// Writes a fat binary holding \p Entries in order; payloads are padded to
/// 8 bytes. Fails for an unknown kind or an empty payload.
llvm::Expected<std::vector<uint8_t>>
writeFatBinary(llvm::ArrayRef<FatBinaryInput> Entries);

/// The cucpu image to load from \p Entries: of the entries whose payload is
/// a cucpu image, the one with the highest Arch (the first if tied). Fails
/// with ImageError kind NoBinaryForGpu when the container holds only PTX or
/// NVIDIA code, and kind Invalid when an ELF entry is malformed.
llvm::Expected<llvm::ArrayRef<uint8_t>>
selectImage(llvm::ArrayRef<FatBinaryEntry> Entries);

/// How the driver chooses among a fat binary's entries.
struct EntryPolicy {
  /// The compute capability the device reports (75 for 7.5): PTX for it or
  /// below is preferred, as NVIDIA's driver prefers.
  uint32_t DeviceArch = 75;
  /// CUDA_FORCE_PTX_JIT=1: a PTX entry wins over a cucpu image.
  bool PreferPtx = false;
};

/// The entry to load from \p Entries: the cucpu image of the highest Arch,
/// or (if there is none, or \p Policy prefers PTX) the PTX entry of the
/// highest Arch not above Policy.DeviceArch, else the lowest Arch above it.
/// Fails like selectImage() when there is neither.
llvm::Expected<const FatBinaryEntry *>
chooseEntry(llvm::ArrayRef<FatBinaryEntry> Entries, const EntryPolicy &Policy);

/// The payload of \p E, expanded if it is compressed (FatCompression.h);
/// an ImageError saying why it cannot be.
llvm::Expected<std::vector<uint8_t>> entryPayload(const FatBinaryEntry &E);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_FATBINARY_H

//===- SizelessImage.cpp - The extent of an image given without a size ----===//
#include "cucpu/loader/SizelessImage.h"

#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ReadableMemory.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <string>

using namespace cucpu::loader;
using llvm::Error;
using llvm::Expected;

namespace {
/// Text is searched for its NUL this many bytes at a time.
constexpr size_t TextChunk = size_t(1) << 16;
/// What a wrapper's first 16 bytes hold: magic, version, data pointer.
constexpr size_t WrapperBytes = 16;
/// "\x7fELF" read as a little-endian u32.
constexpr uint32_t ElfMagic = 0x464c457f;

/// The furthest byte a header claims, and the claim's description.
struct Claim {
  uint64_t End = 0;
  std::string What;

  /// Notes that \p What reaches \p Offset + \p Size; claims that overflow
  /// or pass MaxSizelessImage end at UINT64_MAX.
  void extend(uint64_t Offset, uint64_t Size, std::string Description) {
    uint64_t Reach = Offset <= MaxSizelessImage && Size <= MaxSizelessImage
                         ? Offset + Size
                         : UINT64_MAX;
    if (Reach > End) {
      End = Reach;
      What = std::move(Description);
    }
  }
};

/// A copy of the bytes at \p Data up to what \p C claims, once every one of
/// them is known to be readable.
Expected<std::vector<uint8_t>> claimed(const uint8_t *Data, const Claim &C) {
  if (C.End > MaxSizelessImage)
    return invalidImage("{0} reaches past {1} bytes, the most an image given "
                        "without its size may hold.",
                        C.What, MaxSizelessImage);
  size_t Readable = readableLength(Data, C.End);
  std::vector<uint8_t> Copy(Readable == C.End ? C.End : 0);
  if (Readable < C.End || !copyReadable(Data, C.End, Copy.data()))
    return invalidImage("{0} reaches {1} bytes past the image's start, but "
                        "only the first {2} bytes there are readable memory.",
                        C.What, C.End, Readable);
  return Copy;
}

/// Copies one header of type T from \p Offset of \p Data (the caller has
/// checked that it is readable).
template <typename T> T headerAt(const uint8_t *Data, uint64_t Offset) {
  T Header{};
  if (!copyReadable(Data + Offset, sizeof(T), &Header))
    std::memset(&Header, 0, sizeof(T)); // Unmapped since: an empty header.
  return Header;
}

Expected<std::vector<uint8_t>> elfImage(const uint8_t *Data) {
  Claim Header;
  Header.extend(0, sizeof(Elf64_Ehdr), "The ELF header");
  Expected<std::vector<uint8_t>> Checked = claimed(Data, Header);
  if (!Checked)
    return Checked.takeError();
  Elf64_Ehdr H;
  std::memcpy(&H, Checked->data(), sizeof(H));
  if (H.e_ident[EI_CLASS] != ELFCLASS64)
    return invalidImage("An ELF image given without its size must be ELF64; "
                        "its class (e_ident[EI_CLASS]) is {0}.",
                        unsigned(H.e_ident[EI_CLASS]));
  if (H.e_shentsize != sizeof(Elf64_Shdr))
    return invalidImage("The section header size (e_shentsize) is {0}, not "
                        "{1}.",
                        H.e_shentsize, sizeof(Elf64_Shdr));
  if (H.e_phnum && H.e_phentsize != sizeof(Elf64_Phdr))
    return invalidImage("The program header size (e_phentsize) is {0}, not "
                        "{1}.",
                        H.e_phentsize, sizeof(Elf64_Phdr));
  Claim Tables = Header;
  Tables.extend(H.e_shoff, uint64_t(H.e_shnum) * sizeof(Elf64_Shdr),
                llvm::formatv("The section header table (e_shoff {0}, "
                              "e_shnum {1})",
                              H.e_shoff, H.e_shnum)
                    .str());
  Tables.extend(H.e_phoff, uint64_t(H.e_phnum) * sizeof(Elf64_Phdr),
                llvm::formatv("The program header table (e_phoff {0}, "
                              "e_phnum {1})",
                              H.e_phoff, H.e_phnum)
                    .str());
  if (Tables.End > MaxSizelessImage ||
      readableLength(Data, Tables.End) < Tables.End)
    return claimed(Data, Tables).takeError();
  Claim Whole = Tables;
  for (unsigned I = 1; I < H.e_shnum; ++I) {
    auto S = headerAt<Elf64_Shdr>(Data, H.e_shoff + I * sizeof(Elf64_Shdr));
    if (S.sh_type != SHT_NOBITS)
      Whole.extend(S.sh_offset, S.sh_size,
                   llvm::formatv("Section {0}'s contents (sh_offset {1}, "
                                 "sh_size {2})",
                                 I, S.sh_offset, S.sh_size)
                       .str());
  }
  return claimed(Data, Whole);
}

Expected<std::vector<uint8_t>> fatBinary(const uint8_t *Data) {
  Claim Header;
  Header.extend(0, FatHeaderSize, "The fat-binary header");
  Expected<std::vector<uint8_t>> Checked = claimed(Data, Header);
  if (!Checked)
    return Checked.takeError();
  Expected<uint64_t> Size = fatBinarySize(Checked->data());
  if (!Size)
    return Size.takeError();
  Claim Whole;
  Whole.extend(0, *Size,
               llvm::formatv("The fat binary's size field ({0} bytes of "
                             "entries after the header)",
                             *Size - FatHeaderSize)
                   .str());
  return claimed(Data, Whole);
}

/// Text up to and including its NUL, copied a chunk at a time.
Expected<std::vector<uint8_t>> text(const uint8_t *Data) {
  std::vector<uint8_t> Copy;
  while (Copy.size() < MaxSizelessImage) {
    size_t Readable = readableLength(Data + Copy.size(), TextChunk);
    size_t Old = Copy.size();
    Copy.resize(Old + Readable);
    if (!copyReadable(Data + Old, Readable, Copy.data() + Old))
      Readable = 0;
    if (const void *Nul = std::memchr(Copy.data() + Old, 0, Readable)) {
      Copy.resize(static_cast<const uint8_t *>(Nul) - Copy.data() + 1);
      return Copy;
    }
    if (Readable < TextChunk)
      return invalidImage("The image is neither ELF nor a fat binary, so it "
                          "must be NUL-terminated text, but the {0} readable "
                          "bytes at its address hold no NUL byte.",
                          Old + Readable);
  }
  return invalidImage("The image is text without a NUL byte in its first {0} "
                      "bytes.",
                      MaxSizelessImage);
}
} // namespace

Expected<std::vector<uint8_t>> cucpu::loader::sizelessImage(const void *Data) {
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  if (!Data)
    return invalidImage("The image pointer is NULL.");
  uint8_t Start[sizeof(uint32_t)] = {};
  size_t Readable = readableLength(Bytes, sizeof(Start));
  if (Readable == 0 || !copyReadable(Bytes, Readable, Start))
    return invalidImage("No byte at the image's address ({0}) is readable.",
                        Data);
  // A magic number needs all four bytes; text shorter than that ends with
  // a NUL, which no magic number holds.
  auto StartsWith = [&](uint32_t Magic) {
    for (size_t I = 0; I < sizeof(Magic); ++I)
      if (I >= Readable || Start[I] != uint8_t(Magic >> (8 * I)))
        return false;
    return true;
  };
  if (StartsWith(ElfMagic))
    return elfImage(Bytes);
  if (StartsWith(FatBinaryMagic))
    return fatBinary(Bytes);
  if (StartsWith(FatBinaryWrapperMagic)) {
    Claim Wrapper;
    Wrapper.extend(0, WrapperBytes,
                   "The fat-binary wrapper (magic, version and data "
                   "pointer)");
    return claimed(Bytes, Wrapper);
  }
  return text(Bytes);
}

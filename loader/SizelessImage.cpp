//===- SizelessImage.cpp - The extent of an image given without a size ----===//
#include "SizelessImage.h"

#include "FatBinary.h"
#include "LoaderError.h"
#include "ReadableMemory.h"

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <string>

using namespace cucpu::loader;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;

namespace {
/// Text is searched for its NUL this many bytes at a time.
constexpr size_t TextChunk = size_t(1) << 18;
/// What a wrapper's first 16 bytes hold: magic, version, data pointer.
constexpr size_t WrapperBytes = 16;

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

/// The \p Bytes up to what \p C claims, once every one of them is known to
/// be readable.
Expected<ArrayRef<uint8_t>> claimed(const uint8_t *Bytes, const Claim &C) {
  if (C.End > MaxSizelessImage)
    return invalidImage("{0} reaches past {1} bytes, the most an image given "
                        "without its size may hold.",
                        C.What, MaxSizelessImage);
  size_t Readable = readableLength(Bytes, C.End);
  if (Readable < C.End)
    return invalidImage("{0} reaches {1} bytes past the image's start, but "
                        "only the first {2} bytes there are readable memory.",
                        C.What, C.End, Readable);
  return ArrayRef<uint8_t>(Bytes, C.End);
}

Expected<ArrayRef<uint8_t>> elfImage(const uint8_t *Bytes) {
  Claim Header;
  Header.extend(0, sizeof(Elf64_Ehdr), "The ELF header");
  if (Expected<ArrayRef<uint8_t>> Checked = claimed(Bytes, Header); !Checked)
    return Checked.takeError();
  Elf64_Ehdr H;
  std::memcpy(&H, Bytes, sizeof(H));
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
  if (Expected<ArrayRef<uint8_t>> Checked = claimed(Bytes, Tables); !Checked)
    return Checked.takeError();
  Claim Whole = Tables;
  for (unsigned I = 1; I < H.e_shnum; ++I) {
    Elf64_Shdr S;
    std::memcpy(&S, Bytes + H.e_shoff + I * sizeof(Elf64_Shdr), sizeof(S));
    if (S.sh_type != SHT_NOBITS)
      Whole.extend(S.sh_offset, S.sh_size,
                   llvm::formatv("Section {0}'s contents (sh_offset {1}, "
                                 "sh_size {2})",
                                 I, S.sh_offset, S.sh_size)
                       .str());
  }
  return claimed(Bytes, Whole);
}

Expected<ArrayRef<uint8_t>> fatBinary(const uint8_t *Bytes) {
  Claim Header;
  Header.extend(0, FatHeaderSize, "The fat-binary header");
  if (Expected<ArrayRef<uint8_t>> Checked = claimed(Bytes, Header); !Checked)
    return Checked.takeError();
  Expected<uint64_t> Size = fatBinarySize(Bytes);
  if (!Size)
    return Size.takeError();
  Claim Whole;
  Whole.extend(0, *Size,
               llvm::formatv("The fat binary's size field ({0} bytes of "
                             "entries after the header)",
                             *Size - FatHeaderSize)
                   .str());
  return claimed(Bytes, Whole);
}

/// Text up to and including its NUL, searched for a chunk of readable
/// memory at a time.
Expected<ArrayRef<uint8_t>> text(const uint8_t *Bytes) {
  for (uint64_t Done = 0; Done < MaxSizelessImage;) {
    size_t Readable = readableLength(Bytes + Done, TextChunk);
    if (const void *Nul = std::memchr(Bytes + Done, 0, Readable))
      return ArrayRef<uint8_t>(Bytes, static_cast<const uint8_t *>(Nul) -
                                          Bytes + 1);
    Done += Readable;
    if (Readable < TextChunk)
      return invalidImage("The image is neither ELF nor a fat binary, so it "
                          "must be NUL-terminated text, but the {0} readable "
                          "bytes at its address hold no NUL byte.",
                          Done);
  }
  return invalidImage("The image is text without a NUL byte in its first {0} "
                      "bytes.",
                      MaxSizelessImage);
}
} // namespace

Expected<ArrayRef<uint8_t>> cucpu::loader::sizelessImage(const void *Data) {
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  if (!Data)
    return invalidImage("The image pointer is NULL.");
  size_t Readable = readableLength(Bytes, sizeof(uint32_t));
  if (Readable == 0)
    return invalidImage("No byte at the image's address ({0}) is readable.",
                        Data);
  if (Readable == sizeof(uint32_t)) {
    uint32_t Magic;
    std::memcpy(&Magic, Bytes, sizeof(Magic));
    if (std::memcmp(Bytes, ELFMAG, SELFMAG) == 0)
      return elfImage(Bytes);
    if (Magic == FatBinaryMagic)
      return fatBinary(Bytes);
    if (Magic == FatBinaryWrapperMagic) {
      Claim Wrapper;
      Wrapper.extend(0, WrapperBytes,
                     "The fat-binary wrapper (magic, version and data "
                     "pointer)");
      return claimed(Bytes, Wrapper);
    }
  }
  return text(Bytes);
}

//===- ImageKind.cpp - Telling module images apart by their bytes ---------===//
#include "ImageKind.h"

#include <cstdint>
#include <cstring>
#include <gelf.h>
#include <libelf.h>

using namespace cucpu;
using namespace cucpu::loader;

namespace {
constexpr uint32_t FatBinaryMagic = 0xBA55ED50;
constexpr uint32_t FatBinaryWrapperMagic = 0x466243B1;
constexpr unsigned MachineCuda = 190; // EM_CUDA

/// Whether \p Text (NUL-terminated) looks like PTX: after comments and
/// blank space, a ".version" directive.
bool looksLikePtx(const char *Text, size_t Limit) {
  size_t I = 0;
  while (I < Limit && Text[I]) {
    char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n') {
      ++I;
    } else if (C == '/' && I + 1 < Limit && Text[I + 1] == '/') {
      while (I < Limit && Text[I] && Text[I] != '\n')
        ++I;
    } else if (C == '/' && I + 1 < Limit && Text[I + 1] == '*') {
      I += 2;
      while (I + 1 < Limit && Text[I] && !(Text[I] == '*' && Text[I + 1] == '/'))
        ++I;
      I += 2;
    } else {
      return Limit - I >= 8 && std::strncmp(Text + I, ".version", 8) == 0;
    }
  }
  return false;
}

/// The fat-binary container: a 16-byte header, then entries that each start
/// with a kind, a version, their header size and their padded payload size.
struct FatHeader {
  uint32_t Magic;
  uint16_t Version;
  uint16_t HeaderSize;
  uint64_t FatSize; ///< Bytes of entries after the header.
};
struct FatEntryHeader {
  uint16_t Kind; ///< 1: PTX, 2: ELF image, 4/8/16: other code forms.
  uint16_t Version;
  uint32_t HeaderSize;
  uint64_t PaddedPayloadSize;
};
static_assert(sizeof(FatHeader) == 16 && sizeof(FatEntryHeader) == 16);

/// Largest fat binary accepted without a known buffer size.
constexpr uint64_t MaxFatSize = uint64_t(1) << 32;

/// Checks the framing of a fat binary: header fields and that every entry
/// lies inside the container.
bool validFatBinary(const unsigned char *Bytes, size_t Size, std::string &Why) {
  if (Size && Size < sizeof(FatHeader)) {
    Why = "The fat binary is shorter than its 16-byte header.";
    return false;
  }
  FatHeader H;
  std::memcpy(&H, Bytes, sizeof(H));
  if (H.Version != 1 || H.HeaderSize != sizeof(FatHeader)) {
    Why = "The fat binary has version " + std::to_string(H.Version) +
          " and header size " + std::to_string(H.HeaderSize) +
          " (expected 1 and 16).";
    return false;
  }
  uint64_t Limit = Size ? Size - sizeof(FatHeader) : MaxFatSize;
  if (H.FatSize == 0 || H.FatSize > Limit) {
    Why = "The fat binary claims " + std::to_string(H.FatSize) +
          " bytes of entries (at most " + std::to_string(Limit) + ").";
    return false;
  }
  uint64_t Offset = 0;
  while (H.FatSize - Offset >= sizeof(FatEntryHeader)) {
    FatEntryHeader E;
    std::memcpy(&E, Bytes + sizeof(FatHeader) + Offset, sizeof(E));
    bool KnownKind = E.Kind == 1 || E.Kind == 2 || E.Kind == 4 ||
                     E.Kind == 8 || E.Kind == 16;
    uint64_t Left = H.FatSize - Offset;
    if (!KnownKind || E.HeaderSize < sizeof(FatEntryHeader) ||
        E.HeaderSize > Left || E.PaddedPayloadSize > Left - E.HeaderSize) {
      Why = "The fat-binary entry at offset " + std::to_string(Offset) +
            " is invalid (kind " + std::to_string(E.Kind) + ", header " +
            std::to_string(E.HeaderSize) + " bytes, payload " +
            std::to_string(E.PaddedPayloadSize) + " bytes).";
      return false;
    }
    Offset += E.HeaderSize + E.PaddedPayloadSize;
  }
  return true;
}

ImageKind classifyElf(const void *Data, size_t Size, std::string &Why) {
  if (elf_version(EV_CURRENT) == EV_NONE) {
    Why = "libelf could not be initialized.";
    return ImageKind::Malformed;
  }
  Elf *E = elf_memory(const_cast<char *>(static_cast<const char *>(Data)), Size);
  if (!E || elf_kind(E) != ELF_K_ELF) {
    Why = std::string("The ELF header is invalid: ") + elf_errmsg(-1) + ".";
    if (E)
      elf_end(E);
    return ImageKind::Malformed;
  }
  GElf_Ehdr Header;
  size_t SectionNames = 0;
  if (!gelf_getehdr(E, &Header) || elf_getshdrstrndx(E, &SectionNames) != 0) {
    Why = std::string("The ELF header is invalid: ") + elf_errmsg(-1) + ".";
    elf_end(E);
    return ImageKind::Malformed;
  }
  // libelf reads what it can; the image must hold everything it claims.
  uint64_t TableEnd = Header.e_shoff + uint64_t(Header.e_shnum) * Header.e_shentsize;
  if (Header.e_shnum && (Header.e_shoff > Size || TableEnd > Size)) {
    Why = "The section header table (" + std::to_string(Header.e_shnum) +
          " entries at offset " + std::to_string(Header.e_shoff) +
          ") lies outside the " + std::to_string(Size) + "-byte image.";
    elf_end(E);
    return ImageKind::Malformed;
  }
  if (Header.e_machine != MachineCuda) {
    Why = "The ELF file is for machine " + std::to_string(Header.e_machine) +
          ", not EM_CUDA (190).";
    elf_end(E);
    return ImageKind::OtherElf;
  }
  ImageKind Kind = ImageKind::NvidiaCubin;
  for (Elf_Scn *S = elf_nextscn(E, nullptr); S; S = elf_nextscn(E, S)) {
    GElf_Shdr Section;
    if (!gelf_getshdr(S, &Section)) {
      Why = "A section header is invalid.";
      Kind = ImageKind::Malformed;
      break;
    }
    if (Section.sh_type != SHT_NOBITS &&
        (Section.sh_offset > Size || Section.sh_size > Size - Section.sh_offset)) {
      Why = "A section's contents lie outside the image.";
      Kind = ImageKind::Malformed;
      break;
    }
    const char *Name = elf_strptr(E, SectionNames, Section.sh_name);
    if (!Name) {
      Why = "A section name lies outside the section-name table.";
      Kind = ImageKind::Malformed;
      break;
    }
    if (std::strcmp(Name, IrSectionName) == 0)
      Kind = ImageKind::CucpuImage;
  }
  elf_end(E);
  return Kind;
}
} // namespace

ImageKind loader::classifyImage(const void *Data, size_t Size,
                                std::string &Why) {
  const auto *Bytes = static_cast<const unsigned char *>(Data);
  if (!Data) {
    Why = "The image pointer is NULL.";
    return ImageKind::Empty;
  }
  // Without a size, only the header is read before deciding how to go on.
  size_t Known = Size ? Size : 4;
  if (Size == 0 && Bytes[0] == 0) {
    Why = "The image is empty.";
    return ImageKind::Empty;
  }
  if (Known >= 4) {
    uint32_t Magic;
    std::memcpy(&Magic, Bytes, sizeof(Magic));
    if (Magic == FatBinaryMagic)
      return validFatBinary(Bytes, Size, Why) ? ImageKind::FatBinary
                                              : ImageKind::Malformed;
    if (Magic == FatBinaryWrapperMagic)
      return ImageKind::FatBinaryWrapper;
    if (std::memcmp(Bytes, "\x7f" "ELF", 4) == 0) {
      if (Size == 0) {
        // cuModuleLoadData gets no size: take it from the ELF header.
        Why = "An ELF image passed without its size must have a valid "
              "header.";
        if (Bytes[4] != ELFCLASS64)
          return ImageKind::Malformed;
        Elf64_Ehdr Header;
        std::memcpy(&Header, Bytes, sizeof(Header));
        if (Header.e_shentsize != sizeof(Elf64_Shdr) ||
            Header.e_shoff > (uint64_t(1) << 32))
          return ImageKind::Malformed;
        Size = Header.e_shoff + uint64_t(Header.e_shnum) * Header.e_shentsize;
      }
      return classifyElf(Data, Size, Why);
    }
  }
  size_t TextLimit = Size ? Size : SIZE_MAX;
  if (looksLikePtx(reinterpret_cast<const char *>(Bytes), TextLimit))
    return ImageKind::Ptx;
  Why = "The bytes are neither an ELF image, a fat binary nor PTX text.";
  return ImageKind::Unknown;
}

const char *loader::describe(ImageKind Kind) {
  switch (Kind) {
  case ImageKind::Empty: return "an empty image";
  case ImageKind::CucpuImage: return "a cucpu module image";
  case ImageKind::NvidiaCubin: return "an NVIDIA cubin";
  case ImageKind::FatBinary: return "an NVIDIA fat binary";
  case ImageKind::FatBinaryWrapper: return "an NVIDIA fat-binary wrapper";
  case ImageKind::Ptx: return "PTX text";
  case ImageKind::OtherElf: return "an ELF file for another machine";
  case ImageKind::Malformed: return "a malformed ELF image";
  case ImageKind::Unknown: return "unrecognized bytes";
  }
  return "unrecognized bytes";
}

//===- ImageKind.cpp - Telling module images apart by their bytes ---------===//
#include "ImageKind.h"

#include "FatBinary.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstring>
#include <gelf.h>
#include <libelf.h>

using namespace cucpu;
using namespace cucpu::loader;

namespace {
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

/// Size of an ELF image from its header: where its section header table
/// ends (cucpu's writer puts the table last). 0 if the header is unusable.
uint64_t elfSizeFromHeader(const unsigned char *Bytes) {
  if (Bytes[4] != ELFCLASS64)
    return 0;
  Elf64_Ehdr Header;
  std::memcpy(&Header, Bytes, sizeof(Header));
  if (Header.e_shentsize != sizeof(Elf64_Shdr) ||
      Header.e_shoff > (uint64_t(1) << 32))
    return 0;
  return Header.e_shoff + uint64_t(Header.e_shnum) * Header.e_shentsize;
}
} // namespace

ImageKind loader::classifyElf(const void *Data, size_t Size, std::string &Why) {
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
    if (Magic == FatBinaryMagic) {
      // The same parser the driver loads with, so the two never disagree.
      uint64_t Known = Size;
      if (!Known) {
        llvm::Expected<uint64_t> Implied = fatBinarySize(Bytes);
        if (!Implied) {
          Why = llvm::toString(Implied.takeError());
          return ImageKind::Malformed;
        }
        Known = *Implied;
      }
      auto Entries = readFatBinary(llvm::ArrayRef<uint8_t>(Bytes, Known));
      if (!Entries) {
        Why = llvm::toString(Entries.takeError());
        return ImageKind::Malformed;
      }
      return ImageKind::FatBinary;
    }
    if (Magic == FatBinaryWrapperMagic)
      return ImageKind::FatBinaryWrapper;
    if (std::memcmp(Bytes, "\x7f" "ELF", 4) == 0) {
      if (Size == 0) {
        // cuModuleLoadData gets no size: take it from the ELF header.
        Why = "An ELF image passed without its size must have a valid "
              "header.";
        Size = elfSizeFromHeader(Bytes);
        if (!Size)
          return ImageKind::Malformed;
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

size_t loader::impliedImageSize(const void *Data, ImageKind Kind) {
  const auto *Bytes = static_cast<const unsigned char *>(Data);
  if (!Data)
    return 0;
  switch (Kind) {
  case ImageKind::CucpuImage:
  case ImageKind::NvidiaCubin:
  case ImageKind::OtherElf:
    return elfSizeFromHeader(Bytes);
  case ImageKind::FatBinary: {
    llvm::Expected<uint64_t> Size = fatBinarySize(Data);
    if (!Size) {
      llvm::consumeError(Size.takeError());
      return 0;
    }
    return *Size;
  }
  case ImageKind::Ptx:
    return std::strlen(reinterpret_cast<const char *>(Bytes)) + 1;
  default:
    return 0;
  }
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

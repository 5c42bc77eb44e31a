//===- ImageKind.cpp - Telling module images apart by their bytes ---------===//
#include "cucpu/loader/ImageKind.h"

#include "cucpu/loader/ElfFile.h"
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/SizelessImage.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <elf.h>

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
      while (I + 1 < Limit && Text[I] &&
             !(Text[I] == '*' && Text[I + 1] == '/'))
        ++I;
      I += 2;
    } else {
      return Limit - I >= 8 && std::strncmp(Text + I, ".version", 8) == 0;
    }
  }
  return false;
}
} // namespace

ImageKind loader::classifyElf(const void *Data, size_t Size, std::string &Why) {
  // e_machine sits at the same offset in 32- and 64-bit headers.
  constexpr size_t MachineAt = offsetof(Elf64_Ehdr, e_machine);
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  if (Size < MachineAt + sizeof(uint16_t)) {
    Why = "The ELF header is cut off after " + std::to_string(Size) + " bytes.";
    return ImageKind::Malformed;
  }
  if ((Bytes[EI_CLASS] != ELFCLASS32 && Bytes[EI_CLASS] != ELFCLASS64) ||
      Bytes[EI_DATA] != ELFDATA2LSB || Bytes[EI_VERSION] != EV_CURRENT) {
    Why = "The ELF identification (class " + std::to_string(Bytes[EI_CLASS]) +
          ", data encoding " + std::to_string(Bytes[EI_DATA]) + ", version " +
          std::to_string(Bytes[EI_VERSION]) +
          ") is not that of a little-endian ELF file.";
    return ImageKind::Malformed;
  }
  uint16_t Machine = llvm::support::endian::read16le(Bytes + MachineAt);
  if (Machine != MachineCuda) {
    Why = "The ELF file is for machine " + std::to_string(Machine) +
          ", not EM_CUDA (190).";
    return ImageKind::OtherElf;
  }
  llvm::Expected<ElfFile> File = ElfFile::create({Bytes, Size});
  if (!File) {
    Why = llvm::toString(File.takeError());
    return ImageKind::Malformed;
  }
  return File->findSection(IrSectionName) ? ImageKind::CucpuImage
                                          : ImageKind::NvidiaCubin;
}

ImageKind loader::classifyImage(const void *Data, size_t Size,
                                std::string &Why) {
  if (!Data) {
    Why = "The image pointer is NULL.";
    return ImageKind::Empty;
  }
  if (Size == 0) {
    llvm::Expected<std::vector<uint8_t>> Image = sizelessImage(Data);
    if (!Image) {
      Why = llvm::toString(Image.takeError());
      return ImageKind::Malformed;
    }
    return classifyImage(Image->data(), Image->size(), Why);
  }
  const auto *Bytes = static_cast<const unsigned char *>(Data);
  if (Bytes[0] == 0) {
    Why = "The image is empty.";
    return ImageKind::Empty;
  }
  if (Size >= 4) {
    uint32_t Magic;
    std::memcpy(&Magic, Bytes, sizeof(Magic));
    if (Magic == FatBinaryMagic) {
      // The same parser the driver loads with, so the two never disagree.
      auto Entries = readFatBinary(llvm::ArrayRef<uint8_t>(Bytes, Size));
      if (!Entries) {
        Why = llvm::toString(Entries.takeError());
        return ImageKind::Malformed;
      }
      return ImageKind::FatBinary;
    }
    if (Magic == FatBinaryWrapperMagic)
      return ImageKind::FatBinaryWrapper;
    if (std::memcmp(Bytes,
                    "\x7f"
                    "ELF",
                    4) == 0)
      return classifyElf(Data, Size, Why);
  }
  if (looksLikePtx(reinterpret_cast<const char *>(Bytes), Size))
    return ImageKind::Ptx;
  Why = "The bytes are neither an ELF image, a fat binary nor PTX text.";
  return ImageKind::Unknown;
}

const char *loader::describe(ImageKind Kind) {
  switch (Kind) {
  case ImageKind::Empty:
    return "an empty image";
  case ImageKind::CucpuImage:
    return "a cucpu module image";
  case ImageKind::NvidiaCubin:
    return "an NVIDIA cubin";
  case ImageKind::FatBinary:
    return "an NVIDIA fat binary";
  case ImageKind::FatBinaryWrapper:
    return "an NVIDIA fat-binary wrapper";
  case ImageKind::Ptx:
    return "PTX text";
  case ImageKind::OtherElf:
    return "an ELF file for another machine";
  case ImageKind::Malformed:
    return "a malformed ELF image";
  case ImageKind::Unknown:
    return "unrecognized bytes";
  }
  return "unrecognized bytes";
}

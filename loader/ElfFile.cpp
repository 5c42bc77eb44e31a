//===- ElfFile.cpp - A bounds-checked read-only view of an ELF64 file -----===//
#include "cucpu/loader/ElfFile.h"

#include "cucpu/loader/LoaderError.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace cucpu::loader;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {
/// Whether [Offset, Offset + Size) lies inside a file of \p FileSize bytes,
/// without overflowing.
bool inside(uint64_t Offset, uint64_t Size, uint64_t FileSize) {
  return Offset <= FileSize && Size <= FileSize - Offset;
}
} // namespace

Expected<ElfFile> ElfFile::create(ArrayRef<uint8_t> Bytes) {
  ElfFile F;
  F.Bytes = Bytes;
  if (Bytes.size() < sizeof(Elf64_Ehdr))
    return invalidImage("The image ({0} bytes) is shorter than an ELF64 "
                        "header ({1} bytes).",
                        Bytes.size(), sizeof(Elf64_Ehdr));
  std::memcpy(&F.Header, Bytes.data(), sizeof(Elf64_Ehdr));
  const Elf64_Ehdr &H = F.Header;
  if (std::memcmp(H.e_ident, ELFMAG, SELFMAG) != 0)
    return invalidImage("The image does not start with the ELF magic bytes.");
  if (H.e_ident[EI_CLASS] != ELFCLASS64)
    return invalidImage("The ELF class is {0}, not ELFCLASS64 (2).",
                        unsigned(H.e_ident[EI_CLASS]));
  if (H.e_ident[EI_DATA] != ELFDATA2LSB)
    return invalidImage("The ELF data encoding is {0}, not little-endian "
                        "(1).",
                        unsigned(H.e_ident[EI_DATA]));
  if (H.e_ident[EI_VERSION] != EV_CURRENT || H.e_version != EV_CURRENT)
    return invalidImage("The ELF version is {0}/{1}, not 1.",
                        unsigned(H.e_ident[EI_VERSION]), H.e_version);
  if (H.e_ehsize != sizeof(Elf64_Ehdr))
    return invalidImage("The ELF header size is {0}, not {1}.", H.e_ehsize,
                        sizeof(Elf64_Ehdr));
  if (H.e_phnum != 0 &&
      (H.e_phentsize != sizeof(Elf64_Phdr) ||
       !inside(H.e_phoff, uint64_t(H.e_phnum) * sizeof(Elf64_Phdr),
               Bytes.size())))
    return invalidImage("The program header table ({0} entries of {1} bytes "
                        "at offset {2}) lies outside the {3}-byte image.",
                        H.e_phnum, H.e_phentsize, H.e_phoff, Bytes.size());
  if (H.e_shnum == 0)
    return invalidImage("The image has no section header table (e_shnum is "
                        "0; extended section numbering is not supported).");
  if (H.e_shentsize != sizeof(Elf64_Shdr))
    return invalidImage("The section header size is {0}, not {1}.",
                        H.e_shentsize, sizeof(Elf64_Shdr));
  if (!inside(H.e_shoff, uint64_t(H.e_shnum) * sizeof(Elf64_Shdr),
              Bytes.size()))
    return invalidImage("The section header table ({0} entries at offset "
                        "{1}) lies outside the {2}-byte image.",
                        H.e_shnum, H.e_shoff, Bytes.size());
  if (H.e_shstrndx == SHN_UNDEF || H.e_shstrndx >= H.e_shnum)
    return invalidImage("The section-name table index {0} is not a section "
                        "(there are {1}).",
                        H.e_shstrndx, H.e_shnum);

  F.Sections.resize(H.e_shnum);
  std::memcpy(F.Sections.data(), Bytes.data() + H.e_shoff,
              F.Sections.size() * sizeof(Elf64_Shdr));
  const Elf64_Shdr &Null = F.Sections[0];
  if (Null.sh_type != SHT_NULL || Null.sh_size != 0 || Null.sh_link != 0)
    return invalidImage("Section 0 is not the null section.");
  for (size_t I = 1; I < F.Sections.size(); ++I) {
    const Elf64_Shdr &S = F.Sections[I];
    if (S.sh_type != SHT_NOBITS &&
        !inside(S.sh_offset, S.sh_size, Bytes.size()))
      return invalidImage("Section {0} ({1} bytes at offset {2}) lies outside "
                          "the {3}-byte image.",
                          I, S.sh_size, S.sh_offset, Bytes.size());
    if (S.sh_addralign > 1 && !llvm::isPowerOf2_64(S.sh_addralign))
      return invalidImage("Section {0} has alignment {1}, not a power of two.",
                          I, S.sh_addralign);
    if (S.sh_link >= F.Sections.size())
      return invalidImage("Section {0} links to section {1}, but there are "
                          "only {2}.",
                          I, S.sh_link, F.Sections.size());
  }
  if (Error E = F.checkStringTable(H.e_shstrndx))
    return addContext(std::move(E), "The section-name table is invalid: ");

  F.Names.resize(F.Sections.size());
  llvm::StringSet<> Seen;
  for (size_t I = 1; I < F.Sections.size(); ++I) {
    Expected<StringRef> Name =
        F.string(H.e_shstrndx, F.Sections[I].sh_name, "section name");
    if (!Name)
      return addContext(Name.takeError(),
                        llvm::formatv("Section {0}: ", I).str());
    if (!Name->empty() && !Seen.insert(*Name).second)
      return invalidImage("Two sections are named \"{0}\".", *Name);
    F.Names[I] = *Name;
  }
  return F;
}

std::optional<size_t> ElfFile::findSection(StringRef Name) const {
  for (size_t I = 1; I < Sections.size(); ++I)
    if (Names[I] == Name)
      return I;
  return std::nullopt;
}

ArrayRef<uint8_t> ElfFile::contents(size_t Index) const {
  const Elf64_Shdr &S = Sections[Index];
  if (S.sh_type == SHT_NOBITS || S.sh_type == SHT_NULL)
    return {};
  // create() checked the extent.
  return Bytes.slice(S.sh_offset, S.sh_size);
}

Error ElfFile::checkStringTable(size_t Index) const {
  const Elf64_Shdr &S = Sections[Index];
  if (S.sh_type != SHT_STRTAB)
    return invalidImage("section {0} has type {1}, not SHT_STRTAB (3).", Index,
                        S.sh_type);
  ArrayRef<uint8_t> Data = contents(Index);
  if (Data.empty() || Data.front() != 0 || Data.back() != 0)
    return invalidImage("string table {0} is empty or does not start and "
                        "end with a NUL byte.",
                        Index);
  return Error::success();
}

Expected<StringRef> ElfFile::string(size_t Table, uint64_t Offset,
                                    StringRef What) const {
  ArrayRef<uint8_t> Data = contents(Table);
  // checkStringTable() guarantees the table ends with NUL, so any offset
  // inside it starts a terminated string; still, look for the NUL.
  if (Offset >= Data.size())
    return invalidImage("The {0} at offset {1} lies outside its {2}-byte "
                        "string table.",
                        What, Offset, Data.size());
  const char *Start = reinterpret_cast<const char *>(Data.data()) + Offset;
  const void *End = std::memchr(Start, 0, Data.size() - Offset);
  if (!End)
    return invalidImage("The {0} at offset {1} is not NUL-terminated inside "
                        "its string table.",
                        What, Offset);
  return StringRef(Start, static_cast<const char *>(End) - Start);
}

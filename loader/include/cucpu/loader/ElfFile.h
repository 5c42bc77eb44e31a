//===- ElfFile.h - A bounds-checked read-only view of an ELF64 file -------===//
//
// Module images arrive from untrusted callers, so they are not handed to a
// general ELF library that trusts offsets: ElfFile::create checks the header,
// the section header table, every section's extent and every section name
// before anything is used, and every later access is checked again.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_ELFFILE_H
#define CUCPU_LOADER_ELFFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <elf.h>
#include <optional>
#include <vector>

namespace cucpu::loader {

/// A validated little-endian ELF64 file in memory (the bytes must outlive it).
class ElfFile {
public:
  /// Validates the ELF header, the section header table, each section's
  /// extent, alignment and sh_link, and the section-name table; section names
  /// must be unique.
  static llvm::Expected<ElfFile> create(llvm::ArrayRef<uint8_t> Bytes);

  /// The file header.
  const Elf64_Ehdr &header() const { return Header; }
  /// Number of sections, including the null section 0.
  size_t sectionCount() const { return Sections.size(); }
  /// Header of section \p Index (< sectionCount()).
  const Elf64_Shdr &section(size_t Index) const { return Sections[Index]; }
  /// Name of section \p Index.
  llvm::StringRef sectionName(size_t Index) const { return Names[Index]; }
  /// Index of the section named \p Name, if there is one.
  std::optional<size_t> findSection(llvm::StringRef Name) const;
  /// Bytes of section \p Index (empty for SHT_NOBITS and SHT_NULL).
  llvm::ArrayRef<uint8_t> contents(size_t Index) const;
  /// The NUL-terminated string at \p Offset of string-table section
  /// \p Table, or an error naming \p What if it lies outside.
  llvm::Expected<llvm::StringRef> string(size_t Table, uint64_t Offset,
                                         llvm::StringRef What) const;
  /// Checks that section \p Index is a usable string table: SHT_STRTAB with
  /// contents, starting and ending with a NUL byte.
  llvm::Error checkStringTable(size_t Index) const;

private:
  ElfFile() = default;

  llvm::ArrayRef<uint8_t> Bytes;
  Elf64_Ehdr Header{};
  std::vector<Elf64_Shdr> Sections;
  std::vector<llvm::StringRef> Names;
};

} // namespace cucpu::loader

#endif // CUCPU_LOADER_ELFFILE_H

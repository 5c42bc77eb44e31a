//===- ElfWriter.h - Lays out a little-endian ELF64 file --------*- C++ -*-===//
//
// The writer side of ElfFile: sections are added in order (index 1 is the
// section-name table it makes itself), then write() lays out the header,
// the contents and, last, the section header table. Keeping the table last
// lets a reader that gets no buffer size (cuModuleLoadData) compute the
// image's size from its header alone.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_LOADER_ELFWRITER_H
#define CUCPU_LOADER_ELFWRITER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu::loader {

/// One section to write.
struct ElfSection {
  std::string Name;
  uint32_t Type = 0;         ///< SHT_*.
  uint64_t Flags = 0;        ///< SHF_*.
  std::vector<uint8_t> Data; ///< Contents (not for SHT_NOBITS).
  uint64_t NobitsSize = 0;   ///< sh_size of an SHT_NOBITS section.
  uint64_t Align = 1;        ///< sh_addralign, a power of two.
  uint32_t Link = 0;         ///< sh_link.
  uint32_t Info = 0;         ///< sh_info.
  uint64_t EntrySize = 0;    ///< sh_entsize.
};

/// Identification fields of the ELF header.
struct ElfIdentity {
  uint16_t Type = 0;      ///< e_type.
  uint16_t Machine = 0;   ///< e_machine.
  uint8_t OsAbi = 0;      ///< e_ident[EI_OSABI].
  uint8_t AbiVersion = 0; ///< e_ident[EI_ABIVERSION].
  uint32_t Flags = 0;     ///< e_flags.
};

/// Collects sections and writes the file.
class ElfWriter {
public:
  /// Index the next added section receives (1 is the section-name table).
  uint32_t nextIndex() const { return uint32_t(Sections.size()) + 2; }
  /// Appends \p S; returns its index.
  uint32_t add(ElfSection S);
  /// Lays out the file; fails when there are too many sections for e_shnum.
  llvm::Expected<std::vector<uint8_t>> write(const ElfIdentity &Id) const;

private:
  std::vector<ElfSection> Sections;
};

/// A string table under construction: starts with the empty string.
class StringTableBuilder {
public:
  /// Appends \p S and its NUL; returns its offset.
  uint32_t add(llvm::StringRef S);
  /// The table's bytes.
  std::vector<uint8_t> bytes() const { return {Data.begin(), Data.end()}; }

private:
  std::string Data = std::string(1, '\0');
};

/// Appends \p Value to \p Out as 4 little-endian bytes.
void appendU32(std::vector<uint8_t> &Out, uint32_t Value);

} // namespace cucpu::loader

#endif // CUCPU_LOADER_ELFWRITER_H

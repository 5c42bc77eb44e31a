//===- ElfWriter.cpp - Lays out a little-endian ELF64 file ----------------===//
#include "ElfWriter.h"

#include "cucpu/loader/LoaderError.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <elf.h>

using namespace cucpu::loader;

uint32_t ElfWriter::add(ElfSection S) {
  uint32_t Index = nextIndex();
  Sections.push_back(std::move(S));
  return Index;
}

uint32_t StringTableBuilder::add(llvm::StringRef S) {
  uint32_t Offset = uint32_t(Data.size());
  Data.append(S.begin(), S.end());
  Data.push_back('\0');
  return Offset;
}

void cucpu::loader::appendU32(std::vector<uint8_t> &Out, uint32_t Value) {
  for (int I = 0; I < 4; ++I)
    Out.push_back(uint8_t(Value >> (8 * I)));
}

llvm::Expected<std::vector<uint8_t>>
ElfWriter::write(const ElfIdentity &Id) const {
  size_t Count = Sections.size() + 2;
  if (Count >= SHN_LORESERVE)
    return invalidImage("The image would need {0} sections (at most {1}).",
                        Count, SHN_LORESERVE - 1);
  StringTableBuilder Names;
  uint32_t ShStrTabName = Names.add(".shstrtab");
  std::vector<uint32_t> NameOffsets;
  for (const ElfSection &S : Sections)
    NameOffsets.push_back(Names.add(S.Name));
  std::vector<uint8_t> NameBytes = Names.bytes();

  std::vector<Elf64_Shdr> Headers(Count);
  std::vector<uint8_t> Out(sizeof(Elf64_Ehdr));
  auto Place = [&](Elf64_Shdr &H, const std::vector<uint8_t> &Data,
                   uint64_t Align) {
    Out.resize(llvm::alignTo(Out.size(), Align ? Align : 1));
    H.sh_offset = Out.size();
    H.sh_size = Data.size();
    Out.insert(Out.end(), Data.begin(), Data.end());
  };
  Headers[1].sh_name = ShStrTabName;
  Headers[1].sh_type = SHT_STRTAB;
  Headers[1].sh_addralign = 1;
  Place(Headers[1], NameBytes, 1);
  for (size_t I = 0; I < Sections.size(); ++I) {
    const ElfSection &S = Sections[I];
    Elf64_Shdr &H = Headers[I + 2];
    H.sh_name = NameOffsets[I];
    H.sh_type = S.Type;
    H.sh_flags = S.Flags;
    H.sh_addralign = S.Align;
    H.sh_link = S.Link;
    H.sh_info = S.Info;
    H.sh_entsize = S.EntrySize;
    if (S.Type == SHT_NOBITS) {
      // NOBITS occupies no bytes; give it the current offset, as linkers do.
      H.sh_offset = Out.size();
      H.sh_size = S.NobitsSize;
    } else {
      Place(H, S.Data, S.Align);
    }
  }
  Out.resize(llvm::alignTo(Out.size(), 8));
  uint64_t TableOffset = Out.size();
  Out.resize(TableOffset + Count * sizeof(Elf64_Shdr));
  std::memcpy(Out.data() + TableOffset, Headers.data(),
              Count * sizeof(Elf64_Shdr));

  Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELFMAG, SELFMAG);
  H.e_ident[EI_CLASS] = ELFCLASS64;
  H.e_ident[EI_DATA] = ELFDATA2LSB;
  H.e_ident[EI_VERSION] = EV_CURRENT;
  H.e_ident[EI_OSABI] = Id.OsAbi;
  H.e_ident[EI_ABIVERSION] = Id.AbiVersion;
  H.e_type = Id.Type;
  H.e_machine = Id.Machine;
  H.e_version = EV_CURRENT;
  H.e_flags = Id.Flags;
  H.e_ehsize = sizeof(Elf64_Ehdr);
  H.e_shoff = TableOffset;
  H.e_shentsize = sizeof(Elf64_Shdr);
  H.e_shnum = uint16_t(Count);
  H.e_shstrndx = 1;
  std::memcpy(Out.data(), &H, sizeof(H));
  return Out;
}

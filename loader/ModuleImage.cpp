//===- ModuleImage.cpp - Reading and writing cucpu module images ----------===//
//
// The encoding of docs/module-format.md. writeImage() validates the
// ModuleImage and lays it out with ElfWriter; readImage() checks the ELF
// structure with ElfFile, decodes every cucpu section with bounds-checked
// reads, cross-checks the links between symbols, sections and records, and
// finally applies the same semantic rules as the writer (ImageValidator).
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/ModuleImage.h"

#include "ElfWriter.h"
#include "ImageValidator.h"
#include "cucpu/loader/ElfFile.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleFormat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <tuple>

using namespace cucpu::loader;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {
//===-- Writing -----------------------------------------------------------===//

/// The ELF symbol of one kernel, global or texture reference.
Elf64_Sym makeSymbol(uint32_t Name, unsigned char Type, uint32_t Section,
                     uint64_t Value, uint64_t Size) {
  Elf64_Sym S{};
  S.st_name = Name;
  S.st_info = ELF64_ST_INFO(STB_GLOBAL, Type);
  S.st_other = STV_DEFAULT;
  S.st_shndx = uint16_t(Section);
  S.st_value = Value;
  S.st_size = Size;
  return S;
}

void appendSymbol(std::vector<uint8_t> &Out, const Elf64_Sym &S) {
  const auto *P = reinterpret_cast<const uint8_t *>(&S);
  Out.insert(Out.end(), P, P + sizeof(S));
}

std::vector<uint8_t> makeNote(const ModuleImage &Image) {
  std::vector<uint8_t> Desc;
  appendU32(Desc, ImageFormatVersion);
  appendU32(Desc, uint32_t(Image.Producer.size() + 1));
  appendU32(Desc, uint32_t(Image.TargetArch.size() + 1));
  appendU32(Desc, llvm::crc32(Image.Bitcode));
  Desc.insert(Desc.end(), Image.Producer.begin(), Image.Producer.end());
  Desc.push_back(0);
  Desc.insert(Desc.end(), Image.TargetArch.begin(), Image.TargetArch.end());
  Desc.push_back(0);
  Desc.resize(llvm::alignTo(Desc.size(), 4));

  std::vector<uint8_t> Note;
  StringRef Owner = format::NoteOwner;
  appendU32(Note, uint32_t(Owner.size() + 1));
  appendU32(Note, uint32_t(Desc.size()));
  appendU32(Note, format::NoteTypeImage);
  Note.insert(Note.end(), Owner.begin(), Owner.end());
  Note.resize(llvm::alignTo(Note.size() + 1, 4));
  Note.insert(Note.end(), Desc.begin(), Desc.end());
  return Note;
}

/// Which data section holds a global.
enum DataSection { NoInitDevice, InitDevice, Constant, NumDataSections };

DataSection dataSectionOf(const GlobalInfo &G) {
  if (G.Space == GlobalSpace::Constant)
    return Constant;
  return G.Initializer.empty() ? NoInitDevice : InitDevice;
}

//===-- Reading -----------------------------------------------------------===//

uint32_t readU32(ArrayRef<uint8_t> Data, uint64_t Offset) {
  // Callers check Offset + 4 <= Data.size().
  return llvm::support::endian::read32le(Data.data() + Offset);
}

/// The producer and target architecture from the cucpu note, and the CRC-32
/// it gives for the bitcode (\p BitcodeCrc).
Error readNote(const ElfFile &F, ModuleImage &Image, uint32_t &BitcodeCrc,
               uint32_t HeaderVersion) {
  std::optional<size_t> Index = F.findSection(format::NoteSection);
  if (!Index)
    return invalidImage("The image has no {0} section.", format::NoteSection);
  if (F.section(*Index).sh_type != SHT_NOTE)
    return invalidImage("Section {0} is not of type SHT_NOTE.",
                        format::NoteSection);
  ArrayRef<uint8_t> Data = F.contents(*Index);
  bool Found = false;
  uint64_t At = 0;
  while (At < Data.size()) {
    if (Data.size() - At < 12)
      return invalidImage("A note in {0} is cut off at offset {1}.",
                          format::NoteSection, At);
    uint64_t NameSize = readU32(Data, At), DescSize = readU32(Data, At + 4);
    uint32_t Type = readU32(Data, At + 8);
    uint64_t NameAt = At + 12;
    uint64_t DescAt = NameAt + llvm::alignTo(NameSize, 4);
    uint64_t Next = DescAt + llvm::alignTo(DescSize, 4);
    if (Next > Data.size())
      return invalidImage("A note in {0} at offset {1} (name {2} bytes, "
                          "descriptor {3} bytes) runs past the section's "
                          "{4} bytes.",
                          format::NoteSection, At, NameSize, DescSize,
                          Data.size());
    StringRef Name(reinterpret_cast<const char *>(Data.data() + NameAt),
                   NameSize);
    At = Next;
    // Notes of other owners or types are for other tools.
    if (Name !=
            StringRef(format::NoteOwner, std::strlen(format::NoteOwner) + 1) ||
        Type != format::NoteTypeImage)
      continue;
    if (Found)
      return invalidImage("The image has two cucpu notes.");
    Found = true;
    ArrayRef<uint8_t> Desc = Data.slice(DescAt, DescSize);
    if (Desc.size() < format::NoteDescHeaderSize)
      return invalidImage("The cucpu note's descriptor has {0} bytes, fewer "
                          "than its {1}-byte header.",
                          Desc.size(), format::NoteDescHeaderSize);
    uint32_t Version = readU32(Desc, 0);
    if (Version != HeaderVersion)
      return invalidImage("The cucpu note says format version {0}, the ELF "
                          "header (EI_ABIVERSION) {1}.",
                          Version, HeaderVersion);
    uint64_t ProducerSize = readU32(Desc, 4), ArchSize = readU32(Desc, 8);
    BitcodeCrc = readU32(Desc, 12);
    if (ProducerSize == 0 || ArchSize == 0 ||
        format::NoteDescHeaderSize + ProducerSize + ArchSize > Desc.size())
      return invalidImage("The cucpu note's strings ({0} and {1} bytes) do not "
                          "fit its {2}-byte descriptor.",
                          ProducerSize, ArchSize, Desc.size());
    auto Str = [&](uint64_t Offset, uint64_t Size) -> Expected<std::string> {
      StringRef S(reinterpret_cast<const char *>(Desc.data() + Offset), Size);
      if (S.back() != 0 || S.drop_back().contains('\0'))
        return invalidImage("A string of the cucpu note is not NUL-terminated "
                            "exactly at its end.");
      return S.drop_back().str();
    };
    Expected<std::string> Producer =
        Str(format::NoteDescHeaderSize, ProducerSize);
    if (!Producer)
      return Producer.takeError();
    Expected<std::string> Arch =
        Str(format::NoteDescHeaderSize + ProducerSize, ArchSize);
    if (!Arch)
      return Arch.takeError();
    Image.Producer = std::move(*Producer);
    Image.TargetArch = std::move(*Arch);
  }
  if (!Found)
    return invalidImage("Section {0} holds no cucpu note.",
                        format::NoteSection);
  return Error::success();
}

/// Decodes the symbol table: names and headers, all checked.
struct SymbolTable {
  size_t Index = 0;
  std::vector<Elf64_Sym> Symbols;
  std::vector<StringRef> Names;
};

Expected<SymbolTable> readSymbols(const ElfFile &F) {
  SymbolTable T;
  std::optional<size_t> Index = F.findSection(".symtab");
  if (!Index)
    return invalidImage("The image has no .symtab section.");
  T.Index = *Index;
  const Elf64_Shdr &S = F.section(*Index);
  if (S.sh_type != SHT_SYMTAB || S.sh_entsize != sizeof(Elf64_Sym) ||
      S.sh_size % sizeof(Elf64_Sym) != 0 || S.sh_size == 0)
    return invalidImage(".symtab has type {0}, entry size {1} and size {2} "
                        "(expected SHT_SYMTAB, {3}, a non-zero multiple of "
                        "{3}).",
                        S.sh_type, S.sh_entsize, S.sh_size, sizeof(Elf64_Sym));
  if (Error E = F.checkStringTable(S.sh_link))
    return addContext(std::move(E), "The symbol-name table is invalid: ");
  ArrayRef<uint8_t> Data = F.contents(*Index);
  size_t Count = Data.size() / sizeof(Elf64_Sym);
  if (S.sh_info != 1)
    return invalidImage(".symtab's sh_info is {0}; a cucpu image has only "
                        "global symbols after the null symbol (1).",
                        S.sh_info);
  T.Symbols.resize(Count);
  std::memcpy(T.Symbols.data(), Data.data(), Count * sizeof(Elf64_Sym));
  T.Names.resize(Count);
  static const Elf64_Sym Null{};
  if (std::memcmp(&T.Symbols[0], &Null, sizeof(Null)) != 0)
    return invalidImage("Symbol 0 is not the null symbol.");
  for (size_t I = 1; I < Count; ++I) {
    const Elf64_Sym &Sym = T.Symbols[I];
    Expected<StringRef> Name = F.string(S.sh_link, Sym.st_name, "symbol name");
    if (!Name)
      return addContext(Name.takeError(),
                        llvm::formatv("Symbol {0}: ", I).str());
    if (Name->empty())
      return invalidImage("Symbol {0} has an empty name.", I);
    if (ELF64_ST_BIND(Sym.st_info) != STB_GLOBAL)
      return invalidImage("Symbol {0} (\"{1}\") is not global.", I, *Name);
    if (Sym.st_shndx == SHN_UNDEF || Sym.st_shndx >= F.sectionCount())
      return invalidImage("Symbol {0} (\"{1}\") is in section {2}, which is "
                          "not a section of the image.",
                          I, *Name, Sym.st_shndx);
    T.Names[I] = *Name;
  }
  return T;
}

/// The kernel that symbol \p Sym (index \p SymIndex) names.
Expected<KernelInfo> readKernel(const ElfFile &F, const SymbolTable &T,
                                size_t SymIndex, std::vector<bool> &Claimed) {
  KernelInfo K;
  K.Name = T.Names[SymIndex].str();
  const Elf64_Sym &Sym = T.Symbols[SymIndex];
  std::string InfoName = std::string(format::KernelInfoPrefix) + K.Name;
  if (F.sectionName(Sym.st_shndx) != InfoName)
    return invalidImage("Kernel symbol \"{0}\" is in section \"{1}\", not "
                        "\"{2}\".",
                        K.Name, F.sectionName(Sym.st_shndx), InfoName);
  size_t InfoIndex = Sym.st_shndx;
  const Elf64_Shdr &Info = F.section(InfoIndex);
  // Bound to its kernel by name (sh_info stays 0: readelf expects a section
  // index there for PROGBITS).
  if (Info.sh_type != SHT_PROGBITS || Info.sh_link != T.Index ||
      Info.sh_info != 0)
    return invalidImage("Section {0} must be SHT_PROGBITS with sh_link {1} "
                        "and sh_info 0 (has type {2}, sh_link {3}, sh_info "
                        "{4}).",
                        InfoName, T.Index, Info.sh_type, Info.sh_link,
                        Info.sh_info);
  Claimed[InfoIndex] = true;
  ArrayRef<uint8_t> Data = F.contents(InfoIndex);
  if (Data.size() < format::KernelInfoHeaderSize)
    return invalidImage("Section {0} has {1} bytes, fewer than its {2}-byte "
                        "header.",
                        InfoName, Data.size(), format::KernelInfoHeaderSize);
  uint64_t Count = readU32(Data, 0);
  uint64_t Expected =
      format::KernelInfoHeaderSize + Count * format::ParamRecordSize;
  if (Data.size() != Expected)
    return invalidImage("Section {0} has {1} bytes, but {2} parameters need "
                        "{3}.",
                        InfoName, Data.size(), Count, Expected);
  K.ParamBytes = readU32(Data, 4);
  K.MaxThreadsPerBlock = readU32(Data, 8);
  K.Uses = readU32(Data, 12);
  K.Params.resize(Count);
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t At = format::KernelInfoHeaderSize + I * format::ParamRecordSize;
    K.Params[I].Offset = readU32(Data, At);
    K.Params[I].Size = readU32(Data, At + 4);
    K.Params[I].Align = readU32(Data, At + 8);
  }

  std::string SharedName = std::string(format::SharedPrefix) + K.Name;
  if (std::optional<size_t> Shared = F.findSection(SharedName)) {
    const Elf64_Shdr &S = F.section(*Shared);
    if (S.sh_type != SHT_NOBITS || S.sh_info != 0 || S.sh_size == 0 ||
        S.sh_size > UINT32_MAX)
      return invalidImage("Section {0} must be SHT_NOBITS with sh_info 0 and "
                          "1 to {1} bytes (has type {2}, sh_info {3}, {4} "
                          "bytes).",
                          SharedName, UINT32_MAX, S.sh_type, S.sh_info,
                          S.sh_size);
    K.StaticShared = uint32_t(S.sh_size);
    Claimed[*Shared] = true;
  }
  return K;
}

/// The data sections and what they hold.
struct DataSectionInfo {
  const char *Name;
  uint32_t Type;
  GlobalSpace Space;
  bool Initialized; ///< Every global in it has an initializer.
};
constexpr DataSectionInfo DataSections[NumDataSections] = {
    {format::GlobalSection, SHT_NOBITS, GlobalSpace::Device, false},
    {format::GlobalInitSection, SHT_PROGBITS, GlobalSpace::Device, true},
    {format::ConstantSection, SHT_PROGBITS, GlobalSpace::Constant, false},
};

/// Globals and texture references from .nv.info and their symbols.
Error readModuleInfo(const ElfFile &F, const SymbolTable &T,
                     std::vector<bool> &SymbolUsed, ModuleImage &Image) {
  std::optional<size_t> Index = F.findSection(format::ModuleInfoSection);
  if (!Index)
    return invalidImage("The image has no {0} section.",
                        format::ModuleInfoSection);
  if (F.section(*Index).sh_type != SHT_PROGBITS)
    return invalidImage("Section {0} is not SHT_PROGBITS.",
                        format::ModuleInfoSection);
  ArrayRef<uint8_t> Data = F.contents(*Index);
  if (Data.size() < format::ModuleInfoHeaderSize)
    return invalidImage("Section {0} has {1} bytes, fewer than its {2}-byte "
                        "header.",
                        format::ModuleInfoSection, Data.size(),
                        format::ModuleInfoHeaderSize);
  uint64_t Globals = readU32(Data, 0), TexRefs = readU32(Data, 4);
  if (readU32(Data, 8) != 0 || readU32(Data, 12) != 0)
    return invalidImage("The reserved fields of {0} are not zero.",
                        format::ModuleInfoSection);
  uint64_t TexAt =
      format::ModuleInfoHeaderSize + Globals * format::GlobalRecordSize;
  uint64_t Expected = TexAt + TexRefs * format::TexRefRecordSize;
  if (Data.size() != Expected)
    return invalidImage("Section {0} has {1} bytes, but {2} globals and {3} "
                        "texture references need {4}.",
                        format::ModuleInfoSection, Data.size(), Globals,
                        TexRefs, Expected);

  // Each record names an object symbol no other record names.
  auto ClaimSymbol = [&](uint32_t Sym, StringRef What) -> Error {
    if (Sym == 0 || Sym >= T.Symbols.size())
      return invalidImage("A {0} record names symbol {1}, but there are {2}.",
                          What, Sym, T.Symbols.size());
    if (ELF64_ST_TYPE(T.Symbols[Sym].st_info) != STT_OBJECT)
      return invalidImage("The {0} record's symbol {1} (\"{2}\") is not "
                          "STT_OBJECT.",
                          What, Sym, T.Names[Sym]);
    if (SymbolUsed[Sym])
      return invalidImage("Symbol {0} (\"{1}\") is described twice.", Sym,
                          T.Names[Sym]);
    SymbolUsed[Sym] = true;
    return Error::success();
  };

  std::optional<size_t> DataIndex[NumDataSections];
  for (int D = 0; D < NumDataSections; ++D) {
    DataIndex[D] = F.findSection(DataSections[D].Name);
    if (DataIndex[D] &&
        F.section(*DataIndex[D]).sh_type != DataSections[D].Type)
      return invalidImage(
          "Section {0} has type {1}, not {2}.", DataSections[D].Name,
          F.section(*DataIndex[D]).sh_type, DataSections[D].Type);
  }
  // (section, start, end, name) of every global, to find overlaps.
  std::vector<std::tuple<size_t, uint64_t, uint64_t, StringRef>> Extents;
  for (uint64_t I = 0; I < Globals; ++I) {
    uint64_t At = format::ModuleInfoHeaderSize + I * format::GlobalRecordSize;
    uint32_t SymIndex = readU32(Data, At);
    if (Error E = ClaimSymbol(SymIndex, "global"))
      return E;
    const Elf64_Sym &Sym = T.Symbols[SymIndex];
    GlobalInfo G;
    G.Name = T.Names[SymIndex].str();
    G.Align = readU32(Data, At + 4);
    uint32_t Flags = readU32(Data, At + 8);
    if ((Flags & ~format::GlobalHasInitializer) || readU32(Data, At + 12))
      return invalidImage("Global \"{0}\" has unknown flags {1:x} or a "
                          "non-zero reserved field.",
                          G.Name, Flags);
    bool HasInit = Flags & format::GlobalHasInitializer;
    int D = 0;
    while (D < NumDataSections && DataIndex[D] != size_t(Sym.st_shndx))
      ++D;
    if (D == NumDataSections)
      return invalidImage("Global \"{0}\" is in section \"{1}\", which is not "
                          "a data section.",
                          G.Name, F.sectionName(Sym.st_shndx));
    const DataSectionInfo &DS = DataSections[D];
    G.Space = DS.Space;
    if (DS.Type == SHT_NOBITS ? HasInit : (DS.Initialized && !HasInit))
      return invalidImage("Global \"{0}\" in {1} has its initializer flag "
                          "{2}.",
                          G.Name, DS.Name, HasInit ? "set" : "clear");
    const Elf64_Shdr &S = F.section(Sym.st_shndx);
    if (Sym.st_value > S.sh_size || Sym.st_size > S.sh_size - Sym.st_value)
      return invalidImage("Global \"{0}\" ({1} bytes at offset {2}) lies "
                          "outside its {3}-byte section {4}.",
                          G.Name, Sym.st_size, Sym.st_value, S.sh_size,
                          DS.Name);
    if (G.Align == 0 || Sym.st_value % G.Align != 0)
      return invalidImage("Global \"{0}\" at offset {1} is not aligned to "
                          "{2}.",
                          G.Name, Sym.st_value, G.Align);
    G.Size = Sym.st_size;
    if (HasInit && G.Size) {
      ArrayRef<uint8_t> Bytes =
          F.contents(Sym.st_shndx).slice(Sym.st_value, G.Size);
      G.Initializer.assign(Bytes.begin(), Bytes.end());
    }
    if (G.Size)
      Extents.emplace_back(Sym.st_shndx, Sym.st_value,
                           Sym.st_value + Sym.st_size, T.Names[SymIndex]);
    Image.Globals.push_back(std::move(G));
  }
  llvm::sort(Extents);
  for (size_t I = 1; I < Extents.size(); ++I)
    if (std::get<0>(Extents[I]) == std::get<0>(Extents[I - 1]) &&
        std::get<1>(Extents[I]) < std::get<2>(Extents[I - 1]))
      return invalidImage("Globals \"{0}\" and \"{1}\" overlap.",
                          std::get<3>(Extents[I - 1]), std::get<3>(Extents[I]));

  for (uint64_t I = 0; I < TexRefs; ++I) {
    uint64_t At = TexAt + I * format::TexRefRecordSize;
    uint32_t SymIndex = readU32(Data, At);
    if (Error E = ClaimSymbol(SymIndex, "texture reference"))
      return E;
    const Elf64_Sym &Sym = T.Symbols[SymIndex];
    if (Sym.st_shndx != *Index || Sym.st_value != At ||
        Sym.st_size != format::TexRefRecordSize)
      return invalidImage("Texture reference symbol \"{0}\" does not point at "
                          "its record ({1} bytes at offset {2} of {3}).",
                          T.Names[SymIndex], format::TexRefRecordSize, At,
                          format::ModuleInfoSection);
    TexRefInfo R;
    R.Name = T.Names[SymIndex].str();
    R.Dimensions = readU32(Data, At + 4);
    R.ReadMode = readU32(Data, At + 8);
    R.ChannelKind = readU32(Data, At + 12);
    R.ChannelBits = readU32(Data, At + 16);
    R.Channels = readU32(Data, At + 20);
    Image.TexRefs.push_back(std::move(R));
  }
  return Error::success();
}

Expected<ModuleImage> readImageImpl(ArrayRef<uint8_t> Bytes) {
  Expected<ElfFile> File = ElfFile::create(Bytes);
  if (!File)
    return File.takeError();
  const ElfFile &F = *File;
  const Elf64_Ehdr &H = F.header();
  if (H.e_machine != format::MachineCuda)
    return invalidImage("The ELF file is for machine {0}, not EM_CUDA (190).",
                        H.e_machine);
  if (H.e_ident[EI_OSABI] != format::OsAbiCucpu)
    return invalidImage("The ELF OS/ABI is {0:x}, not cucpu's {1:x}: this is "
                        "not a cucpu module image.",
                        unsigned(H.e_ident[EI_OSABI]),
                        unsigned(format::OsAbiCucpu));
  uint32_t Version = H.e_ident[EI_ABIVERSION];
  if (Version < OldestImageFormatVersion || Version > ImageFormatVersion)
    return invalidImage("The image has format version {0}; this cucpu reads "
                        "versions {1} to {2}.",
                        Version, OldestImageFormatVersion, ImageFormatVersion);
  if (H.e_type != ET_EXEC && H.e_type != ET_REL)
    return invalidImage("The ELF type is {0}, not ET_EXEC or ET_REL.",
                        H.e_type);

  ModuleImage Image;
  // Version 3: ET_REL marks relocatable device code (version 2 had none and
  // accepted either type).
  Image.Relocatable = Version >= 3 && H.e_type == ET_REL;
  uint32_t BitcodeCrc = 0;
  if (Error E = readNote(F, Image, BitcodeCrc, Version))
    return E;
  if (H.e_flags != archNumber(Image.TargetArch))
    return invalidImage("The ELF flags {0:x} do not match the target "
                        "architecture \"{1}\" (expected {2:x}).",
                        H.e_flags, Image.TargetArch,
                        archNumber(Image.TargetArch));

  std::optional<size_t> Ir = F.findSection(IrSectionName);
  if (!Ir)
    return invalidImage("The image has no {0} section with LLVM bitcode.",
                        IrSectionName);
  if (F.section(*Ir).sh_type != SHT_PROGBITS || F.contents(*Ir).empty())
    return invalidImage("Section {0} is not SHT_PROGBITS or is empty.",
                        IrSectionName);
  ArrayRef<uint8_t> Bitcode = F.contents(*Ir);
  // Damaged bitcode must not reach LLVM's reader, which assumes well-formed
  // input and may crash on anything else.
  if (uint32_t Crc = llvm::crc32(Bitcode); Crc != BitcodeCrc)
    return invalidImage("The LLVM bitcode in {0} is damaged: its CRC-32 is "
                        "{1:x8}, the image's note says {2:x8}.",
                        IrSectionName, Crc, BitcodeCrc);
  Image.Bitcode.assign(Bitcode.begin(), Bitcode.end());

  Expected<SymbolTable> Symbols = readSymbols(F);
  if (!Symbols)
    return Symbols.takeError();
  const SymbolTable &T = *Symbols;
  std::vector<bool> SymbolUsed(T.Symbols.size(), false);
  std::vector<bool> SectionClaimed(F.sectionCount(), false);
  if (Error E = readModuleInfo(F, T, SymbolUsed, Image))
    return E;
  for (size_t I = 1; I < T.Symbols.size(); ++I) {
    unsigned Type = ELF64_ST_TYPE(T.Symbols[I].st_info);
    if (Type == STT_FUNC) {
      Expected<KernelInfo> K = readKernel(F, T, I, SectionClaimed);
      if (!K)
        return K.takeError();
      Image.Kernels.push_back(std::move(*K));
    } else if (Type != STT_OBJECT || !SymbolUsed[I]) {
      return invalidImage("Symbol {0} (\"{1}\") of type {2} is neither a "
                          "kernel nor described in {3}.",
                          I, T.Names[I], Type, format::ModuleInfoSection);
    }
  }
  // A per-kernel section without its kernel is a sign of damage.
  for (size_t I = 1; I < F.sectionCount(); ++I) {
    StringRef Name = F.sectionName(I);
    if ((Name.starts_with(format::KernelInfoPrefix) ||
         Name.starts_with(format::SharedPrefix)) &&
        !SectionClaimed[I])
      return invalidImage("Section \"{0}\" belongs to no kernel of the image.",
                          Name);
  }
  if (Error E = validateImage(Image))
    return E;
  return Image;
}
} // namespace

Expected<ModuleImage> cucpu::loader::readImage(ArrayRef<uint8_t> Bytes) {
  Expected<ModuleImage> Image = readImageImpl(Bytes);
  if (!Image)
    return addContext(Image.takeError(), "Invalid cucpu module image: ");
  return Image;
}

Expected<std::vector<uint8_t>>
cucpu::loader::writeImage(const ModuleImage &Image) {
  if (Error E = validateImage(Image))
    return addContext(std::move(E), "Cannot write the module image: ");

  ElfWriter W;
  // Fixed sections first; their indices are known in advance.
  const uint32_t StrTab = 2, SymTab = 3, ModuleInfo = 6;
  uint32_t DataIndex[NumDataSections] = {};
  {
    uint32_t Next = ModuleInfo + 1;
    bool Present[NumDataSections] = {};
    for (const GlobalInfo &G : Image.Globals)
      Present[dataSectionOf(G)] = true;
    for (int D = 0; D < NumDataSections; ++D)
      if (Present[D])
        DataIndex[D] = Next++;
  }

  // Lay out globals in their data sections.
  std::vector<uint8_t> DataBytes[NumDataSections];
  uint64_t DataSize[NumDataSections] = {};
  uint64_t DataAlign[NumDataSections] = {1, 1, 1};
  std::vector<uint64_t> GlobalOffset;
  for (const GlobalInfo &G : Image.Globals) {
    DataSection D = dataSectionOf(G);
    uint64_t Offset = llvm::alignTo(DataSize[D], G.Align);
    GlobalOffset.push_back(Offset);
    DataSize[D] = Offset + G.Size;
    DataAlign[D] = std::max<uint64_t>(DataAlign[D], G.Align);
    if (D != NoInitDevice) {
      DataBytes[D].resize(DataSize[D]);
      if (!G.Initializer.empty())
        std::memcpy(DataBytes[D].data() + Offset, G.Initializer.data(), G.Size);
    }
  }

  // Kernel sections follow the data sections.
  uint32_t NextIndex = ModuleInfo + 1;
  for (uint32_t I : DataIndex)
    NextIndex += I != 0;
  std::vector<uint32_t> KernelInfoIndex;
  for (const KernelInfo &K : Image.Kernels) {
    KernelInfoIndex.push_back(NextIndex);
    NextIndex += K.StaticShared ? 2 : 1;
  }

  // Symbols: kernels, globals, texture references.
  StringTableBuilder Strings;
  std::vector<uint8_t> Symbols;
  appendSymbol(Symbols, Elf64_Sym{});
  uint32_t SymIndex = 1;
  for (size_t I = 0; I < Image.Kernels.size(); ++I)
    appendSymbol(Symbols, makeSymbol(Strings.add(Image.Kernels[I].Name),
                                     STT_FUNC, KernelInfoIndex[I], 0, 0));
  SymIndex += Image.Kernels.size();
  std::vector<uint8_t> Info;
  appendU32(Info, uint32_t(Image.Globals.size()));
  appendU32(Info, uint32_t(Image.TexRefs.size()));
  appendU32(Info, 0);
  appendU32(Info, 0);
  for (size_t I = 0; I < Image.Globals.size(); ++I) {
    const GlobalInfo &G = Image.Globals[I];
    appendSymbol(Symbols, makeSymbol(Strings.add(G.Name), STT_OBJECT,
                                     DataIndex[dataSectionOf(G)],
                                     GlobalOffset[I], G.Size));
    appendU32(Info, SymIndex++);
    appendU32(Info, G.Align);
    appendU32(Info, G.Initializer.empty() ? 0 : format::GlobalHasInitializer);
    appendU32(Info, 0);
  }
  for (const TexRefInfo &R : Image.TexRefs) {
    appendSymbol(Symbols,
                 makeSymbol(Strings.add(R.Name), STT_OBJECT, ModuleInfo,
                            Info.size(), format::TexRefRecordSize));
    for (uint32_t V : {SymIndex++, R.Dimensions, R.ReadMode, R.ChannelKind,
                       R.ChannelBits, R.Channels})
      appendU32(Info, V);
  }

  W.add({".strtab", SHT_STRTAB, 0, Strings.bytes(), 0, 1, 0, 0, 0});
  W.add({".symtab", SHT_SYMTAB, 0, std::move(Symbols), 0, 8, StrTab, 1,
         sizeof(Elf64_Sym)});
  W.add({format::NoteSection, SHT_NOTE, 0, makeNote(Image), 0, 4, 0, 0, 0});
  W.add({IrSectionName, SHT_PROGBITS, 0, Image.Bitcode, 0, 8, 0, 0, 0});
  W.add({format::ModuleInfoSection, SHT_PROGBITS, 0, std::move(Info), 0, 4, 0,
         0, 0});
  for (int D = 0; D < NumDataSections; ++D)
    if (DataIndex[D])
      W.add({DataSections[D].Name, DataSections[D].Type, SHF_ALLOC | SHF_WRITE,
             std::move(DataBytes[D]), DataSize[D], DataAlign[D], 0, 0, 0});
  for (size_t I = 0; I < Image.Kernels.size(); ++I) {
    const KernelInfo &K = Image.Kernels[I];
    std::vector<uint8_t> Record;
    appendU32(Record, uint32_t(K.Params.size()));
    appendU32(Record, K.ParamBytes);
    appendU32(Record, K.MaxThreadsPerBlock);
    appendU32(Record, K.Uses);
    for (const KernelParam &P : K.Params) {
      appendU32(Record, P.Offset);
      appendU32(Record, P.Size);
      appendU32(Record, P.Align);
    }
    W.add({format::KernelInfoPrefix + K.Name, SHT_PROGBITS, 0,
           std::move(Record), 0, 4, SymTab, 0, 0});
    if (K.StaticShared)
      W.add({format::SharedPrefix + K.Name,
             SHT_NOBITS,
             SHF_ALLOC | SHF_WRITE,
             {},
             K.StaticShared,
             16,
             0,
             0,
             0});
  }
  ElfIdentity Id;
  Id.Type = Image.Relocatable ? ET_REL : ET_EXEC;
  Id.Machine = format::MachineCuda;
  Id.OsAbi = format::OsAbiCucpu;
  Id.AbiVersion = ImageFormatVersion;
  Id.Flags = archNumber(Image.TargetArch);
  Expected<std::vector<uint8_t>> Bytes = W.write(Id);
  if (!Bytes)
    return addContext(Bytes.takeError(), "Cannot write the module image: ");
  return Bytes;
}

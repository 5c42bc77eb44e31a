//===- ModuleImageTest.cpp - Writing, reading and rejecting module images -===//
//
// Every image here is built inside the test with writeImage() and then
// damaged field by field; no binary fixtures.
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/loader/ElfFile.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleFormat.h"
#include "cucpu/loader/SizelessImage.h"

#include "llvm/Support/Endian.h"

#include <cstdio>
#include <cstring>
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace cucpu::loader;
namespace endian = llvm::support::endian;

namespace {
/// An image with two kernels, globals of every kind and a texture.
ModuleImage sampleImage() {
  ModuleImage I;
  I.Producer = "cucc 0.1.0 (LLVM 19.1.7)";
  I.TargetArch = "sm_52";
  KernelInfo Add;
  Add.Name = "_Z6vecAddPKfS0_Pfi";
  Add.Params = {{0, 8, 8}, {8, 8, 8}, {16, 8, 8}, {24, 4, 4}};
  Add.ParamBytes = 28;
  Add.MaxThreadsPerBlock = 256;
  Add.Uses = UsesAtomics;
  KernelInfo Tile;
  Tile.Name = "matrixMul";
  Tile.Params = {{0, 8, 8}, {8, 4, 4}, {16, 24, 8}};
  Tile.ParamBytes = 40;
  Tile.StaticShared = 2048;
  Tile.Uses = UsesBarrier | UsesTextures;
  I.Kernels = {Add, Tile};
  GlobalInfo Counter{"counter", GlobalSpace::Device, 4, 4, {}};
  GlobalInfo Table{"table", GlobalSpace::Device, 6, 2, {1, 2, 3, 4, 5, 6}};
  GlobalInfo Coeffs{
      "coeffs", GlobalSpace::Constant, 8, 8, {9, 8, 7, 6, 5, 4, 3, 2}};
  GlobalInfo Zeros{"zeros", GlobalSpace::Constant, 16, 16, {}};
  GlobalInfo Big{"big", GlobalSpace::Device, uint64_t(1) << 30, 256, {}};
  I.Globals = {Counter, Table, Coeffs, Zeros, Big};
  TexRefInfo Tex;
  Tex.Name = "texA";
  Tex.Dimensions = 2;
  Tex.ReadMode = 1;
  Tex.ChannelKind = 1;
  Tex.ChannelBits = 8;
  Tex.Channels = 4;
  I.TexRefs = {Tex};
  I.Bitcode = {'B', 'C', 0xC0, 0xDE, 1, 2, 3, 4};
  return I;
}

std::vector<uint8_t> sampleBytes() {
  auto Bytes = writeImage(sampleImage());
  EXPECT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  return *Bytes;
}

/// The message of reading \p Bytes, which must fail with kind Invalid.
std::string readError(const std::vector<uint8_t> &Bytes) {
  auto Image = readImage(Bytes);
  if (Image)
    return "";
  std::string Message;
  bool Invalid = false;
  llvm::handleAllErrors(Image.takeError(), [&](const ImageError &E) {
    Message = E.text();
    Invalid = E.kind() == ImageErrorKind::Invalid;
  });
  return Invalid ? Message : "(not an invalid-image error)";
}

#define EXPECT_REJECTED(Bytes, Fragment, Why)                                  \
  do {                                                                         \
    std::string Msg = readError(Bytes);                                        \
    EXPECT_NE(Msg.find(Fragment), std::string::npos)                           \
        << Why << "; message: \"" << Msg << "\"";                              \
  } while (false)

/// Offsets of the pieces of \p Bytes, found with the validating reader.
struct Layout {
  std::vector<uint8_t> Bytes;
  Elf64_Ehdr Header{};
  explicit Layout(std::vector<uint8_t> B) : Bytes(std::move(B)) {
    std::memcpy(&Header, Bytes.data(), sizeof(Header));
  }
  size_t sectionIndex(const char *Name) {
    auto F = ElfFile::create(Bytes);
    EXPECT_TRUE(bool(F));
    auto I = F->findSection(Name);
    EXPECT_TRUE(I.has_value()) << Name;
    return I.value_or(0);
  }
  /// Offset in the file of section \p Index's header.
  size_t shdrAt(size_t Index) {
    return Header.e_shoff + Index * sizeof(Elf64_Shdr);
  }
  Elf64_Shdr shdr(size_t Index) {
    Elf64_Shdr S;
    std::memcpy(&S, Bytes.data() + shdrAt(Index), sizeof(S));
    return S;
  }
  void setShdr(size_t Index, const Elf64_Shdr &S) {
    std::memcpy(Bytes.data() + shdrAt(Index), &S, sizeof(S));
  }
  /// Offset in the file of section \p Name's contents.
  size_t contentAt(const char *Name) {
    return shdr(sectionIndex(Name)).sh_offset;
  }
  void put32(size_t At, uint32_t V) { endian::write32le(Bytes.data() + At, V); }
  Elf64_Sym symbol(size_t Index) {
    Elf64_Sym S;
    std::memcpy(&S, Bytes.data() + contentAt(".symtab") + Index * sizeof(S),
                sizeof(S));
    return S;
  }
  void setSymbol(size_t Index, const Elf64_Sym &S) {
    std::memcpy(Bytes.data() + contentAt(".symtab") + Index * sizeof(S), &S,
                sizeof(S));
  }
};

void expectSame(const ModuleImage &A, const ModuleImage &B) {
  EXPECT_EQ(A.Producer, B.Producer);
  EXPECT_EQ(A.TargetArch, B.TargetArch);
  EXPECT_EQ(A.Bitcode, B.Bitcode);
  EXPECT_EQ(A.Relocatable, B.Relocatable);
  ASSERT_EQ(A.Kernels.size(), B.Kernels.size());
  for (size_t I = 0; I < A.Kernels.size(); ++I) {
    const KernelInfo &X = A.Kernels[I], &Y = B.Kernels[I];
    EXPECT_EQ(X.Name, Y.Name);
    EXPECT_EQ(X.ParamBytes, Y.ParamBytes);
    EXPECT_EQ(X.StaticShared, Y.StaticShared);
    EXPECT_EQ(X.MaxThreadsPerBlock, Y.MaxThreadsPerBlock);
    EXPECT_EQ(X.Uses, Y.Uses);
    ASSERT_EQ(X.Params.size(), Y.Params.size());
    for (size_t P = 0; P < X.Params.size(); ++P) {
      EXPECT_EQ(X.Params[P].Offset, Y.Params[P].Offset);
      EXPECT_EQ(X.Params[P].Size, Y.Params[P].Size);
      EXPECT_EQ(X.Params[P].Align, Y.Params[P].Align);
    }
  }
  ASSERT_EQ(A.Globals.size(), B.Globals.size());
  for (size_t I = 0; I < A.Globals.size(); ++I) {
    EXPECT_EQ(A.Globals[I].Name, B.Globals[I].Name);
    EXPECT_EQ(A.Globals[I].Space, B.Globals[I].Space);
    EXPECT_EQ(A.Globals[I].Size, B.Globals[I].Size);
    EXPECT_EQ(A.Globals[I].Align, B.Globals[I].Align);
    EXPECT_EQ(A.Globals[I].Initializer, B.Globals[I].Initializer);
  }
  ASSERT_EQ(A.TexRefs.size(), B.TexRefs.size());
  for (size_t I = 0; I < A.TexRefs.size(); ++I) {
    EXPECT_EQ(A.TexRefs[I].Name, B.TexRefs[I].Name);
    EXPECT_EQ(A.TexRefs[I].Dimensions, B.TexRefs[I].Dimensions);
    EXPECT_EQ(A.TexRefs[I].ReadMode, B.TexRefs[I].ReadMode);
    EXPECT_EQ(A.TexRefs[I].ChannelKind, B.TexRefs[I].ChannelKind);
    EXPECT_EQ(A.TexRefs[I].ChannelBits, B.TexRefs[I].ChannelBits);
    EXPECT_EQ(A.TexRefs[I].Channels, B.TexRefs[I].Channels);
  }
}
} // namespace

TEST(ModuleImage, RoundTrips) {
  ModuleImage Original = sampleImage();
  auto Bytes = writeImage(Original);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  auto Read = readImage(*Bytes);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  expectSame(Original, *Read);
  auto Again = writeImage(*Read);
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*Bytes, *Again) << "writing is deterministic";
}

TEST(ModuleImage, RoundTripsAMinimalImage) {
  ModuleImage Minimal;
  Minimal.TargetArch = "sm_90a";
  Minimal.Bitcode = {1};
  auto Bytes = writeImage(Minimal);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  auto Read = readImage(*Bytes);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  expectSame(Minimal, *Read);
  EXPECT_EQ(Layout(*Bytes).Header.e_flags, 90u) << "arch number in e_flags";
}

TEST(ModuleImage, RoundTripsATextureOfUnknownType) {
  ModuleImage Original = sampleImage();
  TexRefInfo Unknown;
  Unknown.Name = "declaredOnly";
  Unknown.Dimensions = Unknown.ReadMode = Unknown.ChannelKind = 0;
  Unknown.ChannelBits = Unknown.Channels = 0;
  Original.TexRefs.push_back(Unknown);
  auto Bytes = writeImage(Original);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  auto Read = readImage(*Bytes);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  expectSame(Original, *Read);
}

TEST(ModuleImage, RoundTripsARelocatableImage) {
  ModuleImage Original = sampleImage();
  Original.Relocatable = true;
  auto Bytes = writeImage(Original);
  ASSERT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  EXPECT_EQ(Layout(*Bytes).Header.e_type, ET_REL) << "relocatable is ET_REL";
  auto Read = readImage(*Bytes);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  EXPECT_TRUE(Read->Relocatable) << "ET_REL of version 3 is relocatable";
  expectSame(Original, *Read);

  auto Whole = readImage(sampleBytes());
  ASSERT_TRUE(bool(Whole)) << llvm::toString(Whole.takeError());
  EXPECT_FALSE(Whole->Relocatable) << "cucc's default output is ET_EXEC";
}

TEST(ModuleImage, ReadsVersion2ImagesAsNotRelocatable) {
  // Version 2 had no relocatable images and accepted ET_REL as well.
  Layout L(sampleBytes());
  size_t Desc = L.contentAt(format::NoteSection) + 12 + 8;
  L.Bytes[EI_ABIVERSION] = 2;
  L.put32(Desc, 2);
  endian::write16le(L.Bytes.data() + offsetof(Elf64_Ehdr, e_type), ET_REL);
  auto Read = readImage(L.Bytes);
  ASSERT_TRUE(bool(Read)) << llvm::toString(Read.takeError());
  EXPECT_FALSE(Read->Relocatable) << "version 2 knows no relocatable images";
}

TEST(ModuleImage, IsClassifiedAsACucpuImage) {
  auto Bytes = sampleBytes();
  std::string Why;
  EXPECT_EQ(classifyImage(Bytes.data(), Bytes.size(), Why),
            ImageKind::CucpuImage)
      << Why;
  EXPECT_EQ(classifyImage(Bytes.data(), 0, Why), ImageKind::CucpuImage)
      << "size from the header: the section header table is last";
  auto Window = sizelessImage(Bytes.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), Bytes.size());
}

TEST(ModuleImage, ReadelfReadsItWithoutWarnings) {
  if (access("/usr/bin/readelf", X_OK) != 0)
    GTEST_SKIP() << "readelf is not installed";
  auto Bytes = sampleBytes();
  char Path[] = "/tmp/cucpu-image-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  ASSERT_EQ(write(Fd, Bytes.data(), Bytes.size()), ssize_t(Bytes.size()));
  close(Fd);
  std::string Command = std::string("/usr/bin/readelf -a -W ") + Path + " 2>&1";
  FILE *Pipe = popen(Command.c_str(), "r");
  ASSERT_NE(Pipe, nullptr);
  std::string Output;
  char Buffer[4096];
  while (size_t N = fread(Buffer, 1, sizeof(Buffer), Pipe))
    Output.append(Buffer, N);
  int Status = pclose(Pipe);
  unlink(Path);
  EXPECT_EQ(Status, 0) << Output;
  EXPECT_EQ(Output.find("Warning"), std::string::npos) << Output;
  EXPECT_EQ(Output.find("Error"), std::string::npos) << Output;
  EXPECT_NE(Output.find(".nv.info._Z6vecAddPKfS0_Pfi"), std::string::npos)
      << "per-kernel info section listed";
  EXPECT_NE(Output.find(".nv.cucpu.llvmir"), std::string::npos);
  EXPECT_NE(Output.find("FUNC    GLOBAL DEFAULT"), std::string::npos)
      << "kernel symbols are functions: " << Output;
}

TEST(ModuleImage, RejectsEveryTruncation) {
  auto Bytes = sampleBytes();
  for (size_t Length = 0; Length < Bytes.size(); ++Length) {
    std::vector<uint8_t> Cut(Bytes.begin(), Bytes.begin() + Length);
    EXPECT_FALSE(readError(Cut).empty()) << "cut to " << Length << " bytes";
  }
}

TEST(ModuleImage, RejectsWrongHeaders) {
  Layout L(sampleBytes());
  auto Patched = [&](size_t At, uint8_t V) {
    auto B = L.Bytes;
    B[At] = V;
    return B;
  };
  EXPECT_REJECTED(Patched(0, 0), "magic", "not ELF");
  EXPECT_REJECTED(Patched(EI_CLASS, ELFCLASS32), "ELFCLASS64", "32-bit");
  EXPECT_REJECTED(Patched(EI_DATA, ELFDATA2MSB), "little-endian", "big-endian");
  EXPECT_REJECTED(Patched(EI_OSABI, 0x33), "not a cucpu module image",
                  "NVIDIA's OS/ABI");
  EXPECT_REJECTED(Patched(EI_ABIVERSION, 4), "format version 4",
                  "a future format version");
  EXPECT_REJECTED(Patched(EI_ABIVERSION, 2), "note says format version 3",
                  "the header and the note disagree");
  EXPECT_REJECTED(Patched(EI_ABIVERSION, 1), "format version 1",
                  "version 1 images carry no bitcode checksum");
  auto Machine = L.Bytes;
  endian::write16le(Machine.data() + offsetof(Elf64_Ehdr, e_machine),
                    EM_X86_64);
  EXPECT_REJECTED(Machine, "machine 62", "x86-64 is not EM_CUDA");
  auto Flags = L.Bytes;
  endian::write32le(Flags.data() + offsetof(Elf64_Ehdr, e_flags), 90);
  EXPECT_REJECTED(Flags, "do not match", "e_flags disagree with the note");
  auto ShNum = L.Bytes;
  endian::write16le(ShNum.data() + offsetof(Elf64_Ehdr, e_shnum), 0xffff);
  EXPECT_REJECTED(ShNum, "section header table", "table runs off the end");
  auto StrNdx = L.Bytes;
  endian::write16le(StrNdx.data() + offsetof(Elf64_Ehdr, e_shstrndx), 500);
  EXPECT_REJECTED(StrNdx, "section-name table index", "index out of range");
  auto ShOff = L.Bytes;
  endian::write64le(ShOff.data() + offsetof(Elf64_Ehdr, e_shoff),
                    ~uint64_t(0) - 10);
  EXPECT_REJECTED(ShOff, "section header table", "offset overflows");
}

TEST(ModuleImage, RejectsBadSections) {
  Layout L(sampleBytes());
  size_t Ir = L.sectionIndex(IrSectionName);
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_offset = M.Bytes.size() - 2;
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "lies outside", "contents past the end");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_size = ~uint64_t(0);
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "lies outside", "size overflows");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_name = 1u << 30;
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "section name", "name outside .shstrtab");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_link = 9999;
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "links to section 9999", "sh_link out of range");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_addralign = 3;
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "power of two", "bad alignment");
  }
  {
    // The last byte of .shstrtab is its terminating NUL.
    Layout M = L;
    Elf64_Shdr S = M.shdr(1);
    M.Bytes[S.sh_offset + S.sh_size - 1] = 'x';
    EXPECT_REJECTED(M.Bytes, "NUL", "section names not terminated");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(Ir);
    S.sh_size = 0;
    M.setShdr(Ir, S);
    EXPECT_REJECTED(M.Bytes, "empty", "empty bitcode");
  }
  {
    // Renaming the IR section (same length) removes it.
    Layout M = L;
    Elf64_Shdr S = M.shdr(1);
    std::string Names(M.Bytes.begin() + S.sh_offset,
                      M.Bytes.begin() + S.sh_offset + S.sh_size);
    size_t At = Names.find(IrSectionName);
    ASSERT_NE(At, std::string::npos);
    M.Bytes[S.sh_offset + At + 5] = 'X';
    EXPECT_REJECTED(M.Bytes, "no .nv.cucpu.llvmir", "bitcode missing");
  }
}

TEST(ModuleImage, RejectsBadSymbols) {
  Layout L(sampleBytes());
  size_t SymTab = L.sectionIndex(".symtab");
  {
    Layout M = L;
    Elf64_Sym S = M.symbol(1);
    S.st_name = 1u << 30;
    M.setSymbol(1, S);
    EXPECT_REJECTED(M.Bytes, "symbol name", "name outside .strtab");
  }
  {
    Layout M = L;
    Elf64_Sym S = M.symbol(1);
    S.st_shndx = 4000;
    M.setSymbol(1, S);
    EXPECT_REJECTED(M.Bytes, "not a section", "symbol section out of range");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(SymTab);
    S.sh_link = 0;
    M.setShdr(SymTab, S);
    EXPECT_REJECTED(M.Bytes, "symbol-name table", "sh_link is not a strtab");
  }
  {
    Layout M = L;
    Elf64_Shdr S = M.shdr(SymTab);
    S.sh_size -= 1;
    M.setShdr(SymTab, S);
    EXPECT_REJECTED(M.Bytes, ".symtab", "size not a multiple of 24");
  }
  {
    // The global record of "counter" names a symbol that does not exist.
    Layout M = L;
    size_t Info = M.contentAt(format::ModuleInfoSection);
    M.put32(Info + format::ModuleInfoHeaderSize, 100000);
    EXPECT_REJECTED(M.Bytes, "names symbol 100000", "record symbol range");
  }
  {
    // Two global records name the same symbol.
    Layout M = L;
    size_t Info = M.contentAt(format::ModuleInfoSection);
    uint32_t First =
        endian::read32le(M.Bytes.data() + Info + format::ModuleInfoHeaderSize);
    M.put32(Info + format::ModuleInfoHeaderSize + format::GlobalRecordSize,
            First);
    EXPECT_REJECTED(M.Bytes, "described twice", "duplicate record");
  }
  {
    // The second kernel takes the first one's name.
    Layout M = L;
    Elf64_Sym A = M.symbol(1), B = M.symbol(2);
    B.st_name = A.st_name;
    M.setSymbol(2, B);
    EXPECT_FALSE(readError(M.Bytes).empty()) << "duplicate kernel names";
  }
  {
    // A global takes a kernel's name.
    Layout M = L;
    Elf64_Sym A = M.symbol(1), G = M.symbol(3);
    G.st_name = A.st_name;
    M.setSymbol(3, G);
    EXPECT_REJECTED(M.Bytes, "used twice", "global named like a kernel");
  }
}

TEST(ModuleImage, RejectsBadKernelRecords) {
  Layout L(sampleBytes());
  size_t Info = L.contentAt(".nv.info._Z6vecAddPKfS0_Pfi");
  auto Param = [&](unsigned I, unsigned Field) {
    return Info + format::KernelInfoHeaderSize + I * format::ParamRecordSize +
           Field * 4;
  };
  auto With = [&](size_t At, uint32_t V) {
    Layout M = L;
    M.put32(At, V);
    return M.Bytes;
  };
  EXPECT_REJECTED(With(Info, 0xffffffff), "parameters need",
                  "giant parameter count");
  EXPECT_REJECTED(With(Info, 5), "parameters need", "count off by one");
  EXPECT_REJECTED(With(Info + 4, 32768), "at most 32764", "parameter bytes");
  EXPECT_REJECTED(With(Info + 4, 20), "past the parameter size",
                  "parameter past ParamBytes");
  EXPECT_REJECTED(With(Param(2, 0), 8), "overlaps", "overlapping parameters");
  EXPECT_REJECTED(With(Param(2, 2), 3), "power of two", "alignment 3");
  EXPECT_REJECTED(With(Param(3, 0), 26), "multiple of its alignment",
                  "misaligned offset");
  EXPECT_REJECTED(With(Param(3, 1), 0), "size 0", "empty parameter");
  EXPECT_REJECTED(With(Param(3, 1), 0xfffffff0), "past the parameter size",
                  "size wraps");
  EXPECT_REJECTED(With(Info + 12, 1u << 20), "unknown use bits",
                  "use bits of a future version");
  {
    Layout M = L;
    size_t Index = M.sectionIndex(".nv.info.matrixMul");
    Elf64_Shdr S = M.shdr(Index);
    S.sh_link = 0;
    M.setShdr(Index, S);
    EXPECT_REJECTED(M.Bytes, "sh_link", "info section not linked to .symtab");
  }
  {
    Layout M = L;
    size_t Index = M.sectionIndex(".nv.shared.matrixMul");
    Elf64_Shdr S = M.shdr(Index);
    S.sh_type = SHT_PROGBITS;
    S.sh_offset = 0;
    S.sh_size = 4;
    M.setShdr(Index, S);
    EXPECT_REJECTED(M.Bytes, "SHT_NOBITS", "shared section with contents");
  }
}

TEST(ModuleImage, RejectsDamagedBitcode) {
  Layout L(sampleBytes());
  size_t Ir = L.contentAt(IrSectionName);
  for (size_t At : {Ir, Ir + 3, Ir + 7}) {
    auto B = L.Bytes;
    B[At] ^= 0x10;
    EXPECT_REJECTED(B, "damaged", "a flipped bit in the bitcode");
  }
}

TEST(ModuleImage, RejectsBadGlobalsAndNotes) {
  Layout L(sampleBytes());
  size_t Info = L.contentAt(format::ModuleInfoSection);
  auto With = [&](size_t At, uint32_t V) {
    Layout M = L;
    M.put32(At, V);
    return M.Bytes;
  };
  EXPECT_REJECTED(With(Info, 0x10000000), "globals and", "giant global count");
  EXPECT_REJECTED(With(Info + 4, 0xffffffff), "globals and",
                  "giant texture count");
  size_t Rec = Info + format::ModuleInfoHeaderSize;
  EXPECT_REJECTED(With(Rec + 4, 3), "power of two",
                  "alignment 3 of a global at offset 0");
  // "zeros" (the fourth global) is at offset 16.
  EXPECT_REJECTED(With(Rec + 3 * format::GlobalRecordSize + 4, 32),
                  "not aligned", "a global at offset 16 aligned to 32");
  EXPECT_REJECTED(With(Rec + 8, 1), "initializer flag",
                  "NOBITS global with an initializer");
  EXPECT_REJECTED(With(Rec + 8, 4), "unknown flags", "unknown flag bits");
  {
    // "table" (6 bytes) grows past its section.
    Layout M = L;
    Elf64_Sym G = M.symbol(4);
    G.st_size = 1000;
    M.setSymbol(4, G);
    EXPECT_REJECTED(M.Bytes, "lies outside", "global past its section");
  }
  {
    // "zeros" moved onto "coeffs" in .nv.constant3.
    Layout M = L;
    Elf64_Sym G = M.symbol(6);
    G.st_value = 0;
    M.setSymbol(6, G);
    EXPECT_REJECTED(M.Bytes, "overlap", "overlapping globals");
  }
  {
    // The texture symbol no longer points at its record.
    Layout M = L;
    Elf64_Sym T = M.symbol(8);
    T.st_value += 4;
    M.setSymbol(8, T);
    EXPECT_REJECTED(M.Bytes, "does not point", "texture symbol");
  }
  {
    size_t TexRec = Rec + 5 * format::GlobalRecordSize;
    EXPECT_REJECTED(With(TexRec + 4, 4), "invalid description",
                    "4-dimensional texture");
    EXPECT_REJECTED(With(TexRec + 4, 0), "invalid description",
                    "unknown dimensions with a known channel type");
  }
  size_t Note = L.contentAt(format::NoteSection);
  size_t Desc = Note + 12 + 8;
  EXPECT_REJECTED(With(Desc, 7), "format version 7", "note version");
  EXPECT_REJECTED(With(Desc + 4, 0x7fffffff), "do not fit",
                  "producer size past the descriptor");
  EXPECT_REJECTED(With(Note + 4, 0x7fffffff), "runs past",
                  "descriptor size past the section");
  {
    Layout M = L;
    M.Bytes[Desc + format::NoteDescHeaderSize + 3] = 0;
    EXPECT_REJECTED(M.Bytes, "NUL-terminated exactly", "NUL inside producer");
  }
}

TEST(ModuleImage, RejectsFlippedBytesWithoutCrashing) {
  // Every single byte of the headers and records set to 0xff: each read
  // either fails with a message or yields a valid image (ASan checks it).
  auto Bytes = sampleBytes();
  for (size_t I = 0; I < Bytes.size(); ++I) {
    auto Damaged = Bytes;
    Damaged[I] ^= 0xff;
    auto Image = readImage(Damaged);
    if (!Image) {
      EXPECT_FALSE(llvm::toString(Image.takeError()).empty());
    }
  }
}

TEST(ModuleImage, WriterRefusesInvalidImages) {
  auto Refused = [](const ModuleImage &I) {
    auto Bytes = writeImage(I);
    if (Bytes)
      return false;
    llvm::consumeError(Bytes.takeError());
    return true;
  };
  ModuleImage I = sampleImage();
  I.Bitcode.clear();
  EXPECT_TRUE(Refused(I)) << "no bitcode";
  I = sampleImage();
  I.Globals[1].Initializer.pop_back();
  EXPECT_TRUE(Refused(I)) << "initializer size differs from Size";
  I = sampleImage();
  I.Kernels[1].Name = I.Kernels[0].Name;
  EXPECT_TRUE(Refused(I)) << "duplicate kernel names";
  I = sampleImage();
  I.Kernels[0].Params[0].Align = 0;
  EXPECT_TRUE(Refused(I)) << "alignment 0";
  I = sampleImage();
  I.TargetArch = "sm 52";
  EXPECT_TRUE(Refused(I)) << "architecture with a space";
  I = sampleImage();
  I.Globals[0].Name = std::string("a\0b", 3);
  EXPECT_TRUE(Refused(I)) << "NUL in a name";
}

//===- ImageKindTest.cpp - Telling module images apart --------------------===//
#include "cucpu/loader/ImageKind.h"

#include <cstring>
#include <elf.h>
#include <gtest/gtest.h>
#include <vector>

using namespace cucpu::loader;

namespace {
/// A minimal well-formed ELF64 file for \p Machine: a header, a NULL
/// section and a section-name table, plus one named section if given.
std::vector<unsigned char> makeElf(uint16_t Machine, const char *Extra) {
  std::string Names = std::string("\0.shstrtab\0", 11);
  size_t ExtraName = Names.size();
  if (Extra)
    Names += std::string(Extra) + '\0';
  unsigned NumSections = Extra ? 3 : 2;
  size_t NamesOffset = sizeof(Elf64_Ehdr);
  size_t ShOffset = (NamesOffset + Names.size() + 7) & ~size_t(7);
  std::vector<unsigned char> Bytes(ShOffset + NumSections * sizeof(Elf64_Shdr));
  Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELFMAG, SELFMAG);
  H.e_ident[EI_CLASS] = ELFCLASS64;
  H.e_ident[EI_DATA] = ELFDATA2LSB;
  H.e_ident[EI_VERSION] = EV_CURRENT;
  H.e_type = ET_EXEC;
  H.e_machine = Machine;
  H.e_version = EV_CURRENT;
  H.e_ehsize = sizeof(Elf64_Ehdr);
  H.e_shoff = ShOffset;
  H.e_shentsize = sizeof(Elf64_Shdr);
  H.e_shnum = NumSections;
  H.e_shstrndx = 1;
  std::memcpy(Bytes.data(), &H, sizeof(H));
  std::memcpy(Bytes.data() + NamesOffset, Names.data(), Names.size());
  Elf64_Shdr Sections[3]{};
  Sections[1].sh_name = 1;
  Sections[1].sh_type = SHT_STRTAB;
  Sections[1].sh_offset = NamesOffset;
  Sections[1].sh_size = Names.size();
  Sections[2].sh_name = ExtraName;
  Sections[2].sh_type = SHT_PROGBITS;
  std::memcpy(Bytes.data() + ShOffset, Sections,
              NumSections * sizeof(Elf64_Shdr));
  return Bytes;
}
} // namespace

TEST(ImageKind, RecognizesTextAndContainers) {
  std::string Why;
  EXPECT_EQ(classifyImage("", 0, Why), ImageKind::Empty);
  EXPECT_EQ(classifyImage(nullptr, 0, Why), ImageKind::Empty);
  EXPECT_EQ(
      classifyImage("//\n// Generated\n.version 8.0\n.target sm_90\n", 0, Why),
      ImageKind::Ptx)
      << "comments before the .version directive";
  EXPECT_EQ(classifyImage("/* c */ .version 7.0", 0, Why), ImageKind::Ptx);
  EXPECT_EQ(classifyImage("hello world", 0, Why), ImageKind::Unknown);
  const unsigned char Wrapper[] = {0xb1, 0x43, 0x62, 0x46, 1, 0, 0, 0};
  EXPECT_EQ(classifyImage(Wrapper, sizeof(Wrapper), Why),
            ImageKind::FatBinaryWrapper);
}

TEST(ImageKind, TellsCudaElfImagesApart) {
  std::string Why;
  auto Ours = makeElf(190, IrSectionName);
  EXPECT_EQ(classifyImage(Ours.data(), Ours.size(), Why),
            ImageKind::CucpuImage);
  EXPECT_EQ(classifyImage(Ours.data(), 0, Why), ImageKind::CucpuImage)
      << "size taken from the header when the caller gives none";
  auto Nvidia = makeElf(190, ".text.kernel");
  EXPECT_EQ(classifyImage(Nvidia.data(), Nvidia.size(), Why),
            ImageKind::NvidiaCubin);
  auto Host = makeElf(EM_X86_64, nullptr);
  EXPECT_EQ(classifyImage(Host.data(), Host.size(), Why), ImageKind::OtherElf);
  EXPECT_NE(Why.find("62"), std::string::npos) << "names the machine: " << Why;
}

TEST(ImageKind, RejectsDamagedElfImages) {
  std::string Why;
  const char Garbage[] = "\x7f"
                         "ELF garbage that is no header at all......."
                         "................................................";
  EXPECT_EQ(classifyImage(Garbage, sizeof(Garbage), Why), ImageKind::Malformed);
  EXPECT_FALSE(Why.empty());

  auto Truncated = makeElf(190, IrSectionName);
  Truncated.resize(Truncated.size() - 10);
  EXPECT_EQ(classifyImage(Truncated.data(), Truncated.size(), Why),
            ImageKind::Malformed)
      << "section headers cut off";

  auto BadName = makeElf(190, IrSectionName);
  Elf64_Shdr S;
  size_t At = BadName.size() - sizeof(Elf64_Shdr);
  std::memcpy(&S, BadName.data() + At, sizeof(S));
  S.sh_name = 100000;
  std::memcpy(BadName.data() + At, &S, sizeof(S));
  EXPECT_EQ(classifyImage(BadName.data(), BadName.size(), Why),
            ImageKind::Malformed)
      << "a section name outside the string table";
}

TEST(ImageKind, ValidatesFatBinaryFraming) {
  std::string Why;
  // Header (version 1, 16 bytes) and one PTX entry of 16 + 16 bytes.
  unsigned char Good[48] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, 32};
  Good[16] = 1;  // kind: PTX
  Good[20] = 16; // entry header size
  Good[24] = 16; // padded payload size
  EXPECT_EQ(classifyImage(Good, sizeof(Good), Why), ImageKind::FatBinary)
      << Why;

  unsigned char BadKind[48];
  std::memcpy(BadKind, Good, sizeof(Good));
  BadKind[16] = 0xde;
  EXPECT_EQ(classifyImage(BadKind, sizeof(BadKind), Why), ImageKind::Malformed);

  unsigned char Overrun[48];
  std::memcpy(Overrun, Good, sizeof(Good));
  Overrun[24] = 17; // payload runs one byte past the container
  EXPECT_EQ(classifyImage(Overrun, sizeof(Overrun), Why), ImageKind::Malformed);

  unsigned char TooBig[48];
  std::memcpy(TooBig, Good, sizeof(Good));
  TooBig[8] = 200; // claims more entries than the buffer holds
  EXPECT_EQ(classifyImage(TooBig, sizeof(TooBig), Why), ImageKind::Malformed);

  unsigned char BadVersion[48];
  std::memcpy(BadVersion, Good, sizeof(Good));
  BadVersion[4] = 2;
  EXPECT_EQ(classifyImage(BadVersion, sizeof(BadVersion), Why),
            ImageKind::Malformed);
}

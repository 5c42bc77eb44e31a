//===- SizelessImageTest.cpp - Images read without a size, guard-paged ----===//
#include "cucpu/loader/SizelessImage.h"
#include "GuardedBuffer.h"
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/loader/ReadableMemory.h"

#include "llvm/Support/Endian.h"

#include <cstring>
#include <elf.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>
#include <string>
#include <vector>

using namespace cucpu::loader;
using cucpu::test::GuardedBuffer;

namespace {
/// A cucpu image with one kernel, as cucc writes it.
std::vector<uint8_t> cucpuImage() {
  ModuleImage Image;
  Image.Producer = "cucc";
  Image.TargetArch = "sm_52";
  Image.Bitcode = {'B', 'C', 0xc0, 0xde, 1, 2, 3, 4};
  KernelInfo K;
  K.Name = "k";
  K.Params = {{0, 8, 8}};
  K.ParamBytes = 8;
  Image.Kernels = {K};
  auto Bytes = writeImage(Image);
  EXPECT_TRUE(bool(Bytes)) << llvm::toString(Bytes.takeError());
  return Bytes ? *Bytes : std::vector<uint8_t>{};
}

/// The message of \p Result's error (which must be an ImageError of kind
/// Invalid), or "" if it succeeded.
std::string invalidMessage(llvm::Expected<std::vector<uint8_t>> Result) {
  if (Result)
    return "";
  std::string Message;
  llvm::handleAllErrors(Result.takeError(), [&](const ImageError &E) {
    EXPECT_EQ(E.kind(), ImageErrorKind::Invalid);
    Message = E.text();
  });
  return Message;
}

/// Overwrites the little-endian u64 at \p Offset of \p Bytes.
void poke64(std::vector<uint8_t> &Bytes, size_t Offset, uint64_t Value) {
  llvm::support::endian::write64le(Bytes.data() + Offset, Value);
}
} // namespace

TEST(ReadableMemory, StopsAtTheGuardPage) {
  std::vector<uint8_t> Bytes(10000, 7);
  GuardedBuffer Buffer(Bytes.data(), Bytes.size());
  ASSERT_TRUE(Buffer);
  EXPECT_EQ(readableLength(Buffer.data(), Bytes.size()), Bytes.size());
  EXPECT_EQ(readableLength(Buffer.data(), Bytes.size() + 1), Bytes.size());
  EXPECT_EQ(readableLength(Buffer.data(), uint64_t(1) << 40), Bytes.size());
  EXPECT_EQ(readableLength(Buffer.data() + 100, 50), 50u);
  EXPECT_EQ(readableLength(Buffer.data() + Bytes.size(), 1), 0u)
      << "the guard page itself";
  EXPECT_EQ(readableLength(nullptr, 16), 0u);
  EXPECT_EQ(readableLength(reinterpret_cast<void *>(uintptr_t(4096)), 16), 0u);
  EXPECT_EQ(readableLength(Buffer.data(), 0), 0u);
}

TEST(SizelessImage, TakesEachKindsExtentFromItsHeader) {
  auto Image = cucpuImage();
  GuardedBuffer Elf(Image.data(), Image.size());
  ASSERT_TRUE(Elf);
  auto Window = sizelessImage(Elf.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), Image.size());
  std::string Why;
  EXPECT_EQ(classifyImage(Elf.data(), 0, Why), ImageKind::CucpuImage) << Why;

  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, Image}});
  ASSERT_TRUE(bool(Fat));
  GuardedBuffer FatBuffer(Fat->data(), Fat->size());
  Window = sizelessImage(FatBuffer.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), Fat->size());

  const char Ptx[] = "// comment\n.version 8.0\n.target sm_52\n";
  GuardedBuffer Text(Ptx, sizeof(Ptx));
  Window = sizelessImage(Text.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), sizeof(Ptx)) << "up to and including the NUL";
  EXPECT_EQ(classifyImage(Text.data(), 0, Why), ImageKind::Ptx) << Why;

  const uint8_t Wrapper[16] = {0xb1, 0x43, 0x62, 0x46, 1};
  GuardedBuffer WrapperBuffer(Wrapper, sizeof(Wrapper));
  Window = sizelessImage(WrapperBuffer.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), sizeof(Wrapper));
}

TEST(SizelessImage, RefusesAClaimPastReadableMemoryNamingTheField) {
  auto Image = cucpuImage();
  // The crash this guards against: one byte of e_shoff flipped, so the
  // section header table seems to lie about 2 GB past the image's start.
  auto FarTable = Image;
  FarTable[offsetof(Elf64_Ehdr, e_shoff) + 3] ^= 0x80;
  GuardedBuffer Far(FarTable.data(), FarTable.size());
  std::string Message = invalidMessage(sizelessImage(Far.data()));
  EXPECT_NE(Message.find("e_shoff"), std::string::npos) << Message;
  EXPECT_NE(Message.find("readable"), std::string::npos) << Message;
  std::string Why;
  EXPECT_EQ(classifyImage(Far.data(), 0, Why), ImageKind::Malformed);

  // One section's contents end one byte into the guard page.
  auto LongSection = Image;
  Elf64_Ehdr H;
  std::memcpy(&H, LongSection.data(), sizeof(H));
  size_t Section1 = H.e_shoff + sizeof(Elf64_Shdr);
  poke64(LongSection, Section1 + offsetof(Elf64_Shdr, sh_size),
         LongSection.size() + 1);
  poke64(LongSection, Section1 + offsetof(Elf64_Shdr, sh_offset), 0);
  GuardedBuffer Long(LongSection.data(), LongSection.size());
  Message = invalidMessage(sizelessImage(Long.data()));
  EXPECT_NE(Message.find("Section 1"), std::string::npos) << Message;

  // A claim beyond what any size-less image may hold.
  auto Huge = Image;
  poke64(Huge, offsetof(Elf64_Ehdr, e_shoff), uint64_t(1) << 62);
  GuardedBuffer HugeBuffer(Huge.data(), Huge.size());
  Message = invalidMessage(sizelessImage(HugeBuffer.data()));
  EXPECT_NE(Message.find("e_shoff"), std::string::npos) << Message;

  // A fat binary whose size field reaches past the guard page.
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, Image}});
  ASSERT_TRUE(bool(Fat));
  poke64(*Fat, 8, Fat->size());
  GuardedBuffer FatBuffer(Fat->data(), Fat->size());
  Message = invalidMessage(sizelessImage(FatBuffer.data()));
  EXPECT_NE(Message.find("size field"), std::string::npos) << Message;
}

TEST(SizelessImage, RefusesTruncatedHeadersAndUnterminatedText) {
  auto Image = cucpuImage();
  GuardedBuffer Header(Image.data(), 40); // Cut inside the ELF header.
  std::string Message = invalidMessage(sizelessImage(Header.data()));
  EXPECT_NE(Message.find("ELF header"), std::string::npos) << Message;

  const uint8_t FatHeader[10] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0};
  GuardedBuffer Fat(FatHeader, sizeof(FatHeader));
  Message = invalidMessage(sizelessImage(Fat.data()));
  EXPECT_NE(Message.find("fat-binary header"), std::string::npos) << Message;

  const uint8_t Wrapper[12] = {0xb1, 0x43, 0x62, 0x46, 1};
  GuardedBuffer ShortWrapper(Wrapper, sizeof(Wrapper));
  Message = invalidMessage(sizelessImage(ShortWrapper.data()));
  EXPECT_NE(Message.find("wrapper"), std::string::npos) << Message;

  std::string Text(9000, 'x'); // More than two pages, no NUL.
  GuardedBuffer Unterminated(Text.data(), Text.size());
  Message = invalidMessage(sizelessImage(Unterminated.data()));
  EXPECT_NE(Message.find("NUL"), std::string::npos) << Message;
  std::string Why;
  EXPECT_EQ(classifyImage(Unterminated.data(), 0, Why), ImageKind::Malformed);

  // Text shorter than a magic number: nothing past its NUL is read.
  GuardedBuffer Short("a", 2);
  auto Window = sizelessImage(Short.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), 2u);
  GuardedBuffer EmptyText("", 1);
  Window = sizelessImage(EmptyText.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), 1u);
  EXPECT_EQ(classifyImage(EmptyText.data(), 0, Why), ImageKind::Empty);

  GuardedBuffer Empty(nullptr, 0);
  Message = invalidMessage(sizelessImage(Empty.data()));
  EXPECT_NE(Message.find("readable"), std::string::npos) << Message;
}

// libelf reads only trusted bytes in cucpu: here, as a second, independent
// reader, it checks that what ElfWriter writes is an ELF file as the gABI
// defines it.
TEST(SizelessImage, LibelfReadsTheWrittenImageAsLoaderDoes) {
  auto Image = cucpuImage();
  ASSERT_NE(elf_version(EV_CURRENT), EV_NONE);
  Elf *E = elf_memory(reinterpret_cast<char *>(Image.data()), Image.size());
  ASSERT_NE(E, nullptr) << elf_errmsg(-1);
  EXPECT_EQ(elf_kind(E), ELF_K_ELF);
  size_t Names = 0;
  ASSERT_EQ(elf_getshdrstrndx(E, &Names), 0) << elf_errmsg(-1);
  bool FoundIr = false;
  for (Elf_Scn *S = elf_nextscn(E, nullptr); S; S = elf_nextscn(E, S)) {
    GElf_Shdr Section;
    ASSERT_NE(gelf_getshdr(S, &Section), nullptr) << elf_errmsg(-1);
    const char *Name = elf_strptr(E, Names, Section.sh_name);
    ASSERT_NE(Name, nullptr) << elf_errmsg(-1);
    if (std::strcmp(Name, IrSectionName) == 0) {
      FoundIr = true;
      EXPECT_EQ(Section.sh_size, 8u);
    }
  }
  EXPECT_TRUE(FoundIr);
  elf_end(E);
  auto Window = sizelessImage(Image.data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), Image.size());
}

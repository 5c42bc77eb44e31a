//===- FatBinaryTest.cpp - Writing, reading and selecting from fat binaries
//===//
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/LoaderError.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/loader/SizelessImage.h"

#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"

#include <cstring>
#include <elf.h>
#include <gtest/gtest.h>

using namespace cucpu::loader;
namespace endian = llvm::support::endian;

namespace {
std::vector<uint8_t> cucpuImage(const char *Arch) {
  ModuleImage I;
  I.Producer = "test";
  I.TargetArch = Arch;
  I.Bitcode = {'B', 'C', 0xC0, 0xDE};
  KernelInfo K;
  K.Name = std::string("kernel_") + Arch;
  I.Kernels = {K};
  auto Bytes = writeImage(I);
  EXPECT_TRUE(bool(Bytes));
  return Bytes ? *Bytes : std::vector<uint8_t>{};
}

std::vector<uint8_t> bytesOf(const char *Text) {
  return std::vector<uint8_t>(Text, Text + std::strlen(Text) + 1);
}

/// A minimal ELF header for EM_CUDA without cucpu's sections: what the
/// classifier takes for an NVIDIA cubin.
std::vector<uint8_t> nvidiaCubin() {
  std::string Names = std::string("\0.shstrtab\0.text.k\0", 19);
  std::vector<uint8_t> B(64 + 24 + 3 * 64);
  Elf64_Ehdr H{};
  std::memcpy(H.e_ident, ELFMAG, SELFMAG);
  H.e_ident[EI_CLASS] = ELFCLASS64;
  H.e_ident[EI_DATA] = ELFDATA2LSB;
  H.e_ident[EI_VERSION] = EV_CURRENT;
  H.e_ident[EI_OSABI] = 0x33;
  H.e_type = ET_EXEC;
  H.e_machine = 190;
  H.e_version = EV_CURRENT;
  H.e_ehsize = 64;
  H.e_shoff = 88;
  H.e_shentsize = 64;
  H.e_shnum = 3;
  H.e_shstrndx = 1;
  std::memcpy(B.data(), &H, sizeof(H));
  std::memcpy(B.data() + 64, Names.data(), Names.size());
  Elf64_Shdr S[3]{};
  S[1].sh_name = 1;
  S[1].sh_type = SHT_STRTAB;
  S[1].sh_offset = 64;
  S[1].sh_size = Names.size();
  S[2].sh_name = 11;
  S[2].sh_type = SHT_PROGBITS;
  std::memcpy(B.data() + 88, S, sizeof(S));
  return B;
}

ImageErrorKind errorKind(llvm::Error E, std::string &Message) {
  ImageErrorKind Kind = ImageErrorKind::Invalid;
  llvm::handleAllErrors(std::move(E), [&](const ImageError &IE) {
    Kind = IE.kind();
    Message = IE.text();
  });
  return Kind;
}
} // namespace

TEST(FatBinary, RoundTripsAndSelectsTheCucpuImage) {
  auto Ptx = bytesOf(".version 8.0\n.target sm_90\n");
  auto Cubin = nvidiaCubin();
  auto Old = cucpuImage("sm_52");
  auto New = cucpuImage("sm_90");
  std::vector<FatBinaryInput> In = {
      {uint16_t(FatEntryKind::Ptx), 90, Ptx},
      {uint16_t(FatEntryKind::Elf), 52, Old},
      {uint16_t(FatEntryKind::Elf), 90, Cubin},
      {uint16_t(FatEntryKind::Elf), 90, New},
  };
  auto Fat = writeFatBinary(In);
  ASSERT_TRUE(bool(Fat)) << llvm::toString(Fat.takeError());
  std::string Why;
  EXPECT_EQ(classifyImage(Fat->data(), Fat->size(), Why), ImageKind::FatBinary)
      << Why;
  EXPECT_EQ(classifyImage(Fat->data(), 0, Why), ImageKind::FatBinary)
      << "size from the header";
  auto Window = sizelessImage(Fat->data());
  ASSERT_TRUE(bool(Window)) << llvm::toString(Window.takeError());
  EXPECT_EQ(Window->size(), Fat->size());

  auto Entries = readFatBinary(*Fat);
  ASSERT_TRUE(bool(Entries)) << llvm::toString(Entries.takeError());
  ASSERT_EQ(Entries->size(), 4u);
  for (size_t I = 0; I < In.size(); ++I) {
    EXPECT_EQ((*Entries)[I].Kind, In[I].Kind) << "entry " << I;
    EXPECT_EQ((*Entries)[I].Arch, In[I].Arch) << "entry " << I;
    EXPECT_EQ((*Entries)[I].Payload, In[I].Payload)
        << "exact payload, without padding, entry " << I;
  }
  EXPECT_EQ((*Entries)[0].PayloadKind, ImageKind::Ptx);
  EXPECT_EQ((*Entries)[1].PayloadKind, ImageKind::CucpuImage);
  EXPECT_EQ((*Entries)[2].PayloadKind, ImageKind::NvidiaCubin);

  auto Chosen = selectImage(*Entries);
  ASSERT_TRUE(bool(Chosen)) << llvm::toString(Chosen.takeError());
  EXPECT_EQ(*Chosen, llvm::ArrayRef<uint8_t>(New)) << "the highest arch wins";
  auto Image = readImage(*Chosen);
  ASSERT_TRUE(bool(Image)) << llvm::toString(Image.takeError());
  EXPECT_EQ(Image->Kernels[0].Name, "kernel_sm_90");
}

TEST(FatBinary, OnlyNvidiaCodeIsNoBinaryForGpu) {
  auto Ptx = bytesOf(".version 8.0\n.target sm_90\n");
  auto Cubin = nvidiaCubin();
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Ptx), 90, Ptx},
                             {uint16_t(FatEntryKind::Elf), 80, Cubin}});
  ASSERT_TRUE(bool(Fat));
  auto Entries = readFatBinary(*Fat);
  ASSERT_TRUE(bool(Entries));
  auto Chosen = selectImage(*Entries);
  ASSERT_FALSE(bool(Chosen));
  std::string Message;
  EXPECT_EQ(errorKind(Chosen.takeError(), Message),
            ImageErrorKind::NoBinaryForGpu)
      << "PTX and SASS only: CUDA_ERROR_NO_BINARY_FOR_GPU";
  EXPECT_NE(Message.find("PTX text for sm_90"), std::string::npos) << Message;
  EXPECT_NE(Message.find("NVIDIA cubin for sm_80"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("cucc"), std::string::npos) << "says what to do";
}

TEST(FatBinary, MalformedElfEntryIsInvalid) {
  std::vector<uint8_t> Broken = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, Broken}});
  ASSERT_TRUE(bool(Fat));
  auto Entries = readFatBinary(*Fat);
  ASSERT_TRUE(bool(Entries));
  auto Chosen = selectImage(*Entries);
  ASSERT_FALSE(bool(Chosen));
  std::string Message;
  EXPECT_EQ(errorKind(Chosen.takeError(), Message), ImageErrorKind::Invalid)
      << "a damaged ELF entry is CUDA_ERROR_INVALID_IMAGE";
}

TEST(FatBinary, CompressedElfEntriesAreNotUsed) {
  auto Image = cucpuImage("sm_52");
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, Image}});
  ASSERT_TRUE(bool(Fat));
  endian::write64le(Fat->data() + 16 + 40, FatFlagCompressedZstd);
  auto Entries = readFatBinary(*Fat);
  ASSERT_TRUE(bool(Entries));
  auto Chosen = chooseEntry(*Entries, {});
  ASSERT_FALSE(bool(Chosen));
  std::string Message;
  EXPECT_EQ(errorKind(Chosen.takeError(), Message),
            ImageErrorKind::NoBinaryForGpu)
      << "cucc never compresses: a compressed ELF entry is NVIDIA's code";
  EXPECT_NE(Message.find("compressed code for sm_52"), std::string::npos)
      << Message;
  EXPECT_NE(Message.find("code=compute_75"), std::string::npos)
      << "says how to build with PTX: " << Message;
}

namespace {
/// A fat binary of PTX entries for \p Arches, each saying its arch in a
/// comment.
std::vector<uint8_t> ptxFat(std::vector<uint32_t> Arches,
                            std::vector<std::vector<uint8_t>> &Keep) {
  std::vector<FatBinaryInput> In;
  for (uint32_t A : Arches) {
    std::string Text = ".version 7.0\n.target sm_" + std::to_string(A) +
                       "\n// arch " + std::to_string(A) + "\n";
    Keep.push_back(bytesOf(Text.c_str()));
    In.push_back({uint16_t(FatEntryKind::Ptx), A, Keep.back()});
  }
  auto Fat = writeFatBinary(In);
  EXPECT_TRUE(bool(Fat));
  return Fat ? *Fat : std::vector<uint8_t>{};
}

/// The Arch of the entry chooseEntry picks from \p Fat under \p Policy.
uint32_t chosenArch(const std::vector<uint8_t> &Fat, EntryPolicy Policy) {
  auto Entries = readFatBinary(Fat);
  EXPECT_TRUE(bool(Entries));
  if (!Entries)
    return 0;
  auto Chosen = chooseEntry(*Entries, Policy);
  if (!Chosen) {
    ADD_FAILURE() << llvm::toString(Chosen.takeError());
    return 0;
  }
  return (*Chosen)->Arch;
}
} // namespace

TEST(FatBinary, ChoosesTheNewestPtxTheDeviceRuns) {
  std::vector<std::vector<uint8_t>> Keep;
  EXPECT_EQ(chosenArch(ptxFat({52, 75, 70, 90}, Keep), {}), 75u)
      << "the highest arch not above the device's 7.5";
  EXPECT_EQ(chosenArch(ptxFat({90, 80, 86}, Keep), {}), 80u)
      << "all above 7.5: the lowest of them";
  EXPECT_EQ(chosenArch(ptxFat({90, 52}, Keep), {}), 52u)
      << "one at or below the device's wins over one above";
  EXPECT_EQ(chosenArch(ptxFat({90, 80}, Keep), {90, false}), 90u)
      << "a 9.0 device takes compute_90";
}

TEST(FatBinary, CucpuImageWinsUnlessPtxIsForced) {
  auto Image = cucpuImage("sm_75");
  auto Ptx = bytesOf(".version 7.0\n.target sm_52\n");
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Ptx), 52, Ptx},
                             {uint16_t(FatEntryKind::Elf), 75, Image}});
  ASSERT_TRUE(bool(Fat));
  auto Entries = readFatBinary(*Fat);
  ASSERT_TRUE(bool(Entries));
  auto Chosen = chooseEntry(*Entries, {});
  ASSERT_TRUE(bool(Chosen)) << llvm::toString(Chosen.takeError());
  EXPECT_EQ((*Chosen)->PayloadKind, ImageKind::CucpuImage)
      << "a binary for the device beats JIT compilation";
  auto Forced = chooseEntry(*Entries, {75, /*PreferPtx=*/true});
  ASSERT_TRUE(bool(Forced)) << llvm::toString(Forced.takeError());
  EXPECT_EQ((*Forced)->PayloadKind, ImageKind::Ptx)
      << "CUDA_FORCE_PTX_JIT=1 takes the PTX";
}

namespace {
/// A fat binary of one PTX entry whose payload is \p Packed, compressed with
/// \p Flag from \p Size bytes.
std::vector<uint8_t> compressedPtxFat(const std::vector<uint8_t> &Packed,
                                      uint64_t Flag, uint64_t Size) {
  auto Fat = writeFatBinary({{uint16_t(FatEntryKind::Ptx), 75, Packed}});
  EXPECT_TRUE(bool(Fat));
  if (!Fat)
    return {};
  endian::write64le(Fat->data() + 16 + 40, Flag | FatFlag64Bit);
  endian::write64le(Fat->data() + 16 + 56, Size);
  return *Fat;
}

/// The payload of the only entry of \p Fat, expanded; the error as text.
std::string expanded(const std::vector<uint8_t> &Fat) {
  auto Entries = readFatBinary(Fat);
  if (!Entries)
    return "error: " + llvm::toString(Entries.takeError());
  auto Payload = entryPayload(Entries->front());
  if (!Payload)
    return "error: " + llvm::toString(Payload.takeError());
  return std::string(Payload->begin(), Payload->end());
}

std::vector<uint8_t> bytes(llvm::StringRef S) {
  return std::vector<uint8_t>(S.begin(), S.end());
}
} // namespace

TEST(FatBinary, ExpandsLz4Entries) {
  std::string Ptx = ".version 7.0\n.target sm_75\n.address_size 64\n";
  auto Fat = compressedPtxFat(lz4LiteralBlock(bytes(Ptx)), FatFlagCompressedLz4,
                              Ptx.size());
  EXPECT_EQ(expanded(Fat), Ptx) << "literals only";
  auto Entries = readFatBinary(Fat);
  ASSERT_TRUE(bool(Entries));
  EXPECT_EQ(Entries->front().PayloadKind, ImageKind::Ptx)
      << "a compressed PTX entry is still PTX";

  // What nvcc --compress-mode=speed writes for eight newlines and text: a
  // literal, then a match of 7 at offset 1 that overlaps its own output,
  // then the last literals.
  std::vector<uint8_t> Nvcc = {0x13, '\n', 0x01, 0x00, 0x30, 'a', 'b', 'c'};
  EXPECT_EQ(expanded(compressedPtxFat(Nvcc, FatFlagCompressedLz4, 11)),
            "\n\n\n\n\n\n\n\nabc");

  // A long literal run takes length bytes of 255.
  std::string Long(600, 'x');
  EXPECT_EQ(expanded(compressedPtxFat(lz4LiteralBlock(bytes(Long)),
                                      FatFlagCompressedLz4, Long.size())),
            Long);
}

TEST(FatBinary, MalformedLz4IsAnInvalidImageNeverACrash) {
  auto Bad = [](std::vector<uint8_t> Block, uint64_t Size) {
    std::string Out =
        expanded(compressedPtxFat(Block, FatFlagCompressedLz4, Size));
    return Out.rfind("error: ", 0) == 0 &&
           Out.find("offset 16") != std::string::npos;
  };
  EXPECT_TRUE(Bad({0x13, '\n', 0x05, 0x00}, 8))
      << "a match before the start of the output";
  EXPECT_TRUE(Bad({0x13, '\n', 0x00, 0x00}, 8)) << "offset 0";
  EXPECT_TRUE(Bad({0x13, '\n', 0x01}, 8)) << "the offset is cut off";
  EXPECT_TRUE(Bad({0x50, 'a', 'b'}, 5)) << "the literals are cut off";
  EXPECT_TRUE(Bad({0xf0, 255, 255}, 100)) << "the length runs out";
  EXPECT_TRUE(Bad({0x30, 'a', 'b', 'c'}, 2)) << "longer than stated";
  EXPECT_TRUE(Bad({0x30, 'a', 'b', 'c'}, 4)) << "shorter than stated";
  EXPECT_TRUE(Bad({0x1f, 'a', 0x01, 0x00, 255, 255, 255, 10}, 100))
      << "a match beyond the stated size";
  EXPECT_TRUE(Bad({0x10, 'a'}, 0)) << "a stated size of 0";
  EXPECT_TRUE(Bad({0x10, 'a'}, MaxDecompressedEntry + 1))
      << "a stated size beyond the limit is not allocated";
  EXPECT_TRUE(Bad({0x10, 'a'}, 1u << 20))
      << "2 bytes cannot expand to 1 MiB: nothing is allocated for it";
  // Every cut of a valid block fails cleanly or (cut after the last
  // literal) expands short.
  std::vector<uint8_t> Good = {0x13, '\n', 0x01, 0x00, 0x30, 'a', 'b', 'c'};
  for (size_t Cut = 1; Cut < Good.size(); ++Cut)
    EXPECT_TRUE(Bad({Good.begin(), Good.begin() + Cut}, 11)) << "cut " << Cut;
}

TEST(FatBinary, ExpandsZstdEntries) {
  if (!llvm::compression::zstd::isAvailable())
    GTEST_SKIP() << "this LLVM has no zstd";
  std::string Ptx = "\n\n\n\n.version 7.0\n.target sm_75\n" +
                    std::string(300, ' ') + "// end\n";
  llvm::SmallVector<uint8_t, 0> Packed;
  llvm::compression::zstd::compress(bytes(Ptx), Packed);
  std::vector<uint8_t> Frame(Packed.begin(), Packed.end());
  EXPECT_EQ(
      expanded(compressedPtxFat(Frame, FatFlagCompressedZstd, Ptx.size())),
      Ptx);
  std::string Short =
      expanded(compressedPtxFat(Frame, FatFlagCompressedZstd, Ptx.size() - 1));
  EXPECT_EQ(Short.rfind("error: ", 0), 0u)
      << "a frame larger than stated: " << Short;
  Frame[Frame.size() / 2] ^= 0xff;
  Frame.resize(Frame.size() - 3);
  std::string Broken =
      expanded(compressedPtxFat(Frame, FatFlagCompressedZstd, Ptx.size()));
  EXPECT_EQ(Broken.rfind("error: ", 0), 0u) << "a damaged frame: " << Broken;
}

TEST(FatBinary, RejectsMalformedContainers) {
  auto Fat = writeFatBinary(
      {{uint16_t(FatEntryKind::Elf), 52, cucpuImage("sm_52")},
       {uint16_t(FatEntryKind::Ptx), 52, bytesOf(".version 7.0\n")}});
  ASSERT_TRUE(bool(Fat));
  auto Rejected = [](std::vector<uint8_t> B) {
    auto Entries = readFatBinary(B);
    if (Entries)
      return false;
    llvm::consumeError(Entries.takeError());
    return true;
  };
  for (size_t Length = 0; Length < Fat->size(); ++Length) {
    std::vector<uint8_t> Cut(Fat->begin(), Fat->begin() + Length);
    auto Entries = readFatBinary(Cut);
    if (Entries) {
      // Only a cut inside the trailing padding may still parse.
      EXPECT_GE(Length, Fat->size() - 16) << "cut to " << Length;
    } else {
      llvm::consumeError(Entries.takeError());
    }
  }
  auto Patched = [&](size_t At, unsigned Bytes, uint64_t V) {
    auto B = *Fat;
    for (unsigned I = 0; I < Bytes; ++I)
      B[At + I] = uint8_t(V >> (8 * I));
    return B;
  };
  EXPECT_TRUE(Rejected(Patched(0, 4, 0x12345678))) << "bad magic";
  EXPECT_TRUE(Rejected(Patched(4, 2, 2))) << "version 2";
  EXPECT_TRUE(Rejected(Patched(6, 2, 32))) << "header size 32";
  EXPECT_TRUE(Rejected(Patched(8, 8, 0))) << "no entries";
  EXPECT_TRUE(Rejected(Patched(8, 8, ~uint64_t(0)))) << "giant size";
  EXPECT_TRUE(Rejected(Patched(16, 2, 3))) << "unknown kind 3";
  EXPECT_TRUE(Rejected(Patched(20, 4, 8))) << "entry header below 16";
  EXPECT_TRUE(Rejected(Patched(20, 4, 0xffffffff))) << "entry header huge";
  EXPECT_TRUE(Rejected(Patched(24, 8, ~uint64_t(0) - 8))) << "payload wraps";
  EXPECT_TRUE(Rejected(Patched(32, 4, 0xfffffff0)))
      << "payload size beyond the padded size";
  std::string Why;
  auto Bad = Patched(16, 2, 3);
  EXPECT_EQ(classifyImage(Bad.data(), Bad.size(), Why), ImageKind::Malformed);
  EXPECT_NE(Why.find("offset 16"), std::string::npos) << Why;
}

TEST(FatBinary, NestedContainersAreNotFollowed) {
  // An ELF entry whose payload is another fat binary is malformed, not
  // parsed recursively.
  auto Inner = writeFatBinary(
      {{uint16_t(FatEntryKind::Ptx), 52, bytesOf(".version 7.0\n")}});
  ASSERT_TRUE(bool(Inner));
  auto Outer = writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, *Inner}});
  ASSERT_TRUE(bool(Outer));
  auto Entries = readFatBinary(*Outer);
  ASSERT_TRUE(bool(Entries));
  EXPECT_EQ((*Entries)[0].PayloadKind, ImageKind::Malformed);
}

TEST(FatBinary, WriterRefusesBadInput) {
  auto Refused = [](std::vector<FatBinaryInput> In) {
    auto Fat = writeFatBinary(In);
    if (Fat)
      return false;
    llvm::consumeError(Fat.takeError());
    return true;
  };
  std::vector<uint8_t> One = {1};
  EXPECT_TRUE(Refused({})) << "no entries";
  EXPECT_TRUE(Refused({{2, 52, {}}})) << "empty payload";
  EXPECT_TRUE(Refused({{7, 52, One}})) << "unknown kind";
}

TEST(FatBinary, UnwrapsTheNvccWrapper) {
  auto Fat =
      writeFatBinary({{uint16_t(FatEntryKind::Elf), 52, cucpuImage("sm_52")}});
  ASSERT_TRUE(bool(Fat));
  struct {
    uint32_t Magic;
    uint32_t Version;
    const void *Data;
    void *Unused;
  } Wrapper = {FatBinaryWrapperMagic, 1, Fat->data(), nullptr};
  auto Data = unwrapFatBinary(&Wrapper);
  ASSERT_TRUE(bool(Data)) << llvm::toString(Data.takeError());
  EXPECT_EQ(*Data, Fat->data());
  Wrapper.Version = 3;
  auto Bad = unwrapFatBinary(&Wrapper);
  EXPECT_FALSE(bool(Bad)) << "unknown wrapper version";
  llvm::consumeError(Bad.takeError());
}

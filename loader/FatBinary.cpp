//===- FatBinary.cpp - NVIDIA's fat-binary container ----------------------===//
#include "cucpu/loader/FatBinary.h"

#include "cucpu/loader/LoaderError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace cucpu::loader;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
namespace endian = llvm::support::endian;

namespace {
/// Field offsets of an entry header (docs/module-format.md).
enum EntryField : unsigned {
  KindAt = 0,
  VersionAt = 2,
  HeaderSizeAt = 4,
  PaddedSizeAt = 8,
  PayloadSizeAt = 16,
  ArchAt = 28,
  FlagsAt = 40,
  UncompressedSizeAt = 56,
};
/// The part of an entry header every reader needs.
constexpr uint32_t MinEntryHeaderSize = 16;
/// NVIDIA writes this entry version; so does cucpu.
constexpr uint16_t EntryVersion = 0x0101;
/// Payloads are padded to this many bytes.
constexpr uint64_t PayloadPadding = 16;

bool knownKind(uint16_t Kind) {
  return Kind == 1 || Kind == 2 || Kind == 4 || Kind == 8 || Kind == 16;
}

/// What an ELF entry's payload is.
ImageKind classifyPayload(const FatBinaryEntry &E) {
  if (E.Kind == uint16_t(FatEntryKind::Ptx))
    return ImageKind::Ptx;
  if (E.Kind != uint16_t(FatEntryKind::Elf) || (E.Flags & FatFlagCompressed))
    return ImageKind::Unknown;
  // Only ELF here: a fat binary nested in an entry is not followed, so a
  // crafted container cannot recurse.
  if (E.Payload.size() < 4 || std::memcmp(E.Payload.data(),
                                          "\x7f"
                                          "ELF",
                                          4) != 0)
    return ImageKind::Malformed;
  std::string Why;
  return classifyElf(E.Payload.data(), E.Payload.size(), Why);
}

std::string describeEntry(const FatBinaryEntry &E) {
  std::string What;
  if (E.PayloadKind == ImageKind::Ptx)
    What = describe(E.PayloadKind);
  else if (E.Flags & FatFlagCompressed)
    What = "compressed code";
  else if (E.PayloadKind == ImageKind::Unknown)
    What = "code of kind " + std::to_string(E.Kind);
  else
    What = describe(E.PayloadKind);
  if (E.Arch)
    What += " for sm_" + std::to_string(E.Arch);
  return What;
}
} // namespace

Expected<std::vector<FatBinaryEntry>>
cucpu::loader::readFatBinary(ArrayRef<uint8_t> Bytes) {
  if (Bytes.size() < FatHeaderSize)
    return invalidImage("The fat binary ({0} bytes) is shorter than its "
                        "{1}-byte header.",
                        Bytes.size(), FatHeaderSize);
  uint32_t Magic = endian::read32le(Bytes.data());
  uint16_t Version = endian::read16le(Bytes.data() + 4);
  uint16_t HeaderSize = endian::read16le(Bytes.data() + 6);
  uint64_t FatSize = endian::read64le(Bytes.data() + 8);
  if (Magic != FatBinaryMagic)
    return invalidImage("The fat binary's magic is {0:x}, not {1:x}.", Magic,
                        FatBinaryMagic);
  if (Version != 1 || HeaderSize != FatHeaderSize)
    return invalidImage("The fat binary has version {0} and header size {1} "
                        "(expected 1 and {2}).",
                        Version, HeaderSize, FatHeaderSize);
  uint64_t Limit = Bytes.size() - FatHeaderSize;
  if (FatSize == 0 || FatSize > Limit)
    return invalidImage("The fat binary claims {0} bytes of entries (1 to {1} "
                        "follow its header).",
                        FatSize, Limit);

  std::vector<FatBinaryEntry> Entries;
  ArrayRef<uint8_t> Body = Bytes.slice(FatHeaderSize, FatSize);
  uint64_t Offset = 0;
  while (Body.size() - Offset >= MinEntryHeaderSize) {
    uint64_t Left = Body.size() - Offset;
    const uint8_t *H = Body.data() + Offset;
    FatBinaryEntry E;
    E.Offset = FatHeaderSize + Offset;
    E.Kind = endian::read16le(H + KindAt);
    E.Version = endian::read16le(H + VersionAt);
    uint64_t EntryHeader = endian::read32le(H + HeaderSizeAt);
    uint64_t Padded = endian::read64le(H + PaddedSizeAt);
    if (!knownKind(E.Kind) || EntryHeader < MinEntryHeaderSize ||
        EntryHeader > Left || Padded > Left - EntryHeader)
      return invalidImage("The fat-binary entry at offset {0} is invalid "
                          "(kind {1}, header {2} bytes, payload {3} bytes, "
                          "{4} bytes left).",
                          E.Offset, E.Kind, EntryHeader, Padded, Left);
    // Fields past a short header read as zero.
    uint8_t Full[FatEntryHeaderSize] = {};
    std::memcpy(Full, H, std::min<uint64_t>(EntryHeader, FatEntryHeaderSize));
    uint64_t PayloadSize = endian::read32le(Full + PayloadSizeAt);
    E.Arch = endian::read32le(Full + ArchAt);
    E.Flags = endian::read64le(Full + FlagsAt);
    E.UncompressedSize = endian::read64le(Full + UncompressedSizeAt);
    if (PayloadSize == 0)
      PayloadSize = Padded;
    if (PayloadSize > Padded)
      return invalidImage("The fat-binary entry at offset {0} has a payload "
                          "of {1} bytes, more than its padded size {2}.",
                          E.Offset, PayloadSize, Padded);
    E.Payload = Body.slice(Offset + EntryHeader, PayloadSize);
    E.PayloadKind = classifyPayload(E);
    Entries.push_back(E);
    Offset += EntryHeader + Padded;
  }
  return Entries;
}

Expected<uint64_t> cucpu::loader::fatBinarySize(const void *Data) {
  if (!Data)
    return invalidImage("The fat binary pointer is NULL.");
  const auto *Bytes = static_cast<const uint8_t *>(Data);
  uint32_t Magic = endian::read32le(Bytes);
  uint16_t Version = endian::read16le(Bytes + 4);
  uint16_t HeaderSize = endian::read16le(Bytes + 6);
  uint64_t FatSize = endian::read64le(Bytes + 8);
  if (Magic != FatBinaryMagic || Version != 1 || HeaderSize != FatHeaderSize)
    return invalidImage("The fat binary's header (magic {0:x}, version {1}, "
                        "header size {2}) is not a version-1 fat-binary "
                        "header.",
                        Magic, Version, HeaderSize);
  if (FatSize == 0 || FatSize > MaxFatBinarySize - FatHeaderSize)
    return invalidImage("The fat binary claims {0} bytes of entries (1 to {1} "
                        "without a known buffer size).",
                        FatSize, MaxFatBinarySize - FatHeaderSize);
  return FatHeaderSize + FatSize;
}

Expected<const void *> cucpu::loader::unwrapFatBinary(const void *Wrapper) {
  if (!Wrapper)
    return invalidImage("The fat-binary wrapper pointer is NULL.");
  // struct __fatBinC_Wrapper_t { int magic; int version;
  //   const unsigned long long *data; void *filename_or_fatbins; };
  const auto *Bytes = static_cast<const uint8_t *>(Wrapper);
  uint32_t Magic = endian::read32le(Bytes);
  uint32_t Version = endian::read32le(Bytes + 4);
  const void *Data;
  std::memcpy(&Data, Bytes + 8, sizeof(Data));
  if (Magic != FatBinaryWrapperMagic || (Version != 1 && Version != 2))
    return invalidImage("The fat-binary wrapper has magic {0:x} and version "
                        "{1} (expected {2:x} and 1 or 2).",
                        Magic, Version, FatBinaryWrapperMagic);
  if (!Data)
    return invalidImage("The fat-binary wrapper's data pointer is NULL.");
  return Data;
}

Expected<std::vector<uint8_t>>
cucpu::loader::writeFatBinary(ArrayRef<FatBinaryInput> Entries) {
  if (Entries.empty())
    return invalidImage("A fat binary needs at least one entry.");
  std::vector<uint8_t> Out(FatHeaderSize);
  for (size_t I = 0; I < Entries.size(); ++I) {
    const FatBinaryInput &In = Entries[I];
    if (In.Kind != uint16_t(FatEntryKind::Ptx) &&
        In.Kind != uint16_t(FatEntryKind::Elf))
      return invalidImage("Fat-binary entry {0} has kind {1}; cucpu writes "
                          "PTX (1) and ELF (2) entries.",
                          I, In.Kind);
    if (In.Payload.empty() || In.Payload.size() > UINT32_MAX)
      return invalidImage("Fat-binary entry {0} has {1} bytes of payload (1 "
                          "to {2}).",
                          I, In.Payload.size(), UINT32_MAX);
    uint64_t Padded = llvm::alignTo(In.Payload.size(), PayloadPadding);
    uint8_t H[FatEntryHeaderSize] = {};
    endian::write16le(H + KindAt, In.Kind);
    endian::write16le(H + VersionAt, EntryVersion);
    endian::write32le(H + HeaderSizeAt, FatEntryHeaderSize);
    endian::write64le(H + PaddedSizeAt, Padded);
    endian::write32le(H + PayloadSizeAt, uint32_t(In.Payload.size()));
    endian::write32le(H + ArchAt, In.Arch);
    endian::write64le(H + FlagsAt, FatFlag64Bit);
    Out.insert(Out.end(), H, H + FatEntryHeaderSize);
    Out.insert(Out.end(), In.Payload.begin(), In.Payload.end());
    Out.resize(Out.size() + (Padded - In.Payload.size()));
  }
  endian::write32le(Out.data(), FatBinaryMagic);
  endian::write16le(Out.data() + 4, 1);
  endian::write16le(Out.data() + 6, FatHeaderSize);
  endian::write64le(Out.data() + 8, Out.size() - FatHeaderSize);
  return Out;
}

namespace {
/// Why \p Entries offer nothing to load: a malformed ELF entry (Invalid),
/// or a list of what they hold (NoBinaryForGpu).
Error nothingToLoad(ArrayRef<FatBinaryEntry> Entries, bool PtxUsable) {
  for (const FatBinaryEntry &E : Entries)
    if (E.PayloadKind == ImageKind::Malformed)
      return invalidImage("The fat-binary entry at offset {0} is a malformed "
                          "ELF image.",
                          E.Offset);
  std::string Held;
  for (size_t I = 0; I < Entries.size(); ++I)
    Held += (I == 0                    ? ""
             : I + 1 == Entries.size() ? " and "
                                       : ", ") +
            describeEntry(Entries[I]);
  if (Held.empty())
    Held = "no entries";
  return llvm::make_error<ImageError>(
      ImageErrorKind::NoBinaryForGpu,
      "The fat binary holds " + Held + ", but no cucpu image" +
          (PtxUsable ? " and no PTX" : "") +
          "; compile the kernel source with cucc (cucc -fatbin or -cubin), "
          "or build it with PTX (nvcc -gencode "
          "arch=compute_75,code=compute_75) "
          "for cucpu's PTX JIT.");
}

const FatBinaryEntry *bestImage(ArrayRef<FatBinaryEntry> Entries) {
  const FatBinaryEntry *Best = nullptr;
  for (const FatBinaryEntry &E : Entries)
    if (E.PayloadKind == ImageKind::CucpuImage &&
        (!Best || E.Arch > Best->Arch))
      Best = &E;
  return Best;
}
} // namespace

Expected<ArrayRef<uint8_t>>
cucpu::loader::selectImage(ArrayRef<FatBinaryEntry> Entries) {
  if (const FatBinaryEntry *Best = bestImage(Entries))
    return Best->Payload;
  return nothingToLoad(Entries, /*PtxUsable=*/false);
}

Expected<const FatBinaryEntry *>
cucpu::loader::chooseEntry(ArrayRef<FatBinaryEntry> Entries,
                           const EntryPolicy &Policy) {
  // NVIDIA's driver JIT-compiles the newest PTX the device can run. Every
  // target is the same to the CPU, so PTX only for newer devices is still
  // taken, the oldest of it first (the fewest features beyond the device's).
  const FatBinaryEntry *Ptx = nullptr;
  for (const FatBinaryEntry &E : Entries) {
    if (E.PayloadKind != ImageKind::Ptx)
      continue;
    bool Fits = E.Arch <= Policy.DeviceArch;
    bool BestFits = Ptx && Ptx->Arch <= Policy.DeviceArch;
    if (!Ptx || (Fits && (!BestFits || E.Arch > Ptx->Arch)) ||
        (!Fits && !BestFits && E.Arch < Ptx->Arch))
      Ptx = &E;
  }
  const FatBinaryEntry *Image = bestImage(Entries);
  if (Ptx && (Policy.PreferPtx || !Image))
    return Ptx;
  if (Image)
    return Image;
  return nothingToLoad(Entries, /*PtxUsable=*/true);
}

Expected<std::vector<uint8_t>>
cucpu::loader::entryPayload(const FatBinaryEntry &E) {
  if (!(E.Flags & FatFlagCompressed))
    return std::vector<uint8_t>(E.Payload.begin(), E.Payload.end());
  auto Expanded = (E.Flags & FatFlagCompressedLz4)
                      ? decompressLz4Block(E.Payload, E.UncompressedSize)
                      : decompressZstdFrame(E.Payload, E.UncompressedSize);
  if (!Expanded)
    return addContext(
        Expanded.takeError(),
        llvm::formatv("Fat-binary entry at offset {0}: ", E.Offset).str());
  return Expanded;
}

//===- FatCompression.cpp - Compressed fat-binary entries -----------------===//
#include "cucpu/loader/FatCompression.h"

#include "cucpu/loader/LoaderError.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compression.h"

#include <algorithm>

using namespace cucpu::loader;

namespace {
/// Reads an LZ4 length extension: bytes added to \p Length until one is
/// not 255. False if the input ends first.
bool readLength(const uint8_t *&At, const uint8_t *End, uint64_t &Length) {
  uint8_t Byte;
  do {
    if (At == End)
      return false;
    Byte = *At++;
    Length += Byte;
  } while (Byte == 255);
  return true;
}

/// Checks the size an entry of \p InBytes claims to expand to: at most
/// MaxDecompressedEntry, and at most \p MaxRatio times its compressed size
/// (plus a little), so that a few crafted bytes cannot make the driver
/// allocate much.
llvm::Error checkExpected(uint64_t ExpectedSize, uint64_t InBytes,
                          uint64_t MaxRatio) {
  uint64_t Limit =
      std::min<uint64_t>(MaxDecompressedEntry, InBytes * MaxRatio + 4096);
  if (ExpectedSize == 0 || ExpectedSize > Limit)
    return invalidImage("A compressed fat-binary entry of {0} bytes claims to "
                        "expand to {1} bytes (1 to {2}).",
                        InBytes, ExpectedSize, Limit);
  return llvm::Error::success();
}

/// The most an LZ4 block can expand: a 1-byte token and a 255-byte length
/// run make at most 255 bytes per input byte.
constexpr uint64_t Lz4MaxRatio = 256;
/// Far beyond what PTX or code compresses to with Zstandard (nvcc's PTX:
/// 2 to 10 times), short of the format's own limit.
constexpr uint64_t ZstdMaxRatio = 4096;
} // namespace

llvm::Expected<std::vector<uint8_t>>
cucpu::loader::decompressLz4Block(llvm::ArrayRef<uint8_t> In,
                                  uint64_t ExpectedSize) {
  if (llvm::Error E = checkExpected(ExpectedSize, In.size(), Lz4MaxRatio))
    return E;
  std::vector<uint8_t> Out;
  Out.reserve(ExpectedSize);
  const uint8_t *At = In.data();
  const uint8_t *End = At + In.size();
  auto Bad = [&](const char *What) {
    return invalidImage("The LZ4-compressed fat-binary entry is malformed at "
                        "byte {0} of {1}: {2}.",
                        At - In.data(), In.size(), What);
  };
  while (At != End) {
    uint8_t Token = *At++;
    uint64_t Literals = Token >> 4;
    if (Literals == 15 && !readLength(At, End, Literals))
      return Bad("the literal length runs past the end");
    if (Literals > uint64_t(End - At))
      return Bad("the literals run past the end");
    if (Literals > ExpectedSize - Out.size())
      return Bad("the literals expand past the entry's stated size");
    Out.insert(Out.end(), At, At + Literals);
    At += Literals;
    if (At == End)
      break; // The last sequence has literals only.
    if (End - At < 2)
      return Bad("the match offset is cut off");
    uint64_t Offset = At[0] | (uint64_t(At[1]) << 8);
    At += 2;
    if (Offset == 0 || Offset > Out.size())
      return Bad("a match refers to bytes before the start of the output");
    uint64_t Match = (Token & 15) + 4;
    if ((Token & 15) == 15 && !readLength(At, End, Match))
      return Bad("the match length runs past the end");
    if (Match > ExpectedSize - Out.size())
      return Bad("a match expands past the entry's stated size");
    // Byte by byte: a match may overlap the bytes it produces.
    size_t From = Out.size() - Offset;
    for (uint64_t I = 0; I < Match; ++I)
      Out.push_back(Out[From + I]);
  }
  if (Out.size() != ExpectedSize)
    return invalidImage("The LZ4-compressed fat-binary entry expands to {0} "
                        "bytes, not the {1} its header states.",
                        Out.size(), ExpectedSize);
  return Out;
}

llvm::Expected<std::vector<uint8_t>>
cucpu::loader::decompressZstdFrame(llvm::ArrayRef<uint8_t> In,
                                   uint64_t ExpectedSize) {
  if (llvm::Error E = checkExpected(ExpectedSize, In.size(), ZstdMaxRatio))
    return E;
  if (!llvm::compression::zstd::isAvailable())
    return llvm::make_error<ImageError>(
        ImageErrorKind::NoBinaryForGpu,
        "The fat-binary entry is compressed with Zstandard (flag 0x8000), "
        "which this build of cucpu cannot expand (its LLVM has no zstd); "
        "build the fat binary without compression (nvcc --compress-mode=none) "
        "or with --compress-mode=speed (LZ4).");
  // One byte of room beyond the stated size tells a longer frame apart.
  std::vector<uint8_t> Out(ExpectedSize + 1);
  size_t Size = Out.size();
  if (llvm::Error E = llvm::compression::zstd::decompress(In, Out.data(), Size))
    return invalidImage("The Zstandard-compressed fat-binary entry cannot be "
                        "expanded: {0}.",
                        llvm::toString(std::move(E)));
  if (Size != ExpectedSize)
    return invalidImage("The Zstandard-compressed fat-binary entry expands to "
                        "{0} bytes, not the {1} its header states.",
                        Size, ExpectedSize);
  Out.resize(Size);
  return Out;
}

std::vector<uint8_t>
cucpu::loader::lz4LiteralBlock(llvm::ArrayRef<uint8_t> Data) {
  std::vector<uint8_t> Out;
  size_t N = Data.size();
  Out.push_back(uint8_t(std::min<size_t>(N, 15) << 4));
  if (N >= 15) {
    size_t Rest = N - 15;
    for (; Rest >= 255; Rest -= 255)
      Out.push_back(255);
    Out.push_back(uint8_t(Rest));
  }
  Out.insert(Out.end(), Data.begin(), Data.end());
  return Out;
}

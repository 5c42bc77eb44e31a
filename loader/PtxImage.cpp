//===- PtxImage.cpp - A module image carried inside PTX text --------------===//
#include "cucpu/loader/PtxImage.h"

#include "cucpu/loader/LoaderError.h"

#include "llvm/Support/Base64.h"

using namespace cucpu;
using namespace cucpu::loader;

namespace {
constexpr llvm::StringLiteral Begin = "//cucpu-image-begin\n";
constexpr llvm::StringLiteral End = "//cucpu-image-end\n";
constexpr size_t LineChars = 76;
} // namespace

std::string loader::ptxImageBlock(llvm::ArrayRef<uint8_t> Image) {
  std::string Encoded = llvm::encodeBase64(Image);
  std::string Block = "\n// The module image cucc compiled from the same "
                      "source, for cucpu's driver.\n";
  Block += Begin;
  for (size_t At = 0; At < Encoded.size(); At += LineChars)
    Block += "//" + Encoded.substr(At, LineChars) + "\n";
  Block += End;
  return Block;
}

bool loader::hasPtxImage(llvm::StringRef Ptx) { return Ptx.contains(Begin); }

llvm::Expected<std::optional<std::vector<uint8_t>>>
loader::imageInPtx(llvm::StringRef Ptx) {
  size_t First = Ptx.find(Begin);
  if (First == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Ptx.substr(First + Begin.size());
  size_t Last = Rest.find(End);
  if (Last == llvm::StringRef::npos)
    return invalidImage("The PTX's cucpu image block has no end line "
                        "(\"//cucpu-image-end\").");
  std::string Encoded;
  llvm::SmallVector<llvm::StringRef> Lines;
  Rest.substr(0, Last).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    if (!Line.consume_front("//"))
      return invalidImage("A line of the PTX's cucpu image block is not a "
                          "comment: \"{0}\".",
                          Line.take_front(40));
    Encoded += Line.str();
  }
  std::vector<char> Decoded;
  if (llvm::Error E = llvm::decodeBase64(Encoded, Decoded))
    return invalidImage("The PTX's cucpu image block is not base64: {0}",
                        llvm::toString(std::move(E)));
  return std::vector<uint8_t>(Decoded.begin(), Decoded.end());
}

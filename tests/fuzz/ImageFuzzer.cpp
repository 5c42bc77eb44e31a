//===- ImageFuzzer.cpp - libFuzzer harness for the module-image readers ---===//
//
// Feeds arbitrary bytes to every entry point that parses untrusted images:
// classifyImage (with and without a size), readImage, readFatBinary and
// selectImage. Any crash, hang, leak or sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"
#include "ImageKind.h"
#include "ModuleImage.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::ArrayRef<uint8_t> Bytes(Data, Size);
  std::string Why;
  if (Size)
    (void)cucpu::loader::classifyImage(Data, Size, Why);
  if (auto Image = cucpu::loader::readImage(Bytes); !Image)
    llvm::consumeError(Image.takeError());
  if (auto Entries = cucpu::loader::readFatBinary(Bytes)) {
    if (auto Chosen = cucpu::loader::selectImage(*Entries)) {
      if (auto Image = cucpu::loader::readImage(*Chosen); !Image)
        llvm::consumeError(Image.takeError());
    } else {
      llvm::consumeError(Chosen.takeError());
    }
  } else {
    llvm::consumeError(Entries.takeError());
  }
  return 0;
}

//===- FatBinaryFuzzer.cpp - libFuzzer harness for the fat-binary reader --===//
//
// Feeds arbitrary bytes to readFatBinary and, when it finds entries, to
// selectImage and the image reader behind it. Any crash, hang, leak or
// sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ModuleImage.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto Entries =
      cucpu::loader::readFatBinary(llvm::ArrayRef<uint8_t>(Data, Size));
  if (!Entries) {
    llvm::consumeError(Entries.takeError());
    return 0;
  }
  auto Chosen = cucpu::loader::selectImage(*Entries);
  if (!Chosen) {
    llvm::consumeError(Chosen.takeError());
    return 0;
  }
  if (auto Image = cucpu::loader::readImage(*Chosen); !Image)
    llvm::consumeError(Image.takeError());
  return 0;
}

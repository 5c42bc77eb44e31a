//===- ImageFuzzer.cpp - libFuzzer harness for the module-image reader ----===//
//
// Feeds arbitrary bytes to the reader of cucpu's ELF module images:
// classifyImage (with and without a size) and readImage. Any crash, hang,
// leak or sanitizer report is a bug.
//
//===----------------------------------------------------------------------===//
#include "cucpu/loader/ImageKind.h"
#include "cucpu/loader/ModuleImage.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Why;
  if (Size)
    (void)cucpu::loader::classifyImage(Data, Size, Why);
  if (auto Image =
          cucpu::loader::readImage(llvm::ArrayRef<uint8_t>(Data, Size));
      !Image)
    llvm::consumeError(Image.takeError());
  return 0;
}

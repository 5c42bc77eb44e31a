//===- PtxFuzzer.cpp - libFuzzer harness for the PTX front end ------------===//
//
// Feeds arbitrary bytes as PTX text to the parser and translator (the code
// every cuModuleLoadData of PTX runs before the JIT). Any crash, hang, leak
// or sanitizer report is a bug; an error is the expected answer to most
// inputs.
//
//===----------------------------------------------------------------------===//
#include "Translator.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::LLVMContext Context;
  auto M = cucpu::ptx::compile(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), Context);
  if (!M)
    llvm::consumeError(M.takeError());
  return 0;
}

//===- PtxParserFuzzer.cpp - libFuzzer harness for the PTX parser ---------===//
//
// Feeds arbitrary bytes as PTX text to the lexer and parser alone: the
// first code every cuModuleLoadData of PTX runs, at thousands of inputs a
// second (ptx_fuzzer also translates each module, about a hundred times
// slower). Any crash, hang, leak or sanitizer report is a bug; an error is
// the expected answer to most inputs.
//
//===----------------------------------------------------------------------===//
#include "Parser.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto M = cucpu::ptx::parse(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size));
  if (!M)
    llvm::consumeError(M.takeError());
  return 0;
}

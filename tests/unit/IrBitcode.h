//===- IrBitcode.h - LLVM IR text to bitcode, for tests ---------*- C++ -*-===//
#ifndef CUCPU_TESTS_UNIT_IRBITCODE_H
#define CUCPU_TESTS_UNIT_IRBITCODE_H

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cucpu::testing {

/// The bitcode of the LLVM IR text \p Ir; fails the test (and returns
/// nothing) if it does not parse.
inline std::vector<uint8_t> bitcodeOf(const std::string &Ir) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(Ir, Diag, Ctx);
  if (!M) {
    std::string Msg;
    llvm::raw_string_ostream OS(Msg);
    Diag.print("test", OS);
    ADD_FAILURE() << Msg;
    return {};
  }
  std::string Bytes;
  llvm::raw_string_ostream OS(Bytes);
  llvm::WriteBitcodeToFile(*M, OS);
  OS.flush();
  return std::vector<uint8_t>(Bytes.begin(), Bytes.end());
}

} // namespace cucpu::testing

#endif // CUCPU_TESTS_UNIT_IRBITCODE_H

//===- cucpu-ptx.cpp - Translate a PTX file to NVVM-style IR --------------===//
//
// cucpu-ptx FILE.ptx [-o OUT.ll]: the IR the driver's PTX JIT would hand to
// its lowering passes, or the error it would log (exit status 1).
//
//===----------------------------------------------------------------------===//

#include "Translator.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

int main(int Argc, char **Argv) {
  std::string Input, Output = "-";
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "-o" && I + 1 < Argc)
      Output = Argv[++I];
    else if (Input.empty())
      Input = Arg;
    else {
      llvm::errs() << "usage: cucpu-ptx FILE.ptx [-o OUT.ll]\n";
      return 2;
    }
  }
  if (Input.empty()) {
    llvm::errs() << "usage: cucpu-ptx FILE.ptx [-o OUT.ll]\n";
    return 2;
  }
  auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buffer) {
    llvm::errs() << "cucpu-ptx: " << Input << ": "
                 << Buffer.getError().message() << "\n";
    return 1;
  }
  llvm::LLVMContext Context;
  auto M = cucpu::ptx::compile((*Buffer)->getBuffer(), Context);
  if (!M) {
    llvm::errs() << Input << ": " << llvm::toString(M.takeError()) << "\n";
    return 1;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "cucpu-ptx: " << Output << ": " << EC.message() << "\n";
    return 1;
  }
  (*M)->print(OS, nullptr);
  return 0;
}

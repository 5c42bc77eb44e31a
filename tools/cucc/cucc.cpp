//===- cucc.cpp - The cucpu kernel compiler -------------------------------===//
//
// `cucc -cubin -o k.cubin k.cu`: compiles the device code of a CUDA C++ file
// into a cucpu module image. See docs/cucc.md.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "ImageBuilder.h"
#include "Options.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::cucc;

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  Expected<Options> Opts = parseCommandLine(Args);
  if (!Opts) {
    errs() << "cucc: error: " << toString(Opts.takeError()) << "\n";
    return 2;
  }
  if (Opts->Help) {
    outs() << helpText();
    return 0;
  }
  if (Opts->Version) {
    outs() << producerString() << "\n";
    return 0;
  }
  Expected<Toolchain> Tools = findToolchain(Argv[0]);
  if (!Tools) {
    errs() << "cucc: error: " << toString(Tools.takeError()) << "\n";
    return 1;
  }
  return compile(*Opts, *Tools, errs());
}

//===- cucc.cpp - The cucpu kernel compiler -------------------------------===//
//
// `cucc -o app app.cu main.cpp`: compiles and links a CUDA program, as nvcc
// does; `cucc -cubin -o k.cubin k.cu`: the device code alone, as a cucpu
// module image. See docs/cucc.md.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "Options.h"
#include "cucpu/modules/image/ImageBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace cucpu::cucc;
using namespace cucpu::image;

/// `--version` in nvcc's shape (tools such as CMake read the "release X.Y,
/// VX.Y.Z" line), saying that it is cucc. The CUDA version is the one the
/// device headers define (__CUDACC_VER_MAJOR__/MINOR__/BUILD__). CMake takes
/// a compiler for nvcc (and then finds its toolkit) only when the output
/// contains "nvcc: NVIDIA (R) Cuda compiler driver": the second line says
/// what cucc stands in for, and that it is not NVIDIA's.
static void printVersion(StringRef Program) {
  outs() << Program << ": cucc, the cucpu CUDA compiler (CUDA on the CPU)\n"
         << "Not NVIDIA's; a stand-in for "
            "nvcc: NVIDIA (R) Cuda compiler driver\n"
         << producerString() << "\n"
         << "Cuda compilation tools, release 13.0, V13.0.0\n"
         << "Build cucc " << CUCC_VERSION << "\n";
}

/// Whether the command line \p Args asks for -v or --dryrun, for a command
/// line that does not parse: an option of its own, not the value of
/// -Xcompiler and the like.
static bool showsStages(ArrayRef<std::string> Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (Arg == "-v" || Arg == "--verbose" || Arg == "-dryrun" ||
        Arg == "--dryrun")
      return true;
    if (is_contained({"-Xcompiler", "--compiler-options", "-Xlinker",
                      "--linker-options", "-Xptxas", "--ptxas-options",
                      "-Xnvlink", "--nvlink-options", "-Xarchive",
                      "--archive-options"},
                     Arg))
      ++I;
  }
  return false;
}

int main(int Argc, char **Argv) {
  InitLLVM X(Argc, Argv);
  // nvcc's messages start with the name it was invoked as: installed as
  // bin/nvcc, cucc answers as nvcc.
  std::string Program = sys::path::filename(Argv[0]).str();
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  Expected<Options> Opts = parseCommandLine(Args);
  if (!Opts) {
    // nvcc -v shows its variables before it reads the inputs, so that
    // `nvcc -v __cmake_determine_cuda` (CMake's question for the toolkit
    // root) gets them before the error.
    if (showsStages(Args)) {
      if (Expected<Toolchain> Tools = findToolchain(Argv[0])) {
        for (const std::string &Line : toolkitVariables(*Tools))
          errs() << "#$ " << Line << "\n";
      } else {
        consumeError(Tools.takeError());
      }
    }
    errs() << Program << " fatal   : " << toString(Opts.takeError()) << "\n";
    return 2;
  }
  if (Opts->Help) {
    outs() << helpText();
    return 0;
  }
  if (Opts->Version) {
    printVersion(Program);
    return 0;
  }
  if (Opts->ListArchs) {
    for (const std::string &Arch : listedArchs(Opts->ListArchs == 1))
      outs() << Arch << "\n";
    return 0;
  }
  Expected<Toolchain> Tools = findToolchain(Argv[0]);
  if (!Tools) {
    errs() << Program << " fatal   : " << toString(Tools.takeError()) << "\n";
    return 1;
  }
  return compile(*Opts, *Tools, errs());
}

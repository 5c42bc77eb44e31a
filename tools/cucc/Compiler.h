//===- Compiler.h - cucc's stages ---------------------------------*- C++ -*-===//
//
// Runs a parsed command line: clang's CUDA device compilation of the source
// for NVPTX64 (the clang-19 binary, with the device prelude force-included),
// then cucc's own LLVM stage, which describes the IR as a module image
// (ImageBuilder.h) and writes the image, fat binary or IR.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_COMPILER_H
#define CUCPU_TOOLS_CUCC_COMPILER_H

#include "Options.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// Where cucc finds its tools and headers.
struct Toolchain {
  std::string Clang;            ///< The clang-19 executable.
  std::string DeviceIncludeDir; ///< include/cucpu/device (holds prelude.h).
  /// The prefix's include/ (holds cuda.h), nvcc's "toolkit include folder":
  /// searched after the device headers' sdk/, so a kernel that includes a
  /// toolkit header by name gets its device version where there is one.
  std::string ToolkitIncludeDir;
};

/// Finds clang and the device headers for the cucc executable \p Argv0: the
/// headers relative to the executable when installed
/// (bin/../include/cucpu/device), else in the source tree cucc was built from.
llvm::Expected<Toolchain> findToolchain(const char *Argv0);

/// The clang command line that compiles \p Opts.Input for \p Arch into
/// bitcode at \p BitcodePath.
std::vector<std::string> clangCommand(const Options &Opts,
                                      const Toolchain &Tools,
                                      llvm::StringRef Arch,
                                      llvm::StringRef BitcodePath);

/// Runs every stage; -v and --dryrun lines go to \p Log. Returns the exit code
/// (0 on success); clang's diagnostics reach stderr unchanged, cucc's own
/// errors are printed to \p Log as "cucc: error: ...".
int compile(const Options &Opts, const Toolchain &Tools, llvm::raw_ostream &Log);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_COMPILER_H

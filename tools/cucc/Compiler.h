//===- Compiler.h - cucc's stages -------------------------------*- C++ -*-===//
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

class Stages;

/// Where cucc finds its tools and headers.
struct Toolchain {
  std::string Clang;            ///< The clang-19 executable.
  std::string DeviceIncludeDir; ///< include/cucpu/device (holds prelude.h).
  /// The prefix's include/ (holds cuda.h), nvcc's "toolkit include folder":
  /// searched after the device headers' sdk/, so a kernel that includes a
  /// toolkit header by name gets its device version where there is one.
  std::string ToolkitIncludeDir;
  /// ToolkitIncludeDir's cuda_runtime.h, which every CUDA compilation
  /// includes first, as with nvcc; empty while the runtime headers are absent.
  std::string RuntimeHeader;
  /// Where libcudart and libcuda are: the prefix's lib/ when installed, the
  /// build tree's lib/ otherwise.
  std::string LibDir;
  /// The installed prefix (include/.., which holds bin/, include/ and lib/),
  /// nvcc's "toolkit root"; empty in the build tree.
  std::string Root;
};

/// Finds clang, the headers and the libraries for the cucc executable
/// \p Argv0: relative to the executable when installed
/// (bin/../include/cucpu/device, bin/../lib), else the source tree's headers
/// and the build tree's lib/.
llvm::Expected<Toolchain> findToolchain(const char *Argv0);

/// The variable lines nvcc's -v and --dryrun begin with (its nvcc.profile),
/// as far as CMake's CUDA support reads them: TOP (\p Tools.Root, when
/// installed), INCLUDES (the toolkit include folder) and LIBRARIES (the
/// folder of libcudart and libcuda, spelled as the link line spells it).
/// Without the leading "#$ ". docs/cucc.md, "Variables".
std::vector<std::string> toolkitVariables(const Toolchain &Tools);

/// Appends what the device and the host pass of a CUDA source share: the
/// launch API, the compilation unit id \p Cuid (none if empty), warnings,
/// the header folders, the force-included prelude and cuda_runtime.h, and the
/// user's -I/-D/-U/-include/-isystem.
void addSharedClangArgs(const Options &Opts, const Toolchain &Tools,
                        llvm::StringRef Cuid, std::vector<std::string> &Cmd);

/// The clang command line that compiles \p Opts.Input for \p Arch into
/// bitcode at \p BitcodePath (or what the output kind asks clang for), with
/// compilation unit id \p Cuid when not empty.
std::vector<std::string>
clangCommand(const Options &Opts, const Toolchain &Tools, llvm::StringRef Arch,
             llvm::StringRef BitcodePath, llvm::StringRef Cuid = "");

/// Runs the device stages of \p Opts.Input for a device-only output kind
/// (-cubin, -fatbin, ...), writing \p Opts.outputPath(). Returns clang's
/// exit code (1 for compile errors) or cucc's own error.
llvm::Expected<int> compileDevice(const Options &Opts, const Toolchain &Tools,
                                  llvm::StringRef Cuid, Stages &S);

/// Runs every stage of the output kind (device-only, or host objects and the
/// link: Program.h); -v and --dryrun lines go to \p Log. Returns the exit code
/// (0 on success); clang's diagnostics reach stderr unchanged, cucc's own
/// errors are printed to \p Log as "cucc: error: ...".
int compile(const Options &Opts, const Toolchain &Tools,
            llvm::raw_ostream &Log);

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_COMPILER_H

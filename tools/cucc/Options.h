//===- Options.h - cucc's nvcc-like command line ----------------*- C++ -*-===//
//
// The options cucc accepts, spelled as nvcc spells them, and their parser.
// docs/cucc.md lists them.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TOOLS_CUCC_OPTIONS_H
#define CUCPU_TOOLS_CUCC_OPTIONS_H

#include "Architectures.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace cucpu::cucc {

/// What cucc writes to its output file.
enum class OutputKind {
  Executable,    ///< A linked program (nvcc's default; a.out).
  Object,        ///< One host object per source, with its device code (-c).
  SharedLibrary, ///< A linked shared library (-shared).
  StaticLibrary, ///< An archive of host objects (-lib).
  DeviceLink,    ///< The device-link object of relocatable objects (-dlink).
  Cubin,         ///< One module image (-cubin).
  Fatbin,        ///< A fat binary with one image per architecture (-fatbin).
  LLVMIR,     ///< The device IR itself (--emit-llvm): text, or bitcode for .bc.
  PTX,        ///< PTX text from clang's NVPTX back end (-ptx).
  Preprocess, ///< The preprocessed source (-E).
  Dependencies, ///< Only the make rule of the source's headers (-M, -MM).
};

/// What an input file is, from its extension or -x.
enum class InputKind {
  Cuda,      ///< CUDA C++ (.cu, or -x cu): device and host passes.
  Cxx,       ///< C++ (.cpp, .cc, .cxx, .C, or -x c++): the host compiler.
  C,         ///< C (.c, or -x c): the host compiler.
  LinkInput, ///< An object, archive or shared library: passed to the link.
};

/// One file of the command line.
struct InputFile {
  std::string Path;
  InputKind Kind = InputKind::Cuda;
};

/// Which CUDA runtime library a program links (-cudart).
enum class CudaRuntime {
  Static, ///< libcudart_static.a (nvcc's default) and what it needs.
  Shared, ///< libcudart.so.
  None,   ///< No runtime library.
};

/// True for the output kinds that compile host code (and link): -c, -lib,
/// -shared and the default, as opposed to the device-only stages.
bool compilesHostCode(OutputKind Kind);

/// A parsed command line.
struct Options {
  OutputKind Kind = OutputKind::Executable;
  /// Every input file, in command-line order.
  std::vector<InputFile> Inputs;
  /// The CUDA source the device stages compile: the only input of a
  /// device-only kind; set for each .cu file by the whole-program driver.
  std::string Input;
  std::string Output;    ///< -o; empty: derived from Input.
  std::string OutputDir; ///< -odir: where a derived output file goes.
  /// -MD, -MMD, -MF f, -MT t, -MP (and -M/-MM), as clang flags.
  std::vector<std::string> DependencyArgs;
  bool WarningsAreErrors = false; ///< -Werror all-warnings.
  /// -rdc=true (or -dc): relocatable device code, a relocatable image whose
  /// extern __device__ functions and variables another image defines.
  bool Relocatable = false;
  bool DeviceCompile = false; ///< -dc: the default output is <stem>.o.
  /// -ptx: append the module image to clang's PTX in comments (cleared by
  /// --no-ptx-image, which leaves the PTX for cucpu's PTX JIT alone).
  bool PtxImage = true;
  int ListArchs = 0; ///< 1: --list-gpu-arch, 2: --list-gpu-code.
  /// -Xcompiler values (split at commas) and, with
  /// -forward-unknown-to-host-compiler, the options cucc does not know.
  std::vector<std::string> HostCompilerArgs;
  std::vector<std::string> LinkerArgs; ///< -Xlinker values, split at commas.
  /// -L and -l, in command-line order, as "-Ldir" and "-lname".
  std::vector<std::string> LibraryArgs;
  std::string HostCompiler; ///< -ccbin: a compiler or its folder; empty: g++.
  CudaRuntime Runtime = CudaRuntime::Static; ///< -cudart.
  bool PerThreadDefaultStream = false;       ///< -default-stream per-thread.
  int HostOptLevel = -1; ///< -O<n> for host code; -1: not given (none).
  /// -I, -D and -U, in command-line order, as clang flags ("-Idir", "-DX").
  std::vector<std::string> PreprocessorArgs;
  /// sm_XX for each requested architecture, without duplicates.
  std::vector<std::string> Archs;
  unsigned OptLevel = 3;    ///< -O0..-O3 (nvcc optimizes device code at -O3).
  bool Debug = false;       ///< -g: debug information.
  bool DeviceDebug = false; ///< -G: debug information, no optimization.
  bool LineInfo = false;    ///< -lineinfo: line tables only.
  bool FastMath = false;    ///< -use_fast_math.
  int Fmad = -1;            ///< -fmad=true|false; -1: not given.
  int Ftz = -1;             ///< -ftz=true|false; -1: not given.
  bool NoWarnings = false;  ///< -w.
  std::string Std;          ///< -std=...; empty: c++17, nvcc's default.
  bool Verbose = false;     ///< -v: show each stage as it runs.
  bool DryRun = false;      ///< --dryrun: show the stages, run none.
  bool Keep = false;        ///< -keep: keep the intermediate IR.
  std::string KeepDir;      ///< --keep-dir; empty: the current directory.
  bool Help = false;        ///< -h / --help.
  bool Version = false;     ///< --version.

  /// The output file: -o, else the input's stem with the kind's extension,
  /// a.out for a program or shared library, a.a for -lib.
  std::string outputPath() const;
};

/// Parses \p Args (without the program name), after expanding options files
/// (`@file`, `--options-file`). A malformed or unknown option is an error in
/// nvcc's words, naming it.
llvm::Expected<Options> parseCommandLine(llvm::ArrayRef<std::string> Args);

/// The text of `cucc --help`.
llvm::StringRef helpText();

} // namespace cucpu::cucc

#endif // CUCPU_TOOLS_CUCC_OPTIONS_H

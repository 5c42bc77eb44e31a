//===- HostCompile.cpp - The host side of cucc's whole-program build ------===//

#include "HostCompile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace cucpu::cucc {

std::string compilationUnitId(const Options &Opts, StringRef Source) {
  SmallString<256> Path(Source);
  sys::fs::make_absolute(Path);
  std::string Key(Path);
  for (const std::string &Arg : Opts.PreprocessorArgs)
    Key += "\n" + Arg;
  for (const std::string &Arch : Opts.Archs)
    Key += "\n" + Arch;
  Key += "\n" + Opts.Std;
  return utohexstr(xxh3_64bits(Key), /*LowerCase=*/true);
}

/// What every host compile shares, whichever compiler runs it.
static void addHostFlags(const Options &Opts, bool IsC,
                         std::vector<std::string> &Cmd) {
  if (!IsC)
    Cmd.push_back("-std=" +
                  (Opts.Std.empty() ? std::string("c++17") : Opts.Std));
  // nvcc passes the host compiler only the -O it was given.
  if (Opts.HostOptLevel >= 0)
    Cmd.push_back("-O" + std::to_string(Opts.HostOptLevel));
  if (Opts.Debug)
    Cmd.push_back("-g");
  // A shared library's objects must be position-independent; nvcc leaves
  // that to -Xcompiler -fPIC, which every build of one passes.
  if (Opts.Kind == OutputKind::SharedLibrary)
    Cmd.push_back("-fPIC");
  // nvcc -default-stream per-thread: the runtime headers map the stream
  // functions to their _ptsz forms.
  if (Opts.PerThreadDefaultStream)
    Cmd.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
}

std::vector<std::string> hostPassCommand(const Options &Opts,
                                         const Toolchain &Tools,
                                         StringRef Source, StringRef Fatbin,
                                         StringRef Cuid, StringRef Bitcode) {
  std::vector<std::string> Cmd = {Tools.Clang,
                                  "-x",
                                  "cuda",
                                  "--cuda-host-only",
                                  "-nocudainc",
                                  "-nocudalib",
                                  "-Wno-unknown-cuda-version",
                                  "-Wno-invalid-constexpr"};
  addHostFlags(Opts, /*IsC=*/false, Cmd);
  // The host side sees the architectures of the compilation, as with nvcc,
  // but no __CUDA_ARCH__.
  for (std::string &Flag : archMacros(Opts.Archs.front(), Opts.Archs))
    if (StringRef(Flag).starts_with("-D__CUDA_ARCH_LIST__="))
      Cmd.push_back(std::move(Flag));
  addSharedClangArgs(Opts, Tools, Cuid, Cmd);
  // Relocatable device code: the unit registers through the device link's
  // __cudaRegisterLinkedBinary_<id> (DeviceLink.h).
  if (Opts.Relocatable)
    Cmd.push_back("-fgpu-rdc");
  append_range(Cmd, ArrayRef<std::string>{"-Xclang", "-fcuda-include-gpubinary",
                                          "-Xclang", Fatbin.str()});
  append_range(Cmd, Opts.HostCompilerArgs);
  append_range(Cmd, ArrayRef<std::string>{"-emit-llvm", "-c", "-o",
                                          Bitcode.str(), Source.str()});
  return Cmd;
}

std::vector<std::string> hostCodegenCommand(const Options &Opts,
                                            const Toolchain &Tools,
                                            StringRef Bitcode,
                                            StringRef Object) {
  std::vector<std::string> Cmd = {Tools.Clang, "-x", "ir"};
  if (Opts.HostOptLevel >= 0)
    Cmd.push_back("-O" + std::to_string(Opts.HostOptLevel));
  if (Opts.Kind == OutputKind::SharedLibrary)
    Cmd.push_back("-fPIC");
  // Code-generation flags among them (-fPIC, -mno-red-zone, ...) apply
  // again; the others have done their work in the host pass.
  append_range(Cmd, Opts.HostCompilerArgs);
  append_range(Cmd,
               ArrayRef<std::string>{"-Wno-unused-command-line-argument", "-c",
                                     "-o", Object.str(), Bitcode.str()});
  return Cmd;
}

std::vector<std::string>
hostCompilerCommand(const Options &Opts, const Toolchain &Tools,
                    StringRef Compiler, const InputFile &In, StringRef Object) {
  bool IsC = In.Kind == InputKind::C;
  // The language is explicit: g++ would compile a .c file as C++, and -x
  // may have named another one.
  std::vector<std::string> Cmd = {Compiler.str(), "-x", IsC ? "c" : "c++"};
  addHostFlags(Opts, IsC, Cmd);
  Cmd.push_back("-D__NVCC__");
  append_range(Cmd, Opts.PreprocessorArgs);
  // After the user's folders, as nvcc's include folder: cuda_runtime.h,
  // cuda.h and the other toolkit headers.
  if (!Tools.ToolkitIncludeDir.empty())
    Cmd.push_back("-I" + Tools.ToolkitIncludeDir);
  append_range(Cmd, Opts.HostCompilerArgs);
  append_range(Cmd, ArrayRef<std::string>{"-c", "-o", Object.str(), In.Path});
  return Cmd;
}

static Error hostError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<std::string> findHostCompiler(const Options &Opts,
                                       const Toolchain &Tools) {
  if (!Opts.HostCompiler.empty()) {
    // nvcc's -ccbin names the compiler or the folder it is in.
    SmallString<256> Path(Opts.HostCompiler);
    if (sys::fs::is_directory(Path))
      sys::path::append(Path, "g++");
    if (sys::path::has_parent_path(Path)) {
      if (sys::fs::can_execute(Path))
        return std::string(Path);
    } else if (ErrorOr<std::string> Found = sys::findProgramByName(Path)) {
      return *Found;
    }
    return hostError(formatv("the host compiler '{0}' (-ccbin) cannot be "
                             "found or run.",
                             Path));
  }
  if (ErrorOr<std::string> Gxx = sys::findProgramByName("g++"))
    return *Gxx;
  // clang++ of the clang cucc runs, then any on PATH.
  StringRef Dir = sys::path::parent_path(Tools.Clang);
  SmallString<256> Beside(Dir);
  sys::path::append(Beside, "clang++");
  if (!Dir.empty() && sys::fs::can_execute(Beside))
    return std::string(Beside);
  for (StringRef Name : {"clang++-19", "clang++"})
    if (ErrorOr<std::string> Found = sys::findProgramByName(Name))
      return *Found;
  return hostError("no host compiler found: g++ and clang++ are not on "
                   "PATH; name one with -ccbin.");
}

} // namespace cucpu::cucc

namespace cucpu::cucc {

std::vector<std::string> deviceLinkCommand(const Toolchain &Tools,
                                           StringRef Source, StringRef Object) {
  return {Tools.Clang, "-x", "c",          "-fPIC",     "-O2",
          "-c",        "-o", Object.str(), Source.str()};
}

} // namespace cucpu::cucc

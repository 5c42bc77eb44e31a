//===- Link.cpp - The link stage of cucc's whole-program build ------------===//

#include "Link.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace cucpu::cucc {

std::vector<std::string> linkCommand(const Options &Opts,
                                     const Toolchain &Tools, StringRef Compiler,
                                     ArrayRef<std::string> Objects,
                                     StringRef Output) {
  std::vector<std::string> Cmd = {Compiler.str()};
  if (Opts.Kind == OutputKind::SharedLibrary)
    Cmd.push_back("-shared");
  if (Opts.Debug)
    Cmd.push_back("-g");
  // -Xcompiler options reach the link too, as with nvcc (-fopenmp,
  // -pthread and sanitizers need them there).
  append_range(Cmd, Opts.HostCompilerArgs);
  append_range(Cmd, ArrayRef<std::string>{"-o", Output.str()});
  append_range(Cmd, Objects);
  // cucpu's folder first, so that -lcuda is cucpu's libcuda, not a driver
  // installed on the machine.
  if (!Tools.LibDir.empty())
    Cmd.push_back("-L" + Tools.LibDir);
  append_range(Cmd, Opts.LibraryArgs);
  for (const std::string &Arg : Opts.LinkerArgs)
    append_range(Cmd, ArrayRef<std::string>{"-Xlinker", Arg});
  switch (Opts.Runtime) {
  case CudaRuntime::Static:
    // What nvcc links for -cudart static; cucpu's static runtime is a
    // client of libcuda.so.1, so that comes too.
    append_range(Cmd, ArrayRef<std::string>{"-lcudart_static", "-lcuda", "-ldl",
                                            "-lpthread", "-lrt"});
    break;
  case CudaRuntime::Shared:
    Cmd.push_back("-lcudart");
    break;
  case CudaRuntime::None:
    break;
  }
  // The program finds libcudart.so and libcuda.so.1 where cucc linked them,
  // the prefix's lib/ or the build tree's, without LD_LIBRARY_PATH.
  if (!Tools.LibDir.empty())
    Cmd.push_back("-Wl,-rpath," + Tools.LibDir);
  return Cmd;
}

std::vector<std::string> archiveCommand(StringRef Archiver,
                                        ArrayRef<std::string> Objects,
                                        StringRef Output) {
  std::vector<std::string> Cmd = {Archiver.str(), "rcs", Output.str()};
  append_range(Cmd, Objects);
  return Cmd;
}

Expected<std::string> findArchiver(const Toolchain &Tools) {
  if (ErrorOr<std::string> Ar = sys::findProgramByName("ar"))
    return *Ar;
  SmallString<256> Beside(sys::path::parent_path(Tools.Clang));
  sys::path::append(Beside, "llvm-ar");
  if (sys::fs::can_execute(Beside))
    return std::string(Beside);
  return createStringError(inconvertibleErrorCode(),
                           "no archiver found for -lib: 'ar' is not on PATH.");
}

} // namespace cucpu::cucc

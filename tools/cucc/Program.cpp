//===- Program.cpp - cucc's whole-program build ---------------------------===//

#include "Program.h"
#include "DeviceLink.h"
#include "HostCompile.h"
#include "Link.h"
#include "ManagedVariables.h"
#include "Stages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cucpu::cucc {

/// Where an intermediate file of \p Source goes: with -keep, <stem>.<Ext> in
/// the keep folder; otherwise a temporary file.
static Expected<std::string> intermediateFile(const Options &Opts,
                                              StringRef Source, StringRef Ext,
                                              Stages &S) {
  StringRef Stem = sys::path::stem(Source);
  if (!Opts.Keep)
    return S.temporaryFile(Stem, Ext);
  SmallString<256> Path(Opts.KeepDir);
  sys::path::append(Path, Stem + "." + Ext);
  return std::string(Path);
}

/// Rewrites the host pass's IR in the file \p Path when it has managed
/// variables (ManagedVariables.h).
static Error redirectManagedVariablesIn(StringRef Path) {
  LLVMContext Context;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseIRFile(Path, Diag, Context);
  if (!M)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read the host pass's IR " + Path.str() +
                                 ": " + Diag.getMessage().str());
  Expected<unsigned> Count = redirectManagedVariables(*M);
  if (!Count)
    return Count.takeError();
  if (*Count == 0)
    return Error::success();
  std::string Problems;
  raw_string_ostream ProblemStream(Problems);
  if (verifyModule(*M, &ProblemStream))
    return createStringError(inconvertibleErrorCode(),
                             "the host IR is invalid after redirecting its "
                             "managed variables: " +
                                 Problems);
  std::error_code EC;
  raw_fd_ostream Out(Path, EC);
  if (EC)
    return createStringError(EC, "cannot write " + Path.str());
  WriteBitcodeToFile(*M, Out);
  return Error::success();
}

/// Compiles the CUDA source \p Unit.Input into the host object \p Object:
/// the device stages write a fat binary, which the host pass embeds.
static Expected<int> compileCuda(const Options &Unit, const Toolchain &Tools,
                                 StringRef Object, Stages &S) {
  std::string Cuid = compilationUnitId(Unit, Unit.Input);
  Expected<std::string> Fatbin =
      intermediateFile(Unit, Unit.Input, "fatbin", S);
  if (!Fatbin)
    return Fatbin.takeError();
  Options Device = Unit;
  Device.Kind = OutputKind::Fatbin;
  Device.Output = *Fatbin;
  // -MD names the object as the target of the rule, as nvcc's does.
  bool WithCompile = is_contained(Unit.DependencyArgs, "-MD") ||
                     is_contained(Unit.DependencyArgs, "-MMD");
  if (WithCompile && !is_contained(Unit.DependencyArgs, "-MT"))
    append_range(Device.DependencyArgs,
                 ArrayRef<std::string>{"-MT", Object.str()});
  Expected<int> RC = compileDevice(Device, Tools, Cuid, S);
  if (!RC || *RC != 0)
    return RC;
  Expected<std::string> Bitcode =
      intermediateFile(Unit, Unit.Input, "host.bc", S);
  if (!Bitcode)
    return Bitcode.takeError();
  RC = S.run(hostPassCommand(Unit, Tools, Unit.Input, *Fatbin, Cuid, *Bitcode));
  if (!RC || *RC != 0)
    return RC;
  S.show("cucc: redirect host accesses of __managed__ variables in " +
         *Bitcode);
  if (!S.dryRun())
    if (Error E = redirectManagedVariablesIn(*Bitcode))
      return E;
  return S.run(hostCodegenCommand(Unit, Tools, *Bitcode, Object));
}

/// The device link of \p Inputs into \p Object (DeviceLink.h). Unless
/// asked for (-dlink), nothing is written when no input has relocatable
/// device code.
static Expected<int> deviceLink(const Options &Opts, const Toolchain &Tools,
                                ArrayRef<std::string> Inputs, StringRef Object,
                                Stages &S) {
  bool Asked = Opts.Kind == OutputKind::DeviceLink;
  S.show("cucc: device link: define __cudaRegisterLinkedBinary_* of the "
         "relocatable objects" +
         std::string(Asked ? " in " + Object.str() : ""));
  if (S.dryRun())
    return 0;
  Expected<std::vector<std::string>> Registrations =
      linkedBinaryRegistrations(Inputs);
  if (!Registrations)
    return Registrations.takeError();
  if (Registrations->empty() && !Asked)
    return 0;
  Expected<std::string> Source = S.temporaryFile("dlink", "c");
  if (!Source)
    return Source.takeError();
  std::error_code EC;
  raw_fd_ostream Out(*Source, EC);
  if (EC)
    return createStringError(EC, "cannot write " + *Source);
  Out << deviceLinkSource(*Registrations);
  Out.close();
  return S.run(deviceLinkCommand(Tools, *Source, Object));
}

Expected<int> buildProgram(const Options &Opts, const Toolchain &Tools,
                           Stages &S) {
  // The host compiler is needed for C and C++ sources and for the link.
  std::string Compiler;
  bool NeedsCompiler =
      Opts.Kind == OutputKind::Executable ||
      Opts.Kind == OutputKind::SharedLibrary ||
      any_of(Opts.Inputs, [](const InputFile &In) {
        return In.Kind == InputKind::Cxx || In.Kind == InputKind::C;
      });
  if (NeedsCompiler) {
    Expected<std::string> Found = findHostCompiler(Opts, Tools);
    if (!Found)
      return Found.takeError();
    Compiler = *Found;
  }

  std::vector<std::string> LinkInputs;
  for (const InputFile &In : Opts.Inputs) {
    if (In.Kind == InputKind::LinkInput) {
      LinkInputs.push_back(In.Path);
      continue;
    }
    Options Unit = Opts;
    Unit.Input = In.Path;
    std::string Object;
    if (Opts.Kind == OutputKind::Object) {
      Object = Unit.outputPath();
    } else {
      Expected<std::string> Temporary = intermediateFile(Opts, In.Path, "o", S);
      if (!Temporary)
        return Temporary.takeError();
      Object = *Temporary;
    }
    Expected<int> RC =
        In.Kind == InputKind::Cuda
            ? compileCuda(Unit, Tools, Object, S)
            : S.run(hostCompilerCommand(Unit, Tools, Compiler, In, Object));
    if (!RC)
      return RC.takeError();
    if (*RC != 0)
      return 1; // The compiler has printed its diagnostics.
    LinkInputs.push_back(Object);
  }
  if (Opts.Kind == OutputKind::Object)
    return 0;

  std::string Output = Opts.outputPath();
  if (Opts.Kind == OutputKind::DeviceLink)
    return deviceLink(Opts, Tools, LinkInputs, Output, S);
  if (Opts.Kind == OutputKind::Executable ||
      Opts.Kind == OutputKind::SharedLibrary) {
    Expected<std::string> Linked = intermediateFile(Opts, Output, "dlink.o", S);
    if (!Linked)
      return Linked.takeError();
    Expected<int> LinkRC = deviceLink(Opts, Tools, LinkInputs, *Linked, S);
    if (!LinkRC || *LinkRC != 0)
      return LinkRC;
    if (!S.dryRun() && sys::fs::exists(*Linked))
      LinkInputs.push_back(*Linked);
  }
  Expected<int> RC = 0;
  if (Opts.Kind == OutputKind::StaticLibrary) {
    Expected<std::string> Archiver = findArchiver(Tools);
    if (!Archiver)
      return Archiver.takeError();
    RC = S.run(archiveCommand(*Archiver, LinkInputs, Output));
  } else {
    RC = S.run(linkCommand(Opts, Tools, Compiler, LinkInputs, Output));
  }
  if (!RC)
    return RC.takeError();
  return *RC == 0 ? 0 : 1;
}

} // namespace cucpu::cucc

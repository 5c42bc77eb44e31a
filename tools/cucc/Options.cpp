//===- Options.cpp - cucc's nvcc-like command line ------------------------===//

#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace cucpu::cucc {

static Error usageError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

bool compilesHostCode(OutputKind Kind) {
  return Kind == OutputKind::Executable || Kind == OutputKind::Object ||
         Kind == OutputKind::SharedLibrary ||
         Kind == OutputKind::StaticLibrary || Kind == OutputKind::DeviceLink;
}

std::string Options::outputPath() const {
  if (!Output.empty())
    return Output;
  // nvcc's names: gcc's a.out for what the link writes, a.a for -lib.
  if (Kind == OutputKind::Executable || Kind == OutputKind::SharedLibrary)
    return "a.out";
  if (Kind == OutputKind::StaticLibrary)
    return "a.a";
  if (Kind == OutputKind::DeviceLink)
    return "a_dlink.o";
  // -E and -M write to stdout unless -o says otherwise, as nvcc.
  if (Kind == OutputKind::Preprocess || Kind == OutputKind::Dependencies)
    return "-";
  // nvcc -dc writes a host object (<stem>.o) that embeds the device code;
  // cucc writes its relocatable image under the same name.
  StringRef Ext = Kind == OutputKind::Object                   ? ".o"
                  : Kind == OutputKind::Cubin && DeviceCompile ? ".o"
                  : Kind == OutputKind::Cubin                  ? ".cubin"
                  : Kind == OutputKind::Fatbin                 ? ".fatbin"
                  : Kind == OutputKind::PTX                    ? ".ptx"
                                                               : ".ll";
  SmallString<256> Path(OutputDir);
  sys::path::append(Path, sys::path::stem(Input) + Ext);
  return std::string(Path);
}

/// Adds the architectures of a -gencode value ("arch=compute_75,code=sm_75",
/// "arch=compute_75,code=[sm_75,compute_75]") to \p Archs. The real sm_XX
/// codes are what an image is built for; a virtual code alone names its
/// architecture.
static Error addGencode(StringRef Value, std::vector<std::string> &Archs) {
  StringRef ArchPart, CodePart;
  SmallVector<StringRef, 4> Fields;
  // Split at commas outside [...].
  size_t Depth = 0, Start = 0;
  for (size_t I = 0; I <= Value.size(); ++I) {
    if (I < Value.size() && Value[I] == '[')
      ++Depth;
    else if (I < Value.size() && Value[I] == ']' && Depth)
      --Depth;
    else if (I == Value.size() || (Value[I] == ',' && !Depth)) {
      Fields.push_back(Value.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  for (StringRef Field : Fields) {
    if (Field.consume_front("arch="))
      ArchPart = Field;
    else if (Field.consume_front("code="))
      CodePart = Field;
    else
      return usageError(formatv("Malformed -gencode value '{0}': expected "
                                "arch=compute_XX,code=sm_XX.",
                                Value));
  }
  SmallVector<StringRef, 4> Codes;
  CodePart = CodePart.trim("[]\"");
  if (!CodePart.empty())
    CodePart.split(Codes, ',', -1, false);
  if (Codes.empty()) {
    if (ArchPart.empty())
      return usageError(formatv("Malformed -gencode value '{0}'.", Value));
    Codes.push_back(ArchPart);
  }
  for (StringRef Code : Codes) {
    Expected<std::vector<std::string>> Expanded = expandArch(Code.trim());
    if (!Expanded)
      return Expanded.takeError();
    for (std::string &Arch : *Expanded)
      if (!is_contained(Archs, Arch))
        Archs.push_back(std::move(Arch));
  }
  return Error::success();
}

/// Adds each architecture of a comma-separated -arch or -code value.
static Error addArchList(StringRef Value, std::vector<std::string> &Archs) {
  SmallVector<StringRef, 4> Names;
  Value.split(Names, ',', -1, false);
  for (StringRef Name : Names) {
    Expected<std::vector<std::string>> Expanded = expandArch(Name.trim());
    if (!Expanded)
      return Expanded.takeError();
    for (std::string &Arch : *Expanded)
      if (!is_contained(Archs, Arch))
        Archs.push_back(std::move(Arch));
  }
  return Error::success();
}

/// Appends the comma-separated items of \p Value to \p Out (-Xcompiler a,b).
static void appendList(StringRef Value, std::vector<std::string> &Out) {
  SmallVector<StringRef, 4> Items;
  Value.split(Items, ',', -1, false);
  for (StringRef Item : Items)
    Out.push_back(Item.str());
}

/// What a file is from its name, as nvcc decides it: sources by extension,
/// objects and libraries go to the link; anything else is an error.
static Expected<InputKind> classifyInput(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".cu")
    return InputKind::Cuda;
  if (Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C" ||
      Ext == ".c++" || Ext == ".cp")
    return InputKind::Cxx;
  if (Ext == ".c")
    return InputKind::C;
  if (Ext == ".o" || Ext == ".obj" || Ext == ".a" || Ext == ".so" ||
      Path.contains(".so."))
    return InputKind::LinkInput;
  return usageError(formatv("Don't know what to do with '{0}'", Path));
}

static Expected<int> parseBool(StringRef Option, StringRef Value) {
  if (Value == "true")
    return 1;
  if (Value == "false")
    return 0;
  return usageError(
      formatv("Option '{0}' takes true or false, not '{1}'.", Option, Value));
}

/// Replaces each `@file`, `--options-file file` and `-optf file` (several
/// files: a comma-separated list) by the options the files hold, split as a
/// shell would (nvcc's options files; response files as gcc and clang read
/// them), recursively.
static Expected<std::vector<std::string>>
expandOptionFiles(ArrayRef<std::string> Args, unsigned Depth = 0) {
  if (Depth > 16)
    return usageError("Options files include each other too deeply.");
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    SmallVector<StringRef, 2> Files;
    std::string Value;
    if (Arg.size() > 1 && Arg.starts_with("@")) {
      Files.push_back(Arg.drop_front());
    } else if (Arg == "--options-file" || Arg == "-optf") {
      if (I + 1 >= Args.size())
        return usageError(formatv("Option '{0}' needs a value.", Arg));
      Value = Args[++I];
      StringRef(Value).split(Files, ',', -1, false);
    } else if (Arg.starts_with("--options-file=") ||
               Arg.starts_with("-optf=")) {
      Value = Arg.substr(Arg.find('=') + 1).str();
      StringRef(Value).split(Files, ',', -1, false);
    } else {
      Out.push_back(Arg.str());
      continue;
    }
    for (StringRef File : Files) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(File);
      if (!Text)
        return usageError(formatv("Could not open options file '{0}'", File));
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 16> Tokens;
      cl::TokenizeGNUCommandLine((*Text)->getBuffer(), Saver, Tokens);
      std::vector<std::string> Inner(Tokens.begin(), Tokens.end());
      Expected<std::vector<std::string>> Expanded =
          expandOptionFiles(Inner, Depth + 1);
      if (!Expanded)
        return Expanded.takeError();
      Out.insert(Out.end(), Expanded->begin(), Expanded->end());
    }
  }
  return Out;
}

/// Decides what each input is and checks that the output kind can take the
/// inputs: the device-only stages compile one CUDA source (any name), -c
/// compiles sources only, and with -o only one.
static Error classifyInputs(Options &Opts, StringRef Language) {
  if (!compilesHostCode(Opts.Kind)) {
    if (Opts.Inputs.size() > 1)
      return usageError(formatv("cucc compiles one file at a time with this "
                                "output kind; got '{0}' and '{1}'.",
                                Opts.Inputs[0].Path, Opts.Inputs[1].Path));
    if (Language == "c++" || Language == "c")
      return usageError(formatv("'-x {0}' has no device code to compile; the "
                                "device-only stages take CUDA sources.",
                                Language));
    Opts.Input = Opts.Inputs.front().Path;
    return Error::success();
  }
  unsigned Sources = 0;
  for (InputFile &In : Opts.Inputs) {
    Expected<InputKind> Kind = classifyInput(In.Path);
    if (!Kind && !Language.empty()) {
      consumeError(Kind.takeError());
      Kind = InputKind::Cuda;
    }
    if (!Kind)
      return Kind.takeError();
    In.Kind = *Kind;
    // -x names the language of every source file, as nvcc's does.
    if (In.Kind != InputKind::LinkInput && !Language.empty())
      In.Kind = Language == "c++" ? InputKind::Cxx
                : Language == "c" ? InputKind::C
                                  : InputKind::Cuda;
    if (In.Kind != InputKind::LinkInput)
      ++Sources;
    else if (Opts.Kind == OutputKind::Object)
      return usageError(formatv("'{0}' is a link input, but -c does not "
                                "link.",
                                In.Path));
  }
  if (Opts.Kind == OutputKind::Object && Sources > 1 && !Opts.Output.empty())
    return usageError("A single input file is required for a non-link phase "
                      "when an outputfile is specified");
  if (Opts.Kind == OutputKind::DeviceLink &&
      any_of(Opts.Inputs, [](const InputFile &In) {
        return In.Kind != InputKind::LinkInput;
      }))
    return usageError("-dlink links objects; compile the sources with -c "
                      "-rdc=true first.");
  return Error::success();
}

Expected<Options> parseCommandLine(ArrayRef<std::string> RawArgs) {
  Expected<std::vector<std::string>> Expanded = expandOptionFiles(RawArgs);
  if (!Expanded)
    return Expanded.takeError();
  ArrayRef<std::string> Args = *Expanded;
  Options Opts;
  std::vector<std::string> ArchFlags, CodeFlags;
  std::vector<std::string> Unknown; // Options cucc does not know.
  std::string Language;             // -x: the language of every source.
  bool ForwardUnknown = false;      // -forward-unknown-to-host-compiler.
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    // The value of an option spelled "-name value" or "-name=value" (nvcc
    // accepts both, with one or two dashes).
    auto Value = [&](std::initializer_list<StringRef> Names,
                     std::string &Out) -> Expected<bool> {
      for (StringRef Name : Names) {
        if (Arg == Name) {
          if (I + 1 >= Args.size())
            return usageError(formatv("Option '{0}' needs a value.", Name));
          Out = Args[++I];
          return true;
        }
        if (Arg.starts_with(Name) && Arg.substr(Name.size()).starts_with("=")) {
          Out = Arg.substr(Name.size() + 1).str();
          return true;
        }
      }
      return false;
    };
    std::string V;
#define CUCC_VALUE(...)                                                        \
  [&]() -> Expected<bool> { return Value({__VA_ARGS__}, V); }()
    Expected<bool> Got = false;

    if (!Arg.starts_with("-") || Arg == "-") {
      Opts.Inputs.push_back({Arg.str(), InputKind::Cuda});
      continue;
    }
    // The whole-program kinds (the default is to compile and link).
    if (Arg == "-c" || Arg == "--compile") {
      Opts.Kind = OutputKind::Object;
      continue;
    }
    if (Arg == "-shared" || Arg == "--shared") {
      Opts.Kind = OutputKind::SharedLibrary;
      continue;
    }
    if (Arg == "-lib" || Arg == "--lib") {
      Opts.Kind = OutputKind::StaticLibrary;
      continue;
    }
    if (Arg == "-link" || Arg == "--link") {
      Opts.Kind = OutputKind::Executable;
      continue;
    }
    if (Arg == "-forward-unknown-to-host-compiler" ||
        Arg == "--forward-unknown-to-host-compiler") {
      ForwardUnknown = true;
      continue;
    }
    // Output kinds and stages of nvcc that cucc has.
    if (Arg == "-ptx" || Arg == "--ptx") {
      Opts.Kind = OutputKind::PTX;
      continue;
    }
    if (Arg == "-no-ptx-image" || Arg == "--no-ptx-image") {
      Opts.PtxImage = false;
      continue;
    }
    if (Arg == "-E" || Arg == "--preprocess") {
      Opts.Kind = OutputKind::Preprocess;
      continue;
    }
    // Dependency files, as nvcc (and gcc) write them.
    if (Arg == "-M" || Arg == "--generate-dependencies" || Arg == "-MM" ||
        Arg == "--generate-nonsystem-dependencies") {
      Opts.Kind = OutputKind::Dependencies;
      Opts.DependencyArgs.push_back(
          Arg.starts_with("-MM") || Arg.contains("nonsystem") ? "-MM" : "-M");
      continue;
    }
    if (Arg == "-MD" || Arg == "--generate-dependencies-with-compile" ||
        Arg == "-MMD" ||
        Arg == "--generate-nonsystem-dependencies-with-compile") {
      Opts.DependencyArgs.push_back(
          Arg == "-MMD" || Arg.contains("nonsystem") ? "-MMD" : "-MD");
      continue;
    }
    if (Arg == "-MP" || Arg == "--generate-dependency-targets") {
      Opts.DependencyArgs.push_back("-MP");
      continue;
    }
    if ((Got = CUCC_VALUE("-MF", "--dependency-output")) && *Got) {
      Opts.DependencyArgs.push_back("-MF");
      Opts.DependencyArgs.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-MT", "--dependency-target-name")) && *Got) {
      Opts.DependencyArgs.push_back("-MT");
      Opts.DependencyArgs.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-odir", "--output-directory")) && *Got) {
      Opts.OutputDir = V;
      continue;
    }
    if (!Got)
      return Got.takeError();
    // Relocatable device code: a relocatable image, linked at run time
    // (cuLinkCreate, cuLinkAddData, cuLinkComplete). -dc is nvcc's "-c
    // -rdc=true".
    if (Arg == "-dc" || Arg == "--device-c") {
      Opts.Relocatable = Opts.DeviceCompile = true;
      Opts.Kind = OutputKind::Cubin;
      continue;
    }
    if (Arg == "-rdc=true" || Arg == "--relocatable-device-code=true") {
      Opts.Relocatable = true;
      continue;
    }
    if ((Arg == "-rdc" || Arg == "--relocatable-device-code") &&
        I + 1 < Args.size() &&
        (Args[I + 1] == "true" || Args[I + 1] == "false")) {
      Opts.Relocatable = Args[++I] == "true";
      continue;
    }
    if (Arg == "-rdc=false" || Arg == "--relocatable-device-code=false") {
      Opts.Relocatable = false;
      continue;
    }
    // nvcc's device link writes the host object that registers the linked
    // device code of relocatable objects (DeviceLink.h).
    if (Arg == "-dlink" || Arg == "--device-link") {
      Opts.Kind = OutputKind::DeviceLink;
      continue;
    }
    // Options of nvcc's other stages, or that change nothing in device IR:
    // accepted and ignored (with their values).
    if (StringSwitch<bool>(Arg)
            .Cases("-expt-relaxed-constexpr", "--expt-relaxed-constexpr", true)
            .Cases("-expt-extended-lambda", "--expt-extended-lambda", true)
            .Cases("-extended-lambda", "--extended-lambda", true)
            .Cases("-nodlink", "--no-device-link", true)
            .Cases("-res-usage", "--resource-usage", true)
            .Cases("-err-no", "--display-error-number", true)
            .Cases("-no-err-no", "--no-display-error-number", true)
            .Cases("-extra-device-vectorization",
                   "--extra-device-vectorization", true)
            .Cases("-allow-unsupported-compiler",
                   "--allow-unsupported-compiler", true)
            .Cases("-Wno-deprecated-gpu-targets",
                   "--Wno-deprecated-gpu-targets", true)
            .Cases("-Wno-deprecated-declarations",
                   "--Wno-deprecated-declarations", true)
            .Cases("-Wreorder", "--Wreorder", true)
            .Cases("-Wdefault-stream-launch", "--Wdefault-stream-launch", true)
            .Cases("-Wmissing-launch-bounds", "--Wmissing-launch-bounds", true)
            .Cases("-Wext-lambda-captures-this", "--Wext-lambda-captures-this",
                   true)
            .Cases("-save-temps", "--save-temps", true)
            .Cases("-src-in-ptx", "--source-in-ptx", true)
            .Default(false))
      continue;
    if ((Got = CUCC_VALUE(
             "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options", "-t",
             "--threads", "-diag-suppress", "--diag-suppress", "-diag-warn",
             "--diag-warn", "-diag-error", "--diag-error", "-maxrregcount",
             "--maxrregcount", "-split-compile", "--split-compile",
             "-cudadevrt", "--cudadevrt", "-prec-div", "--prec-div",
             "-prec-sqrt", "--prec-sqrt", "-Xarchive", "--archive-options")) &&
        *Got)
      continue;
    if (!Got)
      return Got.takeError();
    // The host compiler and the link.
    if ((Got = CUCC_VALUE("-Xcompiler", "--compiler-options")) && *Got) {
      appendList(V, Opts.HostCompilerArgs);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-Xlinker", "--linker-options")) && *Got) {
      appendList(V, Opts.LinkerArgs);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-ccbin", "--compiler-bindir")) && *Got) {
      Opts.HostCompiler = V;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-cudart", "--cudart")) && *Got) {
      if (V == "static")
        Opts.Runtime = CudaRuntime::Static;
      else if (V == "shared")
        Opts.Runtime = CudaRuntime::Shared;
      else if (V == "none")
        Opts.Runtime = CudaRuntime::None;
      else
        return usageError(
            formatv("Value '{0}' is not defined for option 'cudart'", V));
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-default-stream", "--default-stream")) && *Got) {
      if (V != "legacy" && V != "null" && V != "per-thread")
        return usageError(formatv(
            "Value '{0}' is not defined for option 'default-stream'", V));
      Opts.PerThreadDefaultStream = V == "per-thread";
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("--library")) && *Got) {
      Opts.LibraryArgs.push_back("-l" + V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("--library-path")) && *Got) {
      Opts.LibraryArgs.push_back("-L" + V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-m", "--machine")) && *Got) {
      if (V != "64")
        return usageError(formatv("Unsupported machine '{0}': cucc compiles "
                                  "for 64-bit devices only",
                                  V));
      continue;
    }
    if (!Got)
      return Got.takeError();
    // -Werror <kind>,...: all-warnings makes every warning an error.
    if ((Got = CUCC_VALUE("-Werror", "--Werror")) && *Got) {
      if (StringRef(V).contains("all-warnings"))
        Opts.WarningsAreErrors = true;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-include", "--pre-include")) && *Got) {
      Opts.PreprocessorArgs.push_back("-include");
      Opts.PreprocessorArgs.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-isystem", "--system-include")) && *Got) {
      Opts.PreprocessorArgs.push_back("-isystem");
      Opts.PreprocessorArgs.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("--undefine-macro")) && *Got) {
      Opts.PreprocessorArgs.push_back("-U" + V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if (Arg == "--list-gpu-arch" || Arg == "-arch-ls" ||
        Arg == "--list-gpu-code" || Arg == "-code-ls") {
      Opts.ListArchs = Arg.contains("arch") ? 1 : 2;
      continue;
    }
    // Flags without a value.
    bool Known = StringSwitch<bool>(Arg)
                     .Cases("-cubin", "--cubin", true)
                     .Cases("-fatbin", "--fatbin", true)
                     .Cases("-emit-llvm", "--emit-llvm", true)
                     .Cases("-g", "--debug", true)
                     .Cases("-G", "--device-debug", true)
                     .Cases("-lineinfo", "--generate-line-info", true)
                     .Cases("-use_fast_math", "--use_fast_math", true)
                     .Cases("-v", "--verbose", true)
                     .Cases("-dryrun", "--dryrun", true)
                     .Cases("-keep", "--keep", true)
                     .Cases("-w", "--disable-warnings", true)
                     .Cases("-h", "-help", "--help", true)
                     .Cases("-V", "-version", "--version", true)
                     .Cases("-m64", "--machine=64", true)
                     .Default(false);
    if (Known) {
      if (Arg.ends_with("cubin"))
        Opts.Kind = OutputKind::Cubin;
      else if (Arg.ends_with("fatbin"))
        Opts.Kind = OutputKind::Fatbin;
      else if (Arg.ends_with("emit-llvm"))
        Opts.Kind = OutputKind::LLVMIR;
      else if (Arg == "-g" || Arg == "--debug")
        Opts.Debug = true;
      else if (Arg == "-G" || Arg == "--device-debug")
        Opts.DeviceDebug = true;
      else if (Arg.ends_with("line-info") || Arg == "-lineinfo")
        Opts.LineInfo = true;
      else if (Arg.ends_with("use_fast_math"))
        Opts.FastMath = true;
      else if (Arg == "-v" || Arg == "--verbose")
        Opts.Verbose = true;
      else if (Arg.ends_with("dryrun"))
        Opts.DryRun = true;
      else if (Arg.ends_with("keep"))
        Opts.Keep = true;
      else if (Arg == "-w" || Arg == "--disable-warnings")
        Opts.NoWarnings = true;
      else if (Arg.ends_with("help") || Arg == "-h")
        Opts.Help = true;
      else if (Arg.ends_with("version") || Arg == "-V")
        Opts.Version = true;
      continue;
    }
    // -O0..-O3 (and -O, which is -O3).
    if (Arg.starts_with("-O") && Arg.size() <= 3) {
      StringRef Level = Arg.substr(2);
      if (Level.empty())
        Level = "3";
      if (Level.size() != 1 || Level[0] < '0' || Level[0] > '3')
        return usageError(formatv("Unknown optimization level '{0}': use "
                                  "-O0, -O1, -O2 or -O3.",
                                  Arg));
      Opts.OptLevel = Opts.HostOptLevel = Level[0] - '0';
      continue;
    }
    // -I, -D and -U, attached or separate.
    if (Arg.starts_with("-I") || Arg.starts_with("-D") ||
        Arg.starts_with("-U")) {
      std::string Flag = Arg.take_front(2).str();
      StringRef Rest = Arg.substr(2);
      if (Rest.empty()) {
        if (I + 1 >= Args.size())
          return usageError(formatv("Option '{0}' needs a value.", Arg));
        Rest = Args[++I];
      }
      Opts.PreprocessorArgs.push_back(Flag + Rest.str());
      continue;
    }
    // -l and -L, the libraries of the link, attached or separate. Stages
    // that do not link ignore them, as nvcc does (PyCUDA's DynamicModule
    // passes -lcudadevrt with -cubin). -lto and -ltoir are other options of
    // nvcc's.
    if ((Arg.starts_with("-l") || Arg.starts_with("-L")) && Arg != "-lto" &&
        Arg != "-ltoir") {
      std::string Flag = Arg.take_front(2).str();
      StringRef Rest = Arg.substr(2);
      if (Rest.empty()) {
        if (I + 1 >= Args.size())
          return usageError(formatv("Option '{0}' needs a value.", Arg));
        Rest = Args[++I];
      }
      // The CUDA runtime is -cudart's business, as with nvcc.
      if (Flag == "-l" && (Rest == "cudart" || Rest == "cudart_static"))
        continue;
      Opts.LibraryArgs.push_back(Flag + Rest.str());
      continue;
    }
    if (Arg.starts_with("-o") && Arg.size() > 2 && !Arg.starts_with("-o=")) {
      Opts.Output = Arg.substr(2).str();
      continue;
    }
    if ((Got = CUCC_VALUE("-o", "--output-file")) && *Got) {
      Opts.Output = V;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("--include-path")) && *Got) {
      Opts.PreprocessorArgs.push_back("-I" + V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("--define-macro")) && *Got) {
      Opts.PreprocessorArgs.push_back("-D" + V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-arch", "--gpu-architecture")) && *Got) {
      ArchFlags.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-code", "--gpu-code")) && *Got) {
      CodeFlags.push_back(V);
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-gencode", "--generate-code")) && *Got) {
      if (Error E = addGencode(V, Opts.Archs))
        return E;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-std", "--std")) && *Got) {
      Opts.Std = V;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-keep-dir", "--keep-dir")) && *Got) {
      Opts.KeepDir = V;
      Opts.Keep = true;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-fmad", "--fmad")) && *Got) {
      Expected<int> B = parseBool(Arg, V);
      if (!B)
        return B.takeError();
      Opts.Fmad = *B;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-ftz", "--ftz")) && *Got) {
      Expected<int> B = parseBool(Arg, V);
      if (!B)
        return B.takeError();
      Opts.Ftz = *B;
      continue;
    }
    if (!Got)
      return Got.takeError();
    if ((Got = CUCC_VALUE("-x", "--x")) && *Got) {
      if (V != "cu" && V != "cuda" && V != "c++" && V != "c")
        return usageError(
            formatv("Value '{0}' is not defined for option 'x'", V));
      Language = V;
      continue;
    }
    if (!Got)
      return Got.takeError();
#undef CUCC_VALUE
    Unknown.push_back(Arg.str());
  }

  // nvcc's -forward-unknown-to-host-compiler holds for the whole line.
  if (!Unknown.empty() && !ForwardUnknown)
    return usageError(formatv("Unknown option '{0}'", Unknown.front()));
  append_range(Opts.HostCompilerArgs, Unknown);
  if (Opts.Help || Opts.Version || Opts.ListArchs)
    return Opts;
  if (Opts.Inputs.empty())
    return usageError("No input files specified; use option --help for more "
                      "information");
  if (Error E = classifyInputs(Opts, Language))
    return E;
  // -code names the real architectures; without it, -arch does.
  for (const std::string &Flags : CodeFlags.empty() ? ArchFlags : CodeFlags)
    if (Error E = addArchList(Flags, Opts.Archs))
      return E;
  if (Opts.Archs.empty())
    Opts.Archs.push_back(DefaultArch.str());
  if (Opts.Kind != OutputKind::Fatbin && Opts.Kind != OutputKind::Preprocess &&
      Opts.Kind != OutputKind::Dependencies && !compilesHostCode(Opts.Kind) &&
      Opts.Archs.size() > 1)
    return usageError(formatv("{0} architectures were given, but only "
                              "-fatbin and host objects hold more than "
                              "one.",
                              Opts.Archs.size()));
  return Opts;
}

StringRef helpText() {
  return R"(Usage: cucc [options] <files>

Compiles CUDA C++ for cucpu, CUDA on the CPU, as nvcc does: by default every
source becomes a host object (a .cu file with its device code embedded) and
the objects are linked with the CUDA runtime into a program (a.out). The
device-only stages (-cubin, -fatbin, -ptx, --emit-llvm) write what the driver
API loads. No #include is needed in a .cu file.

Output:
  (none)                 Compile and link a program (a.out).
  -c                     Host objects, one per source (<stem>.o).
  -shared, -lib          Link a shared library, or archive the objects (a.a).
  -cubin                 Write a cucpu module image (<stem>.cubin).
  -rdc=true, -dc         Relocatable device code: a relocatable image (-dc:
                         <stem>.o) for cuLinkCreate/cuLinkAddFile.
  -fatbin                Write a fat binary, one image per architecture.
  --emit-llvm            Write the device LLVM IR (.ll; bitcode if -o ends in .bc).
  -ptx                   Write PTX from clang's NVPTX back end (<stem>.ptx).
  --no-ptx-image         With -ptx: leave out the module image that cucc
                         appends in comments, so cucpu's driver JIT-compiles
                         the PTX itself.
  -E, -M, -MM            Preprocess, or write the make rule of the headers.
  -MD, -MMD, -MF, -MT    Write the make rule next to the output.
  -o <file>, -odir <dir> Output file, or the folder of the default one.
  @file, -optf <file>    Read options from a file.
Inputs:
  .cu (CUDA), .cpp/.cc/.cxx (C++), .c (C), .o/.a/.so (to the link);
  -x cu|c++|c names the language of every source.
Preprocessor:
  -I <dir>, -D <name>[=<value>], -U <name>, -include, -isystem
Code generation:
  -O0 .. -O3             Optimization level (device IR default -O3; host: as given).
  -g, -G, -lineinfo      Debug information; -G also turns optimization off.
  -arch=<sm_XX>          Target architecture (default sm_75): sm_50 .. sm_121[a|f],
                         compute_XX, native, all, all-major; also
                         --gpu-architecture, -code, -gencode arch=..,code=...
  -std=<c++NN>           Language standard (default c++17).
  -use_fast_math, -fmad=<bool>, -ftz=<bool>, -w
  -default-stream per-thread   The per-thread default stream.
Host compiler and link:
  -ccbin <compiler|dir>  The host compiler (default g++, else clang++).
  -Xcompiler <a,b>       Options for the host compiler.
  -forward-unknown-to-host-compiler   Pass options cucc does not know to it.
  -Xlinker <a,b>         Options for the linker.
  -L <dir>, -l <lib>     Libraries of the link.
  -cudart static|shared|none   The CUDA runtime to link (default static).
Stages:
  -v                     Show each stage as it runs.
  --dryrun               Show the stages without running them.
  -keep, --keep-dir <d>  Keep the IR of each architecture (<stem>.<sm>.bc/.ll)
                         and each source's fat binary and object.
  --help, --version, --list-gpu-arch, --list-gpu-code
nvcc's options for stages cucc does not have (-Xptxas, -Xnvlink, --threads,
-maxrregcount, -diag-suppress, --expt-relaxed-constexpr, ...) are accepted and
ignored.
)";
}

} // namespace cucpu::cucc

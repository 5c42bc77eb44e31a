//===- Options.cpp - cucc's nvcc-like command line ------------------------===//

#include "Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace cucpu::cucc {

static Error usageError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

std::string Options::outputPath() const {
  if (!Output.empty())
    return Output;
  StringRef Ext = Kind == OutputKind::Cubin    ? ".cubin"
                  : Kind == OutputKind::Fatbin ? ".fatbin"
                                               : ".ll";
  return (sys::path::stem(Input) + Ext).str();
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

static Expected<int> parseBool(StringRef Option, StringRef Value) {
  if (Value == "true")
    return 1;
  if (Value == "false")
    return 0;
  return usageError(
      formatv("Option '{0}' takes true or false, not '{1}'.", Option, Value));
}

Expected<Options> parseCommandLine(ArrayRef<std::string> Args) {
  Options Opts;
  std::vector<std::string> ArchFlags, CodeFlags;
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
      if (!Opts.Input.empty())
        return usageError(formatv("cucc compiles one file at a time; got '{0}' "
                                  "and '{1}'.",
                                  Opts.Input, Arg));
      Opts.Input = Arg.str();
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
                     .Cases("-m64", "--machine=64", "-rdc=false", true)
                     .Case("--relocatable-device-code=false", true)
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
      Opts.OptLevel = Level[0] - '0';
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
    if (Arg.starts_with("-o") && Arg.size() > 2 &&
        !Arg.starts_with("-o=")) {
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
      if (V != "cu" && V != "cuda")
        return usageError(formatv("cucc compiles CUDA sources only, not "
                                  "'-x {0}'.",
                                  V));
      continue;
    }
    if (!Got)
      return Got.takeError();
#undef CUCC_VALUE
    if (Arg == "-ptx" || Arg == "--ptx" || Arg == "-c" || Arg == "--compile")
      return usageError(formatv("cucc does not support '{0}': it writes cucpu "
                                "module images (-cubin, -fatbin) or LLVM IR "
                                "(--emit-llvm), which cuModuleLoad loads.",
                                Arg));
    return usageError(formatv("Unknown option '{0}' (see cucc --help).", Arg));
  }

  if (Opts.Help || Opts.Version)
    return Opts;
  if (Opts.Input.empty())
    return usageError("No input file (see cucc --help).");
  // -code names the real architectures; without it, -arch does.
  for (const std::string &Flags : CodeFlags.empty() ? ArchFlags : CodeFlags)
    if (Error E = addArchList(Flags, Opts.Archs))
      return E;
  if (Opts.Archs.empty())
    Opts.Archs.push_back(DefaultArch.str());
  if (Opts.Kind != OutputKind::Fatbin && Opts.Archs.size() > 1)
    return usageError(formatv("{0} architectures were given, but only "
                              "-fatbin holds more than one.",
                              Opts.Archs.size()));
  return Opts;
}

StringRef helpText() {
  return R"(Usage: cucc [options] <file.cu>

Compiles the device code of a CUDA C++ file for cucpu, the CUDA driver API on
the CPU. The source is compiled as nvcc would see it, with no #include needed.

Output:
  -cubin                 Write a cucpu module image (default; <stem>.cubin).
  -fatbin                Write a fat binary, one image per architecture.
  --emit-llvm            Write the device LLVM IR (.ll; bitcode if -o ends in .bc).
  -o <file>              Output file.
Preprocessor:
  -I <dir>, -D <name>[=<value>], -U <name>
Code generation:
  -O0 .. -O3             Optimization level of the device IR (default -O3).
  -g, -G, -lineinfo      Debug information; -G also turns optimization off.
  -arch=<sm_XX>          Target architecture (default sm_75); also
                         --gpu-architecture, -code, -gencode arch=..,code=...
  -std=<c++NN>           Language standard (default c++17).
  -use_fast_math, -fmad=<bool>, -ftz=<bool>, -w
Stages:
  -v                     Show each stage as it runs.
  --dryrun               Show the stages without running them.
  -keep, --keep-dir <d>  Keep the IR of each architecture (<stem>.<sm>.bc/.ll).
  --help, --version
)";
}

} // namespace cucpu::cucc

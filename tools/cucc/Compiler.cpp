//===- Compiler.cpp - cucc's stages ---------------------------------------===//

#include "Compiler.h"
#include "Program.h"
#include "Stages.h"
#include "cucpu/modules/image/ImageBuilder.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ToolOutputFile.h"

#ifdef CUCC_HAVE_FATBIN
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/PtxImage.h"
#endif

#ifndef CUCC_CLANG_EXECUTABLE
#define CUCC_CLANG_EXECUTABLE "clang-19"
#endif
#ifndef CUCC_SOURCE_DEVICE_INCLUDE_DIR
#define CUCC_SOURCE_DEVICE_INCLUDE_DIR ""
#endif
#ifndef CUCC_BIN_TO_DEVICE_INCLUDE
#define CUCC_BIN_TO_DEVICE_INCLUDE "../include/cucpu/device"
#endif
#ifndef CUCC_BIN_TO_LIB
#define CUCC_BIN_TO_LIB "../lib"
#endif
#ifndef CUCC_BUILD_LIB_DIR
#define CUCC_BUILD_LIB_DIR ""
#endif

using namespace llvm;

namespace cucpu::cucc {

using image::buildImage;
using image::producerString;

static Error toolError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<Toolchain> findToolchain(const char *Argv0) {
  Toolchain Tools;
  // The clang found at configure time; if it has moved, the same name on
  // PATH. Either way it must be the clang 19 whose CUDA headers prelude.h was
  // written against, and whose bitcode this LLVM reads.
  StringRef Configured = CUCC_CLANG_EXECUTABLE;
  if (sys::fs::can_execute(Configured)) {
    Tools.Clang = Configured.str();
  } else if (ErrorOr<std::string> Found =
                 sys::findProgramByName(sys::path::filename(Configured))) {
    Tools.Clang = *Found;
  } else {
    return toolError(formatv("cannot find clang ('{0}', the compiler cucc "
                             "was built with, is missing and '{1}' is not on "
                             "PATH).",
                             Configured, sys::path::filename(Configured)));
  }

  // Installed: bin/cucc next to include/cucpu/device. In the build tree, the
  // source tree's headers.
  std::string Exe = sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&findToolchain));
  SmallString<256> Installed(sys::path::parent_path(Exe));
  sys::path::append(Installed, CUCC_BIN_TO_DEVICE_INCLUDE);
  sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  SmallString<256> Prelude(Installed);
  sys::path::append(Prelude, "prelude.h");
  SmallString<256> Source(CUCC_SOURCE_DEVICE_INCLUDE_DIR);
  if (sys::fs::exists(Prelude)) {
    Tools.DeviceIncludeDir = std::string(Installed);
    // Installed, the libraries are in the prefix's lib/ (CMAKE_INSTALL_LIBDIR).
    SmallString<256> Lib(sys::path::parent_path(Exe));
    sys::path::append(Lib, CUCC_BIN_TO_LIB);
    sys::path::remove_dots(Lib, /*remove_dot_dot=*/true);
    Tools.LibDir = std::string(Lib);
    // include/cucpu/device/../../.. : the prefix.
    SmallString<256> Root(Installed);
    for (int Up = 0; Up < 3; ++Up)
      sys::path::remove_filename(Root);
    Tools.Root = std::string(Root);
  } else {
    Prelude = Source;
    sys::path::append(Prelude, "prelude.h");
    if (Source.empty() || !sys::fs::exists(Prelude))
      return toolError(formatv("cannot find the device headers (prelude.h) "
                               "in '{0}' or '{1}'.",
                               Installed, Source));
    Tools.DeviceIncludeDir = std::string(Source);
    // In the build tree, where libcuda.so.1 and libcudart are built.
    Tools.LibDir = CUCC_BUILD_LIB_DIR;
  }
  // The device headers are include/cucpu/device, installed and in the source
  // tree alike; include/ holds cuda.h.
  SmallString<256> Toolkit(Tools.DeviceIncludeDir);
  sys::path::remove_filename(Toolkit);
  sys::path::remove_filename(Toolkit);
  Tools.ToolkitIncludeDir = std::string(Toolkit);
  SmallString<256> Runtime(Toolkit);
  sys::path::append(Runtime, "cuda_runtime.h");
  if (sys::fs::exists(Runtime))
    Tools.RuntimeHeader = std::string(Runtime);
  return Tools;
}

std::vector<std::string> toolkitVariables(const Toolchain &Tools) {
  std::vector<std::string> Lines;
  // CMake's toolkit root (CMAKE_CUDA_COMPILER_TOOLKIT_ROOT); without it, the
  // folder above the nvcc it was given, which is wrong for a symbolic link
  // to bin/nvcc.
  if (!Tools.Root.empty())
    Lines.push_back("TOP=" + Tools.Root);
  // CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES: clang's passes search it with
  // -isystem (after the device headers), the host compiler with -I.
  Lines.push_back("INCLUDES=" + quoteCommand({"-I" + Tools.ToolkitIncludeDir}));
  // CMake takes the line that contains this value, verbatim, as the host
  // link line and reads its implicit libraries and folders from it: the
  // value must be the link line's -L (Link.cpp).
  if (!Tools.LibDir.empty())
    Lines.push_back("LIBRARIES=" + quoteCommand({"-L" + Tools.LibDir}));
  return Lines;
}

void addSharedClangArgs(const Options &Opts, const Toolchain &Tools,
                        StringRef Cuid, std::vector<std::string> &Cmd) {
  SmallString<256> Sdk(Tools.DeviceIncludeDir), Prelude(Tools.DeviceIncludeDir);
  sys::path::append(Sdk, "sdk");
  sys::path::append(Prelude, "prelude.h");
  // clang picks the launch API (__cudaPushCallConfiguration rather than
  // CUDA 9's cudaConfigureCall) from the CUDA version, which it only knows
  // on the host side when there is no CUDA installation: the newest one
  // clang 19 knows, in both passes, so that <<<>>> compiles in both.
  append_range(Cmd,
               ArrayRef<std::string>{"-Xclang", "-target-sdk-version=12.5"});
  // One id for both passes, so that both name internal kernels and
  // variables alike.
  if (!Cuid.empty())
    Cmd.push_back("-cuid=" + Cuid.str());
  // nvcc defines __NVCC__ in every pass (and for C and C++ files).
  Cmd.push_back("-D__NVCC__");
  if (Opts.WarningsAreErrors)
    Cmd.push_back("-Werror");
  if (Opts.NoWarnings)
    Cmd.push_back("-w");
  // nvcc has the toolkit's include folder on the path (cuda.h, ...); cucc's
  // device versions of toolkit headers (sdk/) come first.
  Cmd.push_back("-isystem");
  Cmd.push_back(std::string(Sdk));
  if (!Tools.ToolkitIncludeDir.empty()) {
    Cmd.push_back("-isystem");
    Cmd.push_back(Tools.ToolkitIncludeDir);
  }
  Cmd.push_back("-include");
  Cmd.push_back(std::string(Prelude));
  // nvcc includes cuda_runtime.h in every CUDA compilation. By its path: by
  // name, the empty device stub in sdk/ would be found first.
  if (!Tools.RuntimeHeader.empty()) {
    Cmd.push_back("-include");
    Cmd.push_back(Tools.RuntimeHeader);
  }
  for (const std::string &Arg : Opts.PreprocessorArgs)
    Cmd.push_back(Arg);
}

std::vector<std::string> clangCommand(const Options &Opts,
                                      const Toolchain &Tools, StringRef Arch,
                                      StringRef BitcodePath, StringRef Cuid) {
  std::vector<std::string> Cmd = {
      Tools.Clang,
      "-x",
      "cuda",
      "--cuda-device-only",
      "-nocudainc",
      "-nocudalib",
      "--cuda-gpu-arch=" + clangArch(Arch),
      "-std=" + (Opts.Std.empty() ? std::string("c++17") : Opts.Std),
      "-O" + std::to_string(Opts.DeviceDebug ? 0 : Opts.OptLevel),
      // There is no CUDA installation whose version clang could check.
      "-Wno-unknown-cuda-version",
      // nvcc accepts a constexpr function that calls a non-constexpr one
      // (sqrtf, hypot, ...) as long as no constant evaluation needs it; clang
      // rejects it when no call could ever be constant.
      "-Wno-invalid-constexpr",
      // A float converted to an integer it does not fit saturates (NaN:
      // 0), as the GPU's cvt does; C++ leaves it undefined, and the CPU's
      // conversion would wrap.
      "-fno-strict-float-cast-overflow",
  };
  // What clang produces: IR (bitcode), or for -ptx, -E and -M what nvcc's
  // stage of that name does.
  switch (Opts.Kind) {
  case OutputKind::PTX:
    Cmd.insert(Cmd.begin() + 7, "-S");
    break;
  case OutputKind::Preprocess:
    Cmd.insert(Cmd.begin() + 7, "-E");
    break;
  case OutputKind::Dependencies:
    break; // -M or -MM, from DependencyArgs.
  default:
    Cmd.insert(Cmd.begin() + 7, {"-emit-llvm", "-c"});
    break;
  }
  // Relocatable device code: extern __device__ functions and variables
  // stay declarations for the link, nothing is internalized.
  if (Opts.Relocatable)
    Cmd.push_back("-fgpu-rdc");
  if (Opts.Debug || Opts.DeviceDebug)
    Cmd.push_back("-g");
  else if (Opts.LineInfo)
    Cmd.push_back("-gline-tables-only");
  if (Opts.DeviceDebug)
    Cmd.push_back("-D__CUDACC_DEBUG__");
  // nvcc's -use_fast_math: approximate transcendentals, flush denormals.
  if (Opts.FastMath)
    Cmd.push_back("-fgpu-approx-transcendentals");
  if (Opts.Ftz == 1 || (Opts.FastMath && Opts.Ftz != 0))
    Cmd.push_back("-fgpu-flush-denormals-to-zero");
  if (Opts.Fmad == 0)
    Cmd.push_back("-ffp-contract=off");
  if (Opts.FastMath)
    Cmd.push_back("-D__USE_FAST_MATH__=1");
  for (std::string &Flag : archMacros(Arch, Opts.Archs))
    Cmd.push_back(std::move(Flag));
  addSharedClangArgs(Opts, Tools, Cuid, Cmd);
  for (const std::string &Arg : Opts.DependencyArgs)
    Cmd.push_back(Arg);
  // -MD/-MMD without -MF: nvcc writes <stem>.d next to the output, naming
  // the output as the target.
  bool WithCompile = is_contained(Opts.DependencyArgs, "-MD") ||
                     is_contained(Opts.DependencyArgs, "-MMD");
  if (WithCompile && !is_contained(Opts.DependencyArgs, "-MF")) {
    SmallString<256> DepFile(Opts.OutputDir);
    sys::path::append(DepFile, sys::path::stem(Opts.Input) + ".d");
    Cmd.push_back("-MF");
    Cmd.push_back(std::string(DepFile));
  }
  if (WithCompile && !is_contained(Opts.DependencyArgs, "-MT")) {
    Cmd.push_back("-MT");
    Cmd.push_back(Opts.outputPath());
  }
  Cmd.push_back("-o");
  Cmd.push_back(BitcodePath.str());
  Cmd.push_back(Opts.Input);
  return Cmd;
}

/// Serializes one image (loader::writeImage, part of loader/).
static Expected<std::vector<uint8_t>>
serializeImage(const loader::ModuleImage &Image) {
#ifdef CUCC_HAVE_WRITE_IMAGE
  return loader::writeImage(Image);
#else
  (void)Image;
  return toolError("this build of cucc has no module image writer "
                   "(loader::writeImage); use --emit-llvm.");
#endif
}

/// Puts the images of several architectures into one fat binary.
static Expected<std::vector<uint8_t>>
serializeFatbin(ArrayRef<std::pair<std::string, std::vector<uint8_t>>> Images) {
#ifdef CUCC_HAVE_FATBIN
  std::vector<loader::FatBinaryInput> Entries;
  for (const auto &[Arch, Bytes] : Images) {
    loader::FatBinaryInput In;
    // "sm_75" (or "sm_90a") is SM number 75 (90).
    StringRef Digits = StringRef(Arch).drop_front(3).rtrim("af");
    Digits.getAsInteger(10, In.Arch);
    In.Payload = Bytes;
    Entries.push_back(In);
  }
  return loader::writeFatBinary(Entries);
#else
  (void)Images;
  return toolError("this build of cucc has no fat binary writer "
                   "(loader/include/cucpu/loader/FatBinary.h); use -cubin.");
#endif
}

static Error writeBytes(StringRef Path, ArrayRef<uint8_t> Bytes) {
  std::error_code EC;
  ToolOutputFile Out(Path, EC, sys::fs::OF_None);
  if (EC)
    return toolError(formatv("cannot write '{0}': {1}.", Path, EC.message()));
  Out.os().write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  Out.os().close();
  if (Out.os().has_error())
    return toolError(
        formatv("cannot write '{0}': {1}.", Path, Out.os().error().message()));
  Out.keep();
  return Error::success();
}

/// Appends the comment block carrying \p Image to the PTX file at \p Path
/// (to standard output for "-", where clang wrote the PTX).
static Error appendPtxImage(StringRef Path, ArrayRef<uint8_t> Image) {
  std::string Text;
  if (Path != "-") {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Ptx = MemoryBuffer::getFile(Path);
    if (!Ptx)
      return toolError(formatv("cannot read the PTX clang wrote ('{0}'): {1}.",
                               Path, Ptx.getError().message()));
    Text = (*Ptx)->getBuffer().str();
  }
  Text += loader::ptxImageBlock(Image);
  return writeBytes(
      Path, ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Text.data()),
                              Text.size()));
}

static Error writeModule(StringRef Path, const Module &M, bool Bitcode) {
  std::error_code EC;
  ToolOutputFile Out(Path, EC, Bitcode ? sys::fs::OF_None : sys::fs::OF_Text);
  if (EC)
    return toolError(formatv("cannot write '{0}': {1}.", Path, EC.message()));
  if (Bitcode)
    WriteBitcodeToFile(M, Out.os());
  else
    M.print(Out.os(), nullptr);
  Out.os().close();
  if (Out.os().has_error())
    return toolError(
        formatv("cannot write '{0}': {1}.", Path, Out.os().error().message()));
  Out.keep();
  return Error::success();
}

namespace {
/// Everything one run does, so that errors can be returned as llvm::Error.
class Run {
public:
  Run(const Options &Opts, const Toolchain &Tools, StringRef Cuid, Stages &S)
      : Opts(Opts), Tools(Tools), Cuid(Cuid), S(S) {}

  /// Returns the exit code: 0, or 1 when clang reported errors.
  Expected<int> run();

private:
  /// Where the IR of \p Arch goes: a temporary file, or with -keep a file
  /// that stays.
  Expected<std::string> bitcodePath(StringRef Arch);
  /// Runs clang for \p Arch; returns its exit code.
  /// Runs clang for \p Arch, writing \p Out as for output kind \p Kind.
  Expected<int> runClang(StringRef Arch, StringRef Out, OutputKind Kind);
  Expected<std::unique_ptr<Module>> readModule(StringRef Bitcode);

  void stage(const Twine &Line) { S.show(Line); }

  const Options &Opts;
  const Toolchain &Tools;
  StringRef Cuid;
  Stages &S;
  LLVMContext Ctx;
};
} // namespace

Expected<std::string> Run::bitcodePath(StringRef Arch) {
  StringRef Stem = sys::path::stem(Opts.Input);
  if (Opts.Keep) {
    SmallString<256> Path(Opts.KeepDir);
    sys::path::append(Path, Stem + "." + Arch + ".bc");
    return std::string(Path);
  }
  return S.temporaryFile(Stem + "-" + Arch, "bc");
}

Expected<int> Run::runClang(StringRef Arch, StringRef Out, OutputKind Kind) {
  Options Stage = Opts;
  Stage.Kind = Kind;
  return S.run(clangCommand(Stage, Tools, Arch, Out, Cuid));
}

Expected<std::unique_ptr<Module>> Run::readModule(StringRef Bitcode) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Bitcode);
  if (!Buffer)
    return toolError(formatv("cannot read '{0}': {1}.", Bitcode,
                             Buffer.getError().message()));
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  if (!M)
    return toolError(formatv("cannot read the IR clang wrote ('{0}'): {1}",
                             Bitcode, toString(M.takeError())));
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(**M, &OS))
    return toolError(
        formatv("the IR clang wrote fails LLVM's verifier: {0}", Problems));
  return M;
}

Expected<int> Run::run() {
  std::string Output = Opts.outputPath();
  std::vector<std::pair<std::string, std::vector<uint8_t>>> Images;
  // -E and -M: clang's output is the result; -ptx: clang's PTX, followed
  // by the module image of the first architecture
  // (loader/include/cucpu/loader/PtxImage.h) unless --no-ptx-image asks for the
  // PTX alone.
  if (Opts.Kind == OutputKind::PTX || Opts.Kind == OutputKind::Preprocess ||
      Opts.Kind == OutputKind::Dependencies) {
    Expected<int> RC = runClang(Opts.Archs.front(), Output, Opts.Kind);
    if (!RC)
      return RC.takeError();
    if (*RC != 0 || Opts.Kind != OutputKind::PTX || !Opts.PtxImage)
      return *RC == 0 ? 0 : 1;
  }
  ArrayRef<std::string> Archs = Opts.Archs;
  if (Opts.Kind == OutputKind::PTX)
    Archs = Archs.take_front();
  for (const std::string &Arch : Archs) {
    Expected<std::string> Bitcode = bitcodePath(Arch);
    if (!Bitcode)
      return Bitcode.takeError();
    Expected<int> RC =
        runClang(Arch, *Bitcode,
                 Opts.Kind == OutputKind::PTX ? OutputKind::Cubin : Opts.Kind);
    if (!RC)
      return RC.takeError();
    if (*RC != 0)
      return 1; // clang has printed the diagnostics.

    if (Opts.Kind == OutputKind::LLVMIR) {
      stage(formatv("cucc: write the IR to {0}", Output));
      if (Opts.DryRun)
        continue;
      Expected<std::unique_ptr<Module>> M = readModule(*Bitcode);
      if (!M)
        return M.takeError();
      if (Error E =
              writeModule(Output, **M, StringRef(Output).ends_with(".bc")))
        return E;
      continue;
    }

    // "-arch compute_XX -code sm_XX": the nvcc architecture pair the image
    // stands for (CMake reads the default CMAKE_CUDA_ARCHITECTURES from
    // nvcc's "-arch compute_XX").
    stage(formatv("cucc: describe {0} as a module image for {1} (-arch "
                  "compute_{2} -code {1})",
                  *Bitcode, Arch, StringRef(Arch).drop_front(3)));
    if (Opts.DryRun)
      continue;
    Expected<std::unique_ptr<Module>> M = readModule(*Bitcode);
    if (!M)
      return M.takeError();
    if (Opts.Keep) {
      SmallString<256> Text(*Bitcode);
      sys::path::replace_extension(Text, "ll");
      if (Error E = writeModule(Text, **M, /*Bitcode=*/false))
        return E;
    }
    Expected<loader::ModuleImage> Image =
        buildImage(**M, Arch, producerString(), Opts.Relocatable);
    if (!Image)
      return toolError(
          formatv("{0}: {1}", Opts.Input, toString(Image.takeError())));
    Expected<std::vector<uint8_t>> Bytes = serializeImage(*Image);
    if (!Bytes)
      return Bytes.takeError();
    Images.emplace_back(Arch, std::move(*Bytes));
  }
  if (Opts.Kind == OutputKind::LLVMIR)
    return 0;

  if (Opts.Kind == OutputKind::PTX) {
    stage(formatv("cucc: append the module image to {0}", Output));
    if (Opts.DryRun)
      return 0;
    if (Error E = appendPtxImage(Output, Images.front().second))
      return E;
    return 0;
  }
  stage(formatv("cucc: write {0}", Output));
  if (Opts.DryRun)
    return 0;
  if (Opts.Kind == OutputKind::Cubin) {
    if (Error E = writeBytes(Output, Images.front().second))
      return E;
    return 0;
  }
  Expected<std::vector<uint8_t>> Fatbin = serializeFatbin(Images);
  if (!Fatbin)
    return Fatbin.takeError();
  if (Error E = writeBytes(Output, *Fatbin))
    return E;
  return 0;
}

Expected<int> compileDevice(const Options &Opts, const Toolchain &Tools,
                            StringRef Cuid, Stages &S) {
  return Run(Opts, Tools, Cuid, S).run();
}

int compile(const Options &Opts, const Toolchain &Tools, raw_ostream &Log) {
  Stages S(Opts.Verbose, Opts.DryRun, Log);
  for (const std::string &Line : toolkitVariables(Tools))
    S.show(Line);
  Expected<int> RC = compilesHostCode(Opts.Kind)
                         ? buildProgram(Opts, Tools, S)
                         : compileDevice(Opts, Tools, /*Cuid=*/"", S);
  if (!RC) {
    Log << "cucc: error: " << toString(RC.takeError()) << "\n";
    return 1;
  }
  return *RC;
}

} // namespace cucpu::cucc

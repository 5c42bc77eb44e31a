//===- ProgramTest.cpp - Tests of cucc's whole-program build --------------===//
//
// nvcc's default action and -c, -shared, -lib: the options, the commands of
// the host pass and the link, host objects with their embedded fat binary,
// and (once runtime/ builds libcudart) a two-file program that runs.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "CuccTestSupport.h"
#include "DeviceLink.h"
#include "HostCompile.h"
#include "Link.h"
#include "Options.h"
#include "cucpu/loader/FatBinary.h"
#include "cucpu/loader/ModuleImage.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ObjectFile.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace cucpu;
using namespace cucpu::cucc;
using namespace cucpu::cucc::test;

namespace {

/// The options of \p List, which must parse.
Options parse(std::initializer_list<const char *> List) {
  auto Opts = parseCommandLine(args(List));
  EXPECT_TRUE(bool(Opts)) << toString(Opts.takeError());
  return Opts ? *Opts : Options();
}

/// The message of the error that parsing \p List gives ("" if it parses).
std::string parseError(std::initializer_list<const char *> List) {
  auto Opts = parseCommandLine(args(List));
  return Opts ? std::string() : toString(Opts.takeError());
}

/// Where the index of \p Needle in \p Cmd is; Cmd.size() if absent.
size_t find(ArrayRef<std::string> Cmd, StringRef Needle) {
  return find_if(Cmd, [&](const std::string &A) { return A == Needle; }) -
         Cmd.begin();
}

/// A toolchain as found in a build tree, without looking at the disk.
Toolchain fakeTools() {
  Toolchain Tools;
  Tools.Clang = "/llvm/bin/clang-19";
  Tools.DeviceIncludeDir = "/src/include/cucpu/device";
  Tools.ToolkitIncludeDir = "/src/include";
  Tools.RuntimeHeader = "/src/include/cuda_runtime.h";
  Tools.LibDir = "/build/lib";
  return Tools;
}

TEST(CuccOptions, WholeProgramKindsHaveNvccsDefaultNames) {
  Options Link = parse({"k.cu", "main.cpp"});
  EXPECT_EQ(Link.Kind, OutputKind::Executable) << "nvcc's default action";
  EXPECT_EQ(Link.outputPath(), "a.out");
  Options Compile = parse({"-c", "-odir", "out", "dir/k.cu"});
  EXPECT_EQ(Compile.Kind, OutputKind::Object);
  Compile.Input = "dir/k.cu";
  EXPECT_EQ(Compile.outputPath(), "out/k.o") << "-c: <odir>/<stem>.o";
  Options Shared = parse({"-shared", "--compile", "-shared", "k.cu"});
  EXPECT_EQ(Shared.Kind, OutputKind::SharedLibrary) << "the last kind wins";
  EXPECT_EQ(Shared.outputPath(), "a.out");
  Options Lib = parse({"--lib", "k.cu", "other.o"});
  EXPECT_EQ(Lib.Kind, OutputKind::StaticLibrary);
  EXPECT_EQ(Lib.outputPath(), "a.a");
  EXPECT_EQ(parse({"-c", "-link", "k.cu"}).Kind, OutputKind::Executable)
      << "-link is the default action, spelled out";
}

TEST(CuccOptions, InputsAreClassifiedByExtensionOrX) {
  Options Opts = parse({"k.cu", "main.cpp", "b.cc", "c.cxx", "d.c", "e.o",
                        "libf.a", "libg.so", "libh.so.1"});
  std::vector<InputKind> Kinds;
  for (const InputFile &In : Opts.Inputs)
    Kinds.push_back(In.Kind);
  EXPECT_EQ(Kinds,
            (std::vector<InputKind>{
                InputKind::Cuda, InputKind::Cxx, InputKind::Cxx, InputKind::Cxx,
                InputKind::C, InputKind::LinkInput, InputKind::LinkInput,
                InputKind::LinkInput, InputKind::LinkInput}))
      << "in command-line order, each by its extension";
  Options AsCuda = parse({"-x", "cu", "main.cpp", "kernel.txt", "e.o"});
  EXPECT_EQ(AsCuda.Inputs[0].Kind, InputKind::Cuda) << "-x cu: every source";
  EXPECT_EQ(AsCuda.Inputs[1].Kind, InputKind::Cuda) << "whatever its extension";
  EXPECT_EQ(AsCuda.Inputs[2].Kind, InputKind::LinkInput)
      << "objects stay link inputs";
  EXPECT_EQ(parse({"-x", "c++", "k.cu"}).Inputs[0].Kind, InputKind::Cxx);
  EXPECT_EQ(parseError({"k.cu", "notes.txt"}),
            "Don't know what to do with 'notes.txt'")
      << "nvcc's message";
  EXPECT_EQ(parse({"-cubin", "kernel.txt"}).Input, "kernel.txt")
      << "the device-only stages compile any file as CUDA, as before";
  EXPECT_NE(parseError({"-cubin", "-x", "c++", "k.cu"}), "")
      << "C++ has no device code";
  EXPECT_NE(parseError({"-cubin", "a.cu", "b.cu"}), "")
      << "a cubin comes from one source";
}

TEST(CuccOptions, CompileOnlyTakesOneSourcePerOutputFile) {
  EXPECT_EQ(parse({"-c", "a.cu", "b.cpp"}).Inputs.size(), 2u)
      << "-c without -o: a.o and b.o";
  EXPECT_EQ(parseError({"-c", "a.cu", "b.cu", "-o", "x.o"}),
            "A single input file is required for a non-link phase when an "
            "outputfile is specified")
      << "nvcc's message";
  EXPECT_NE(parseError({"-c", "a.cu", "x.o"}).find("does not link"),
            std::string::npos);
}

TEST(CuccOptions, HostCompilerAndLinkOptionsAreKept) {
  Options Opts = parse({"-Xcompiler",
                        "-fopenmp,-Wall",
                        "-Xcompiler=-pthread",
                        "--compiler-options",
                        "-fno-exceptions",
                        "-Xlinker",
                        "--as-needed,-z,now",
                        "--linker-options=-O1",
                        "-ccbin",
                        "/opt/gcc/bin",
                        "-O2",
                        "-lcuda",
                        "-L",
                        "/x",
                        "--library",
                        "m",
                        "-lcudart",
                        "-isystem=/sys",
                        "-m64",
                        "--threads",
                        "2",
                        "-maxrregcount",
                        "32",
                        "-ftz=true",
                        "-lineinfo",
                        "-std=c++20",
                        "--extended-lambda",
                        "k.cu"});
  EXPECT_EQ(Opts.HostCompilerArgs,
            args({"-fopenmp", "-Wall", "-pthread", "-fno-exceptions"}))
      << "-Xcompiler values, split at commas";
  EXPECT_EQ(Opts.LinkerArgs, args({"--as-needed", "-z", "now", "-O1"}));
  EXPECT_EQ(Opts.HostCompiler, "/opt/gcc/bin");
  EXPECT_EQ(Opts.HostOptLevel, 2);
  EXPECT_EQ(Opts.OptLevel, 2u);
  EXPECT_EQ(Opts.LibraryArgs, args({"-lcuda", "-L/x", "-lm"}))
      << "in order; -lcudart is -cudart's business";
  EXPECT_EQ(Opts.PreprocessorArgs, args({"-isystem", "/sys"}));
  EXPECT_EQ(Opts.Std, "c++20");
  EXPECT_EQ(Opts.Ftz, 1);
}

TEST(CuccOptions, UnknownOptionsGoToTheHostCompilerWhenAsked) {
  EXPECT_EQ(parseError({"-fopenmp", "k.cu"}), "Unknown option '-fopenmp'");
  Options Opts = parse(
      {"-fopenmp", "k.cu", "-forward-unknown-to-host-compiler", "-Wshadow"});
  EXPECT_EQ(Opts.HostCompilerArgs, args({"-fopenmp", "-Wshadow"}))
      << "the flag holds for the whole line, as nvcc's";
}

TEST(CuccOptions, RuntimeAndDefaultStreamTakeNvccsValues) {
  EXPECT_EQ(parse({"-cudart", "shared", "k.cu"}).Runtime, CudaRuntime::Shared);
  EXPECT_EQ(parse({"--cudart=none", "k.cu"}).Runtime, CudaRuntime::None);
  EXPECT_EQ(parse({"-cudart=static", "k.cu"}).Runtime, CudaRuntime::Static);
  EXPECT_EQ(parseError({"-cudart", "dynamic", "k.cu"}),
            "Value 'dynamic' is not defined for option 'cudart'");
  EXPECT_TRUE(
      parse({"-default-stream", "per-thread", "k.cu"}).PerThreadDefaultStream);
  EXPECT_FALSE(
      parse({"--default-stream=legacy", "k.cu"}).PerThreadDefaultStream);
  EXPECT_NE(parseError({"-default-stream", "fast", "k.cu"}), "");
}

TEST(CuccOptions, HostObjectsHoldSeveralArchitectures) {
  Options Opts = parse({"-c", "-gencode", "arch=compute_75,code=sm_75",
                        "--generate-code=arch=compute_80,code=[compute_80,"
                        "sm_80]",
                        "k.cu"});
  EXPECT_EQ(Opts.Archs, args({"sm_75", "sm_80"}))
      << "the embedded fat binary has one image per architecture";
}

TEST(CuccHostPass, EmbedsTheFatBinaryWithTheDevicePassesId) {
  Options Opts = parse({"-default-stream", "per-thread", "-shared", "-DX=1",
                        "-Xcompiler", "-Wall", "-g", "k.cu"});
  Toolchain Tools = fakeTools();
  auto Cmd =
      hostPassCommand(Opts, Tools, "k.cu", "/tmp/k.fatbin", "abc", "/tmp/k.o");
  ASSERT_FALSE(Cmd.empty());
  EXPECT_EQ(Cmd[0], Tools.Clang) << "clang's CUDA host pass";
  EXPECT_NE(find(Cmd, "--cuda-host-only"), Cmd.size());
  size_t Gpubinary = find(Cmd, "-fcuda-include-gpubinary");
  ASSERT_LT(Gpubinary + 2, Cmd.size());
  EXPECT_EQ(Cmd[Gpubinary + 2], "/tmp/k.fatbin");
  EXPECT_NE(find(Cmd, "-cuid=abc"), Cmd.size()) << "the device pass's id";
  EXPECT_NE(find(Cmd, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"), Cmd.size())
      << "as nvcc defines it for -default-stream per-thread";
  EXPECT_NE(find(Cmd, "-fPIC"), Cmd.size()) << "for a shared library";
  EXPECT_NE(find(Cmd, "-DX=1"), Cmd.size());
  EXPECT_NE(find(Cmd, "-Wall"), Cmd.size()) << "-Xcompiler";
  EXPECT_NE(find(Cmd, "-g"), Cmd.size());
  EXPECT_NE(find(Cmd, Tools.RuntimeHeader), Cmd.size())
      << "cuda_runtime.h is force-included, as nvcc does";
  EXPECT_EQ(find(Cmd, "-D__CUDA_ARCH__=750"), Cmd.size())
      << "host code sees no __CUDA_ARCH__";
  auto Device = clangCommand(Opts, Tools, "sm_75", "/tmp/k.bc", "abc");
  EXPECT_NE(find(Device, "-cuid=abc"), Device.size()) << "the same id";
  EXPECT_NE(find(Device, Tools.RuntimeHeader), Device.size())
      << "in both passes";
}

TEST(CuccHostPass, HostFilesGoToTheHostCompilerWithTheToolkitHeaders) {
  Options Opts = parse({"-O2", "-std=c++20", "-Iinc", "main.cpp", "util.c"});
  auto Cxx = hostCompilerCommand(Opts, fakeTools(), "/usr/bin/g++",
                                 Opts.Inputs[0], "main.o");
  EXPECT_EQ(Cxx[0], "/usr/bin/g++");
  EXPECT_NE(find(Cxx, "c++"), Cxx.size()) << "the language is explicit";
  EXPECT_LT(find(Cxx, "-Iinc"), find(Cxx, "-I/src/include"))
      << "the user's folders first, then the toolkit's (cuda_runtime.h)";
  EXPECT_NE(find(Cxx, "-O2"), Cxx.size());
  EXPECT_NE(find(Cxx, "-std=c++20"), Cxx.size());
  auto C = hostCompilerCommand(Opts, fakeTools(), "/usr/bin/g++",
                               Opts.Inputs[1], "util.o");
  EXPECT_NE(find(C, "c"), C.size()) << "g++ would compile a .c file as C++";
  EXPECT_EQ(find(C, "-std=c++20"), C.size()) << "no C++ standard for C";
}

TEST(CuccLink, TheRuntimeOfCudartComesFromTheLibraryFolder) {
  Toolchain Tools = fakeTools();
  Options Static = parse({"-lcuda", "-Xlinker", "-z,now", "k.cu"});
  auto Cmd = linkCommand(Static, Tools, "g++", {"k.o", "libx.a"}, "app");
  EXPECT_LT(find(Cmd, "k.o"), find(Cmd, "-lcudart_static"))
      << "objects before the libraries they use";
  EXPECT_LT(find(Cmd, "-L/build/lib"), find(Cmd, "-lcuda"))
      << "a user's -lcuda finds cucpu's libcuda";
  EXPECT_NE(find(Cmd, "-Wl,-rpath,/build/lib"), Cmd.size())
      << "the program runs without LD_LIBRARY_PATH";
  EXPECT_NE(find(Cmd, "-ldl"), Cmd.size()) << "what -cudart static needs";
  EXPECT_NE(find(Cmd, "-Xlinker"), Cmd.size());
  Options Shared = parse({"-cudart", "shared", "-shared", "k.cu"});
  Cmd = linkCommand(Shared, Tools, "g++", {"k.o"}, "libk.so");
  EXPECT_NE(find(Cmd, "-lcudart"), Cmd.size());
  EXPECT_NE(find(Cmd, "-shared"), Cmd.size());
  EXPECT_EQ(find(Cmd, "-lcudart_static"), Cmd.size());
  Options None = parse({"-cudart", "none", "k.cu"});
  Cmd = linkCommand(None, Tools, "g++", {"k.o"}, "app");
  EXPECT_EQ(find(Cmd, "-lcudart"), Cmd.size());
  EXPECT_EQ(find(Cmd, "-lcudart_static"), Cmd.size());
}

TEST(Cucc, DryRunShowsEveryStageOfAProgram) {
  TempFile Stderr("txt");
  ASSERT_EQ(0, runCucc({"--dryrun", "-o", "app", inputPath("program_kernel.cu"),
                        inputPath("program_main.cpp"), "-lm"},
                       Stderr.Path));
  std::string Log = readText(Stderr.Path);
  size_t Device = Log.find("--cuda-device-only");
  size_t Host = Log.find("--cuda-host-only");
  size_t HostCxx = Log.find("program_main.cpp");
  size_t Link = Log.find("-o app");
  ASSERT_NE(Device, std::string::npos) << Log;
  ASSERT_NE(Host, std::string::npos) << Log;
  ASSERT_NE(Link, std::string::npos) << Log;
  EXPECT_LT(Device, Host) << "the fat binary exists before the host pass";
  EXPECT_LT(Host, HostCxx);
  EXPECT_LT(HostCxx, Link) << "the link comes last:\n" << Log;
  size_t Cuid = Log.find("-cuid=");
  ASSERT_NE(Cuid, std::string::npos);
  std::string Id = Log.substr(Cuid, Log.find(' ', Cuid) - Cuid);
  EXPECT_NE(Log.find(Id, Host), std::string::npos)
      << "both passes share " << Id;
  EXPECT_NE(Log.find("-lcudart_static", Link), std::string::npos) << Log;
  EXPECT_NE(Log.find("-lm", Link), std::string::npos) << Log;
  EXPECT_NE(Log.find("-Wl,-rpath,", Link), std::string::npos) << Log;
  EXPECT_FALSE(sys::fs::exists("app")) << "--dryrun writes nothing";
}

TEST(Cucc, HostObjectsEmbedTheFatBinary) {
  TempFile Object("o"), Stderr("txt");
  ASSERT_EQ(0, runCucc({"-c", "-o", std::string(Object.Path),
                        inputPath("program_kernel.cu")},
                       Stderr.Path))
      << readText(Stderr.Path);
  auto File = object::ObjectFile::createObjectFile(Object.Path);
  ASSERT_TRUE(bool(File)) << toString(File.takeError());
  bool Wrapper = false;
  for (const object::SectionRef &Section : File->getBinary()->sections()) {
    Expected<StringRef> Name = Section.getName();
    ASSERT_TRUE(bool(Name));
    if (*Name == ".nvFatBinSegment")
      Wrapper = true;
    if (*Name != ".nv_fatbin")
      continue;
    Expected<StringRef> Contents = Section.getContents();
    ASSERT_TRUE(bool(Contents));
    ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Contents->data()),
                            Contents->size());
    auto Entries = loader::readFatBinary(Bytes);
    ASSERT_TRUE(bool(Entries)) << toString(Entries.takeError());
    ASSERT_EQ(Entries->size(), 1u) << "one image, for sm_75";
    auto Image = loader::readImage((*Entries)[0].Payload);
    ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
    ASSERT_EQ(Image->Kernels.size(), 1u);
    EXPECT_EQ(Image->Kernels[0].Name, "_Z6addOnePii");
  }
  EXPECT_TRUE(Wrapper) << "the wrapper __cudaRegisterFatBinary gets";
}

TEST(Cucc, CompileErrorsStopTheBuild) {
  TempFile Stderr("txt");
  SmallString<256> Out(Stderr.Path);
  sys::path::replace_extension(Out, "out");
  EXPECT_EQ(1, runCucc({"-o", std::string(Out), inputPath("syntax_error.cu"),
                        inputPath("program_main.cpp")},
                       Stderr.Path));
  EXPECT_NE(readText(Stderr.Path).find("error:"), std::string::npos);
  EXPECT_FALSE(sys::fs::exists(Out)) << "nothing is linked";
}

TEST(Cucc, LibWritesAnArchiveOfHostObjects) {
  TempFile Archive("a"), Stderr("txt");
  sys::fs::remove(Archive.Path);
  ASSERT_EQ(0, runCucc({"-lib", "-o", std::string(Archive.Path),
                        inputPath("program_kernel.cu"),
                        inputPath("program_main.cpp")},
                       Stderr.Path))
      << readText(Stderr.Path);
  EXPECT_EQ(readText(Archive.Path).substr(0, 8), "!<arch>\n");
}

#ifdef CUCC_HAVE_CUDART
/// A two-file program (a .cu with its kernel, a .cpp host file) linked
/// with cucpu's libcudart, run without LD_LIBRARY_PATH.
class TwoFileProgram : public ::testing::TestWithParam<const char *> {};

TEST_P(TwoFileProgram, RunsItsKernelThroughTheRuntime) {
  TempFile Exe("exe"), Stdout("txt"), Stderr("txt");
  ASSERT_EQ(0, runCucc({"-cudart", GetParam(), "-o", std::string(Exe.Path),
                        inputPath("program_kernel.cu"),
                        inputPath("program_main.cpp")},
                       Stderr.Path))
      << readText(Stderr.Path);
  EXPECT_EQ(0, runProgram(Exe.Path, {}, Stderr.Path, Stdout.Path))
      << readText(Stdout.Path) << readText(Stderr.Path);
  EXPECT_EQ(readText(Stdout.Path), "PASSED\n") << readText(Stderr.Path);
}

INSTANTIATE_TEST_SUITE_P(Cudart, TwoFileProgram,
                         ::testing::Values("static", "shared"));

/// Debug builds (-G; -O0 with -g) run their kernels: clang keeps the unused
/// declarations of threadIdx and friends at -O0, which the JIT drops.
class DebugBuild : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(DebugBuild, RunsItsKernels) {
  TempFile Exe("exe"), Stdout("txt"), Stderr("txt");
  std::vector<std::string> Args = GetParam();
  Args.insert(Args.end(),
              {"-o", std::string(Exe.Path), inputPath("program_kernel.cu"),
               inputPath("program_main.cpp")});
  ASSERT_EQ(0, runCucc(Args, Stderr.Path)) << readText(Stderr.Path);
  EXPECT_EQ(0, runProgram(Exe.Path, {}, Stderr.Path, Stdout.Path))
      << readText(Stdout.Path) << readText(Stderr.Path);
  EXPECT_EQ(readText(Stdout.Path), "PASSED\n") << readText(Stderr.Path);
}

INSTANTIATE_TEST_SUITE_P(
    Cudart, DebugBuild,
    ::testing::Values(std::vector<std::string>{"-G"},
                      std::vector<std::string>{"-O0", "-g"},
                      std::vector<std::string>{"-lineinfo"}));

/// A program as nvcc builds it from \p Source in inputs/, run; it prints
/// PASSED.
void buildAndRun(const char *Source) {
  TempFile Exe("exe"), Stdout("txt"), Stderr("txt");
  ASSERT_EQ(
      0, runCucc({"-o", std::string(Exe.Path), inputPath(Source)}, Stderr.Path))
      << readText(Stderr.Path);
  EXPECT_EQ(0, runProgram(Exe.Path, {}, Stderr.Path, Stdout.Path))
      << readText(Stdout.Path) << readText(Stderr.Path);
  EXPECT_EQ(readText(Stdout.Path), "PASSED\n") << readText(Stderr.Path);
}

/// Thrust and CUB as Debian packages them: their CUDA back end compiles
/// (the device runtime's declarations, cuda_occupancy.h) and runs, CUB's
/// multi-pass radix sort included.
TEST(Cudart, ThrustProgramRuns) {
  if (!sys::fs::exists("/usr/include/thrust/version.h"))
    GTEST_SKIP() << "Thrust is not installed (tools/bootstrap.sh installs "
                    "libthrust-dev and libcub-dev)";
  buildAndRun("thrust_program.cu");
}

/// cuda_occupancy.h's calculator agrees with the runtime's.
TEST(Cudart, OccupancyCalculatorAgreesWithTheRuntime) {
  buildAndRun("occupancy_program.cu");
}

/// Relocatable device code across two files: a kernel in one calls a
/// __device__ function and reads a __device__ variable of the other, built
/// in one step, or compiled with -c and linked, or device-linked with
/// -dlink and linked by the host compiler (DeviceLink.h).
TEST(Cudart, RelocatableDeviceCodeAcrossFiles) {
  TempFile Exe("exe"), Stdout("txt"), Stderr("txt"), Main("o"), Lib("o"),
      Dlink("o");
  auto Run = [&](const char *How) {
    EXPECT_EQ(0, runProgram(Exe.Path, {}, Stderr.Path, Stdout.Path))
        << How << ": " << readText(Stdout.Path) << readText(Stderr.Path);
    EXPECT_EQ(readText(Stdout.Path), "PASSED\n") << How;
  };
  ASSERT_EQ(0, runCucc({"-rdc=true", "-o", std::string(Exe.Path),
                        inputPath("rdc_main.cu"), inputPath("rdc_lib.cu")},
                       Stderr.Path))
      << readText(Stderr.Path);
  Run("one step");
  ASSERT_EQ(0, runCucc({"-rdc=true", "-c", "-o", std::string(Main.Path),
                        inputPath("rdc_main.cu")},
                       Stderr.Path))
      << readText(Stderr.Path);
  ASSERT_EQ(0, runCucc({"-rdc=true", "-c", "-o", std::string(Lib.Path),
                        inputPath("rdc_lib.cu")},
                       Stderr.Path))
      << readText(Stderr.Path);
  ASSERT_EQ(0, runCucc({"-o", std::string(Exe.Path), std::string(Main.Path),
                        std::string(Lib.Path)},
                       Stderr.Path))
      << readText(Stderr.Path);
  Run("-c, then a link");
  ASSERT_EQ(0, runCucc({"-dlink", "-o", std::string(Dlink.Path),
                        std::string(Main.Path), std::string(Lib.Path)},
                       Stderr.Path))
      << readText(Stderr.Path);
  ASSERT_EQ(0, runCucc({"-o", std::string(Exe.Path), std::string(Main.Path),
                        std::string(Lib.Path), std::string(Dlink.Path)},
                       Stderr.Path))
      << readText(Stderr.Path);
  Run("-dlink, then a link");
}
#endif

TEST(DeviceLink, DefinesEachRegistrationAsACallOfTheRuntime) {
  std::string Source = deviceLinkSource(
      {"__cudaRegisterLinkedBinary__nv_1", "__cudaRegisterLinkedBinary__nv_2"});
  EXPECT_NE(Source.find("void __cudaRegisterLinkedBinary__nv_1("),
            std::string::npos);
  EXPECT_NE(Source.find("void __cudaRegisterLinkedBinary__nv_2("),
            std::string::npos);
  EXPECT_NE(Source.find("__cudaRegisterRelocatableBinary(RegisterGlobals, "
                        "FatCubin, &LinkUnit)"),
            std::string::npos)
      << "one token for the whole link";
}

TEST(DeviceLink, DlinkTakesObjectsOnly) {
  Options Opts = parse({"-dlink", "a.o", "b.o"});
  EXPECT_EQ(Opts.Kind, OutputKind::DeviceLink);
  EXPECT_EQ(Opts.outputPath(), "a_dlink.o") << "nvcc's default name";
  EXPECT_NE(parseError({"-dlink", "a.cu"}).find("-c -rdc=true"),
            std::string::npos)
      << "sources are compiled with -c -rdc=true first";
}

} // namespace

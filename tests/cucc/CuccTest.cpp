//===- CuccTest.cpp - Tests of cucc's options and image description -------===//
//
// cucc end to end (the binary, on the sources in inputs/) and its stages
// (Options, ImageBuilder) directly. The corpus of kernel snippets is checked
// with FileCheck by the cucc.corpus.* tests (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "CuccTestSupport.h"
#include "Options.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/image/ImageBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace llvm;
using namespace cucpu;
using namespace cucpu::cucc;
using namespace cucpu::image;
using namespace cucpu::cucc::test;

namespace {

/// Compiles inputs/params.cu with cucc and describes it.
class ParamsImage : public ::testing::Test {
protected:
  void SetUp() override {
    TempFile Bitcode("bc");
    ASSERT_EQ(0, runCucc({"--emit-llvm", "-o", std::string(Bitcode.Path),
                          inputPath("params.cu")}))
        << "params.cu is valid CUDA";
    auto Buffer = MemoryBuffer::getFile(Bitcode.Path);
    ASSERT_TRUE(bool(Buffer));
    auto M = parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
    ASSERT_TRUE(bool(M)) << toString(M.takeError());
    Mod = std::move(*M);
    auto I = buildImage(*Mod, "sm_75", producerString());
    ASSERT_TRUE(bool(I)) << toString(I.takeError());
    Image = std::move(*I);
  }

  const loader::KernelInfo *kernel(StringRef Name) {
    for (const loader::KernelInfo &K : Image.Kernels)
      if (K.Name == Name)
        return &K;
    return nullptr;
  }
  const loader::GlobalInfo *global(StringRef Name) {
    for (const loader::GlobalInfo &G : Image.Globals)
      if (G.Name == Name)
        return &G;
    return nullptr;
  }

  LLVMContext Ctx;
  std::unique_ptr<Module> Mod;
  loader::ModuleImage Image;
};

TEST_F(ParamsImage, MixedParametersFollowTheCudaParameterBufferLayout) {
  const loader::KernelInfo *K = kernel("_Z5mixedcdPi5Mixeds6float4b");
  ASSERT_NE(K, nullptr) << "the kernel is listed under its mangled IR name";
  // Hand-computed: each parameter at the next multiple of its alignment.
  const loader::KernelParam Expected[] = {
      {0, 1, 1},    // char
      {8, 8, 8},    // double
      {16, 8, 8},   // int * (pointers are 8 bytes)
      {24, 24, 8},  // struct Mixed by value
      {48, 2, 2},   // short
      {64, 16, 16}, // float4 (16-aligned)
      {80, 1, 1},   // bool
  };
  ASSERT_EQ(K->Params.size(), std::size(Expected)) << "seven parameters";
  for (size_t I = 0; I < std::size(Expected); ++I) {
    EXPECT_EQ(K->Params[I].Offset, Expected[I].Offset) << "parameter " << I;
    EXPECT_EQ(K->Params[I].Size, Expected[I].Size) << "parameter " << I;
    EXPECT_EQ(K->Params[I].Align, Expected[I].Align) << "parameter " << I;
  }
  EXPECT_EQ(K->ParamBytes, 81u) << "the buffer ends after the bool";
}

TEST_F(ParamsImage, KernelFactsComeFromTheCodeItCanReach) {
  const loader::KernelInfo *K = kernel("_Z5mixedcdPi5Mixeds6float4b");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->StaticShared, 96u)
      << "Tile (80 bytes) plus helper's H (16 bytes), reached through a call";
  EXPECT_EQ(K->MaxThreadsPerBlock, 256u) << "from __launch_bounds__(256)";
  EXPECT_EQ(K->Uses, uint32_t(loader::UsesBarrier | loader::UsesAtomics |
                              loader::UsesPrintf | loader::UsesAssert))
      << "__syncthreads, atomicAdd, printf and assert";

  const loader::KernelInfo *Plain = kernel("_Z5plainPi");
  ASSERT_NE(Plain, nullptr);
  EXPECT_EQ(Plain->StaticShared, 0u) << "no shared variables";
  EXPECT_EQ(Plain->Uses, 0u) << "a plain store uses nothing special";
  EXPECT_EQ(Plain->MaxThreadsPerBlock, 0u) << "no __launch_bounds__";
  EXPECT_EQ(Plain->ParamBytes, 8u) << "one pointer";

  const loader::KernelInfo *Dyn = kernel("_Z7dynamicPf");
  ASSERT_NE(Dyn, nullptr);
  EXPECT_EQ(Dyn->StaticShared, 0u) << "extern __shared__ is sized at launch";
  EXPECT_EQ(Dyn->Uses,
            uint32_t(loader::UsesDynamicShared | loader::UsesWarpFunctions))
      << "extern __shared__ and a shuffle";
  EXPECT_EQ(Image.Kernels.size(), 3u) << "helper is not a kernel";
}

TEST_F(ParamsImage, GlobalsCarryTheirInitializers) {
  const loader::GlobalInfo *Counter = global("Counter");
  ASSERT_NE(Counter, nullptr);
  EXPECT_EQ(Counter->Space, loader::GlobalSpace::Device);
  EXPECT_EQ(Counter->Size, 4u);
  EXPECT_EQ(Counter->Align, 4u);
  EXPECT_EQ(Counter->Initializer, (std::vector<uint8_t>{3, 0, 0, 0}))
      << "3, little-endian";

  const loader::GlobalInfo *Coeffs = global("Coeffs");
  ASSERT_NE(Coeffs, nullptr);
  EXPECT_EQ(Coeffs->Space, loader::GlobalSpace::Constant);
  EXPECT_EQ(Coeffs->Size, 12u);
  float Expected[3] = {1.0f, 2.0f, 3.0f};
  ASSERT_EQ(Coeffs->Initializer.size(), 12u);
  EXPECT_EQ(0, std::memcmp(Coeffs->Initializer.data(), Expected, 12))
      << "three floats";

  const loader::GlobalInfo *Zeros = global("Zeros");
  ASSERT_NE(Zeros, nullptr);
  EXPECT_EQ(Zeros->Size, 32u);
  EXPECT_EQ(Zeros->Align, 8u);
  EXPECT_TRUE(Zeros->Initializer.empty()) << "zero-initialized: no bytes";
  EXPECT_EQ(Image.Globals.size(), 3u)
      << "shared variables and string constants are not module globals";
  EXPECT_EQ(Image.TargetArch, "sm_75");
  EXPECT_FALSE(Image.Bitcode.empty());
}

/// inputs/textures.cu compiled at -O0 and -O3.
class TexturesImage : public ::testing::TestWithParam<const char *> {};

TEST_P(TexturesImage, TextureReferencesCarryTheirDeclaredTypes) {
  TempFile Bitcode("bc");
  ASSERT_EQ(0, runCucc({"--emit-llvm", GetParam(), "-o",
                        std::string(Bitcode.Path), inputPath("textures.cu")}));
  auto Buffer = MemoryBuffer::getFile(Bitcode.Path);
  ASSERT_TRUE(bool(Buffer));
  LLVMContext Ctx;
  auto M = parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  auto Image = buildImage(**M, "sm_75", producerString());
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());

  ASSERT_EQ(3u, Image->TexRefs.size());
  const loader::TexRefInfo &A = Image->TexRefs[0], &B = Image->TexRefs[1],
                           &C = Image->TexRefs[2];
  EXPECT_EQ("image", A.Name);
  EXPECT_EQ(2u, A.Dimensions);
  EXPECT_EQ(1u, A.ReadMode) << "normalized float";
  EXPECT_EQ(1u, A.ChannelKind) << "unsigned";
  EXPECT_EQ(8u, A.ChannelBits);
  EXPECT_EQ(4u, A.Channels);
  EXPECT_EQ("samples", B.Name);
  EXPECT_EQ(1u, B.Dimensions);
  EXPECT_EQ(0u, B.ReadMode);
  EXPECT_EQ(2u, B.ChannelKind) << "float";
  EXPECT_EQ(32u, B.ChannelBits);
  EXPECT_EQ(1u, B.Channels);
  EXPECT_EQ("unused", C.Name);
  EXPECT_EQ(0u, C.Dimensions) << "no fetch tells its type";
  EXPECT_EQ(0u, C.Channels);
  ASSERT_EQ(1u, Image->Globals.size()) << "texture references are no globals";
  EXPECT_EQ("counter", Image->Globals[0].Name);
  ASSERT_EQ(1u, Image->Kernels.size());
  EXPECT_TRUE(Image->Kernels[0].Uses & loader::UsesTextures);
}

INSTANTIATE_TEST_SUITE_P(OptLevels, TexturesImage,
                         ::testing::Values("-O0", "-O3"));

TEST(Cucc, CubinRoundTripsThroughTheLoader) {
  TempFile Cubin("cubin");
  ASSERT_EQ(0, runCucc({"-cubin", "-arch=sm_75", "-o", std::string(Cubin.Path),
                        inputPath("params.cu")}));
  auto Buffer = MemoryBuffer::getFile(Cubin.Path);
  ASSERT_TRUE(bool(Buffer));
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
      (*Buffer)->getBufferSize());
  auto Image = loader::readImage(Bytes);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  EXPECT_EQ(Image->Kernels.size(), 3u) << "the loader sees every kernel";
  EXPECT_EQ(Image->TargetArch, "sm_75");
  EXPECT_EQ(Image->Producer, producerString());
}

TEST(Cucc, WarpReductionsPassTheValueThenTheMask) {
  // redux.sync takes (value, mask); clang 19's own header swaps them.
  TempFile Bitcode("bc");
  ASSERT_EQ(0,
            runCucc({"--emit-llvm", "-arch=sm_80", "-o",
                     std::string(Bitcode.Path), inputPath("warp_reduce.cu")}));
  auto Buffer = MemoryBuffer::getFile(Bitcode.Path);
  ASSERT_TRUE(bool(Buffer));
  LLVMContext Ctx;
  auto M = parseBitcodeFile((*Buffer)->getMemBufferRef(), Ctx);
  ASSERT_TRUE(bool(M)) << toString(M.takeError());
  unsigned Calls = 0;
  for (Function &F : **M)
    if (F.getName().starts_with("llvm.nvvm.redux.sync."))
      for (User *U : F.users())
        if (auto *Call = dyn_cast<CallInst>(U)) {
          ++Calls;
          auto *Mask = dyn_cast<ConstantInt>(Call->getArgOperand(1));
          EXPECT_TRUE(Mask && Mask->getZExtValue() == 0xffff)
              << F.getName().str() << ": the mask is the second operand";
          EXPECT_FALSE(isa<ConstantInt>(Call->getArgOperand(0)))
              << F.getName().str() << ": the value is the first operand";
        }
  EXPECT_EQ(6u, Calls) << "one redux.sync per reduction";
}

TEST(Cucc, SyntaxErrorsAreReportedWithFileLineAndColumn) {
  TempFile Stderr("txt"), Out("cubin");
  std::string Source = inputPath("syntax_error.cu");
  int RC =
      runCucc({"-cubin", "-o", std::string(Out.Path), Source}, Stderr.Path);
  EXPECT_NE(RC, 0) << "a file that does not compile fails";
  EXPECT_NE(readText(Stderr.Path).find(Source + ":2:11: error:"),
            std::string::npos)
      << "clang's diagnostic names file:line:col; got:\n"
      << readText(Stderr.Path);
}

TEST(Cucc, DryRunShowsTheStagesAndRunsNone) {
  TempFile Stderr("txt");
  SmallString<256> Out(Stderr.Path);
  sys::path::replace_extension(Out, "cubin");
  ASSERT_EQ(0, runCucc({"--dryrun", "-cubin", "-o", std::string(Out),
                        inputPath("params.cu")},
                       Stderr.Path));
  std::string Log = readText(Stderr.Path);
  EXPECT_NE(Log.find("#$ "), std::string::npos) << Log;
  EXPECT_NE(Log.find("--cuda-gpu-arch=sm_75"), std::string::npos)
      << "sm_75 is the default architecture";
  EXPECT_NE(Log.find("prelude.h"), std::string::npos)
      << "the device prelude is force-included";
  EXPECT_FALSE(sys::fs::exists(Out)) << "--dryrun writes nothing";
}

TEST(Cucc, UnknownOptionsAreUsageErrors) {
  TempFile Stderr("txt");
  EXPECT_EQ(2,
            runCucc({"--no-such-option", inputPath("params.cu")}, Stderr.Path));
  EXPECT_NE(readText(Stderr.Path)
                .find("cucc fatal   : Unknown option '--no-such-option'"),
            std::string::npos)
      << "nvcc's message, with the name cucc was invoked as; got:\n"
      << readText(Stderr.Path);
}

TEST(Cucc, PtxIsRealPtxFromClangsBackEnd) {
  TempFile Ptx("ptx"), Stderr("txt");
  ASSERT_EQ(0, runCucc({"--ptx", "-arch=sm_120", "-o", std::string(Ptx.Path),
                        inputPath("params.cu")},
                       Stderr.Path))
      << readText(Stderr.Path);
  std::string Text = readText(Ptx.Path);
  EXPECT_NE(Text.find(".target sm_90"), std::string::npos)
      << "PTX for the newest architecture clang knows:\n"
      << Text;
  EXPECT_NE(Text.find(".entry"), std::string::npos) << "the kernels";
}

TEST(Cucc, PreprocessAndDependenciesWriteWhatNvccWrites) {
  TempFile Out("ii"), Deps("d");
  ASSERT_EQ(0, runCucc({"-E", "-DMARK=cucc_was_here", "-o",
                        std::string(Out.Path), inputPath("arch.cu")}));
  EXPECT_NE(readText(Out.Path).find("= 750;"), std::string::npos)
      << "-E expands __CUDA_ARCH__ and writes the source:\n"
      << readText(Out.Path);
  ASSERT_EQ(0, runCucc({"-M", "-o", std::string(Deps.Path),
                        inputPath("toolkit_headers.cu")}));
  EXPECT_NE(readText(Deps.Path).find("math_constants.h"), std::string::npos)
      << "-M lists the headers:\n"
      << readText(Deps.Path);
}

TEST(Cucc, VersionHasNvccsShape) {
  TempFile Out("txt");
  std::vector<StringRef> Argv = {CUCC_PATH, "--version"};
  std::optional<StringRef> Redirects[] = {std::nullopt, Out.Path.str(),
                                          std::nullopt};
  ASSERT_EQ(0, sys::ExecuteAndWait(CUCC_PATH, Argv, std::nullopt, Redirects));
  std::string Text = readText(Out.Path);
  EXPECT_NE(Text.find("Cuda compilation tools, release 13.0, V13.0."),
            std::string::npos)
      << "the line CMake and build scripts parse:\n"
      << Text;
  EXPECT_NE(Text.find("cucc"), std::string::npos) << "it says it is cucc";
}

TEST(CuccOptions, NvccsOtherOptionsAreAccepted) {
  TempFile Response("txt");
  {
    std::error_code EC;
    raw_fd_ostream OS(Response.Path, EC);
    OS << "-arch=sm_90 --expt-relaxed-constexpr\n-Xcompiler \"-fPIC -g\"\n";
  }
  auto Opts = parseCommandLine(args({"--cubin",
                                     "-Xptxas",
                                     "-v",
                                     "-Xnvlink",
                                     "x",
                                     "--use_fast_math",
                                     "-std=c++14",
                                     "--expt-extended-lambda",
                                     "--extended-lambda",
                                     "-rdc=false",
                                     "--relocatable-device-code",
                                     "false",
                                     "-lineinfo",
                                     "-G",
                                     "-g",
                                     "-O2",
                                     "--keep",
                                     "--machine",
                                     "64",
                                     "-m64",
                                     "--threads",
                                     "4",
                                     "-diag-suppress",
                                     "177,550",
                                     "--disable-warnings",
                                     "-x",
                                     "cu",
                                     "--compiler-options=-O3",
                                     "-odir",
                                     "out",
                                     "-MD",
                                     "-MF",
                                     "k.d",
                                     "-Werror",
                                     "all-warnings",
                                     "-v",
                                     "--dryrun",
                                     "k.cu"}));
  ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
  auto WithFile =
      parseCommandLine({"@" + std::string(Response.Path), "-cubin", "k.cu"});
  ASSERT_TRUE(bool(WithFile)) << toString(WithFile.takeError());
  EXPECT_EQ(WithFile->Archs, args({"sm_90"})) << "read from the @file";
  auto Optf = parseCommandLine({"--options-file", std::string(Response.Path),
                                "-cubin", "-odir", "out", "k.cu"});
  ASSERT_TRUE(bool(Optf)) << toString(Optf.takeError());
  EXPECT_EQ(Optf->outputPath(), "out/k.cubin") << "-odir holds the output";
  auto Dlink = parseCommandLine(args({"-dlink", "k.o"}));
  ASSERT_TRUE(bool(Dlink)) << toString(Dlink.takeError());
  EXPECT_EQ(Dlink->Kind, OutputKind::DeviceLink)
      << "-dlink writes the device-link object";
}

TEST(CuccOptions, RelocatableDeviceCodeAsNvccSpellsIt) {
  for (auto Spelling :
       {args({"-rdc=true", "-cubin", "k.cu"}),
        args({"--relocatable-device-code=true", "-cubin", "k.cu"}),
        args({"-rdc", "true", "-cubin", "k.cu"})}) {
    auto Opts = parseCommandLine(Spelling);
    ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
    EXPECT_TRUE(Opts->Relocatable) << Spelling.front();
    EXPECT_EQ(Opts->outputPath(), "k.cubin");
  }
  auto Program = parseCommandLine(args({"-rdc=true", "k.cu"}));
  ASSERT_TRUE(bool(Program)) << toString(Program.takeError());
  EXPECT_TRUE(Program->Relocatable && Program->Kind == OutputKind::Executable)
      << "a program of relocatable device code, device-linked by cucc";
  auto Off =
      parseCommandLine(args({"-rdc=true", "-rdc", "false", "-cubin", "k.cu"}));
  ASSERT_TRUE(bool(Off)) << toString(Off.takeError());
  EXPECT_FALSE(Off->Relocatable) << "the last spelling wins";
  auto Dc = parseCommandLine(args({"-dc", "k.cu"}));
  ASSERT_TRUE(bool(Dc)) << toString(Dc.takeError());
  EXPECT_TRUE(Dc->Relocatable) << "-dc is -c -rdc=true";
  EXPECT_EQ(Dc->Kind, OutputKind::Cubin);
  EXPECT_EQ(Dc->outputPath(), "k.o") << "named like nvcc's -dc output";
}

TEST(Cucc, RdcWritesARelocatableImage) {
  TempFile Cubin("cubin"), Stderr("txt");
  ASSERT_EQ(0, runCucc({"-cubin", "-rdc=true", "-o", std::string(Cubin.Path),
                        inputPath("rdc.cu")}));
  auto Buffer = MemoryBuffer::getFile(Cubin.Path);
  ASSERT_TRUE(bool(Buffer));
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
      (*Buffer)->getBufferSize());
  auto Image = loader::readImage(Bytes);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  EXPECT_TRUE(Image->Relocatable) << "-rdc=true marks the image";
  ASSERT_EQ(Image->Kernels.size(), 1u);
  EXPECT_EQ(Image->Kernels[0].Name, "applyScale");
  EXPECT_TRUE(Image->Globals.empty())
      << "the extern variable is left to the image that defines it";

  // Without -rdc, an extern variable is an error that says what to do.
  TempFile Whole("cubin");
  EXPECT_NE(
      0, runCucc({"-cubin", "-o", std::string(Whole.Path), inputPath("rdc.cu")},
                 Stderr.Path));
  EXPECT_NE(readText(Stderr.Path).find("-rdc=true"), std::string::npos)
      << readText(Stderr.Path);
}

TEST(Cucc, DcWritesARelocatableImageNamedLikeAnObject) {
  SmallString<256> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("cucc-dc", Dir));
  ASSERT_EQ(0,
            runCucc({"-dc", "-odir", std::string(Dir), inputPath("rdc.cu")}));
  SmallString<256> Object(Dir);
  sys::path::append(Object, "rdc.o");
  auto Buffer = MemoryBuffer::getFile(Object);
  ASSERT_TRUE(bool(Buffer)) << "-dc writes <stem>.o";
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buffer)->getBufferStart()),
      (*Buffer)->getBufferSize());
  auto Image = loader::readImage(Bytes);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  EXPECT_TRUE(Image->Relocatable) << "a cucpu image, not a host object";
  sys::fs::remove(Object);
  sys::fs::remove(Dir);
}

TEST(CuccOptions, LinkStageLibrariesAreIgnoredAsNvccIgnoresThem) {
  // PyCUDA's DynamicModule compiles with "-rdc=true -lcudadevrt"; nvcc
  // accepts -l and -L (attached, separate, long forms) when it does not link.
  auto Opts = parseCommandLine(
      args({"--ptx", "-lcudadevrt", "-l", "m", "--library=foo", "--library",
            "bar", "-L/opt/cuda/lib64", "-L", "lib", "--library-path=/x",
            "--library-path", "/y", "-Xarchive", "-x", "-lineinfo", "k.cu"}));
  ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
  EXPECT_EQ(Opts->Kind, OutputKind::PTX);
  EXPECT_EQ(Opts->Input, "k.cu");
  EXPECT_TRUE(Opts->LineInfo) << "-lineinfo is not -l ineinfo";
  EXPECT_TRUE(Opts->PreprocessorArgs.empty());
  EXPECT_EQ(Opts->LibraryArgs,
            args({"-lcudadevrt", "-lm", "-lfoo", "-lbar", "-L/opt/cuda/lib64",
                  "-Llib", "-L/x", "-L/y"}))
      << "kept in order for a link, which -ptx does not run";
  auto Refused = parseCommandLine(args({"-lto", "k.cu"}));
  EXPECT_FALSE(bool(Refused)) << "-lto is an nvcc option of its own";
  consumeError(Refused.takeError());
  auto Lib = parseCommandLine(args({"-lib", "k.cu"}));
  ASSERT_TRUE(bool(Lib)) << toString(Lib.takeError());
  EXPECT_EQ(Lib->Kind, OutputKind::StaticLibrary) << "-lib is not -l ib";
}

TEST(Cucc, ToolkitHeadersAreFoundByName) {
  TempFile IR("ll"), Stderr("txt");
  EXPECT_EQ(0, runCucc({"--emit-llvm", "-o", std::string(IR.Path),
                        inputPath("toolkit_headers.cu")},
                       Stderr.Path))
      << "cuda.h and every toolkit device header nvcc's include folder has "
         "are found, as with nvcc:\n"
      << readText(Stderr.Path);
}

TEST(Cucc, DeviceHeadersComeBeforeTheToolkitFolder) {
  TempFile Stderr("txt");
  ASSERT_EQ(
      0, runCucc({"--dryrun", "-cubin", inputPath("params.cu")}, Stderr.Path));
  std::string Log = readText(Stderr.Path);
  size_t Sdk = Log.find("-isystem " CUCC_SOURCE_INCLUDE "/cucpu/device/sdk ");
  size_t Toolkit = Log.find("-isystem " CUCC_SOURCE_INCLUDE " ");
  ASSERT_NE(Sdk, std::string::npos) << Log;
  ASSERT_NE(Toolkit, std::string::npos)
      << "the folder of cuda.h is on the path, as nvcc's include folder:\n"
      << Log;
  EXPECT_LT(Sdk, Toolkit) << "a kernel that includes <vector_types.h> or "
                             "<builtin_types.h> gets the device version, not "
                             "the host header of the same name";
}

TEST(CuccOptions, NvccSpellingsAreAccepted) {
  auto Opts = parseCommandLine(
      args({"-cubin", "-o", "k.cubin", "-I", "inc", "-DX=1", "-O1", "-G",
            "-lineinfo", "--gpu-architecture=compute_80", "k.cu"}));
  ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
  EXPECT_EQ(Opts->Kind, OutputKind::Cubin);
  EXPECT_EQ(Opts->Output, "k.cubin");
  EXPECT_EQ(Opts->PreprocessorArgs, args({"-Iinc", "-DX=1"}));
  EXPECT_EQ(Opts->OptLevel, 1u);
  EXPECT_TRUE(Opts->DeviceDebug);
  EXPECT_TRUE(Opts->LineInfo);
  EXPECT_EQ(Opts->Archs, args({"sm_80"})) << "compute_80 names sm_80";
}

TEST(CuccOptions, DefaultsAreAProgramForSm75) {
  auto Opts = parseCommandLine(args({"dir/kernel.cu"}));
  ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
  EXPECT_EQ(Opts->Kind, OutputKind::Executable)
      << "nvcc's default action compiles and links";
  EXPECT_EQ(Opts->outputPath(), "a.out");
  EXPECT_EQ(Opts->Archs, args({"sm_75"})) << "cucpu is compute capability 7.5";
  EXPECT_EQ(Opts->OptLevel, 3u) << "nvcc optimizes device code at -O3";
  EXPECT_EQ(Opts->HostOptLevel, -1) << "and gives the host compiler no -O";
  EXPECT_EQ(Opts->Runtime, CudaRuntime::Static) << "nvcc's -cudart static";
  auto Cubin = parseCommandLine(args({"-cubin", "dir/kernel.cu"}));
  ASSERT_TRUE(bool(Cubin)) << toString(Cubin.takeError());
  EXPECT_EQ(Cubin->outputPath(), "kernel.cubin") << "the stem, as nvcc does";
}

TEST(CuccOptions, GencodeListsArchitecturesForAFatBinary) {
  auto Opts = parseCommandLine(
      args({"-fatbin", "-gencode", "arch=compute_75,code=sm_75",
            "-gencode=arch=compute_80,code=[sm_80,compute_80]", "k.cu"}));
  ASSERT_TRUE(bool(Opts)) << toString(Opts.takeError());
  EXPECT_EQ(Opts->Archs, args({"sm_75", "sm_80"}));
  EXPECT_FALSE(
      bool(parseCommandLine(args({"-cubin", "-arch=sm_75,sm_80", "k.cu"}))))
      << "a cubin holds one architecture";
  auto Bad = parseCommandLine(args({"-arch=gfx90a", "k.cu"}));
  ASSERT_FALSE(bool(Bad)) << "not an NVIDIA architecture";
  EXPECT_NE(toString(Bad.takeError()).find("gfx90a"), std::string::npos);
}

TEST(CuccOptions, EveryArchitectureNvccListsIsAccepted) {
  // nvcc 13.0 --list-gpu-code, and the a/f variants nvcc accepts.
  for (const char *Arch :
       {"sm_75",   "sm_80",   "sm_86",   "sm_87",       "sm_88",
        "sm_89",   "sm_90",   "sm_90a",  "sm_100",      "sm_100a",
        "sm_100f", "sm_103",  "sm_103a", "sm_103f",     "sm_110",
        "sm_110a", "sm_110f", "sm_120",  "sm_120a",     "sm_120f",
        "sm_121",  "sm_121a", "sm_121f", "compute_120", "compute_100f",
        "sm_50",   "sm_60",   "sm_70",   "sm_72",       "sm_101"}) {
    auto Opts = parseCommandLine(args({"-arch", Arch, "k.cu"}));
    ASSERT_TRUE(bool(Opts)) << Arch << ": " << toString(Opts.takeError());
    std::string Expected = StringRef(Arch).starts_with("compute_")
                               ? "sm_" + StringRef(Arch).substr(8).str()
                               : Arch;
    EXPECT_EQ(Opts->Archs, args({Expected.c_str()}))
        << "one architecture, named as its real sm_XX";
  }
  EXPECT_EQ(listedArchs(false),
            args({"sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90",
                  "sm_100", "sm_110", "sm_103", "sm_120", "sm_121"}))
      << "what nvcc 13.0 --list-gpu-code prints, in its order";
}

TEST(CuccOptions, ArchitecturesNvccRefusesAreRefusedInItsWords) {
  for (const char *Arch : {"sm_77", "sm_75a", "sm_90f", "sm_89a", "sm_130",
                           "gfx90a", "sm_", "75"}) {
    auto Opts = parseCommandLine(args({"-arch", Arch, "k.cu"}));
    ASSERT_FALSE(bool(Opts)) << Arch << " is not an nvcc architecture";
    EXPECT_EQ(toString(Opts.takeError()),
              "Unsupported gpu architecture '" + std::string(Arch) + "'")
        << "nvcc's message";
  }
}

TEST(CuccOptions, NativeAllAndAllMajorExpandAsNvccDoes) {
  auto Native = parseCommandLine(args({"-arch=native", "k.cu"}));
  ASSERT_TRUE(bool(Native)) << toString(Native.takeError());
  EXPECT_EQ(Native->Archs, args({"sm_75"}))
      << "the machine's GPU is cucpu's device, compute capability 7.5";
  auto All = parseCommandLine(args({"-fatbin", "-arch=all", "k.cu"}));
  ASSERT_TRUE(bool(All)) << toString(All.takeError());
  EXPECT_EQ(All->Archs, listedArchs(false)) << "all: every listed arch";
  auto Major = parseCommandLine(args({"-fatbin", "-arch=all-major", "k.cu"}));
  ASSERT_TRUE(bool(Major)) << toString(Major.takeError());
  EXPECT_EQ(Major->Archs,
            args({"sm_75", "sm_80", "sm_90", "sm_100", "sm_110", "sm_120"}))
      << "what nvcc 13.0 --dryrun -arch=all-major compiles for";
}

TEST(CuccArchitectures, ClangRunsWithAnArchitectureItKnows) {
  EXPECT_EQ(clangArch("sm_75"), "sm_75");
  EXPECT_EQ(clangArch("sm_90a"), "sm_90a") << "clang 19 knows sm_90a";
  EXPECT_EQ(clangArch("sm_88"), "sm_87") << "the newest older one";
  EXPECT_EQ(clangArch("sm_120f"), "sm_90") << "clang 19 stops at sm_90";
  EXPECT_EQ(cudaArchValue("sm_121a"), 1210u);
  std::vector<std::string> Macros =
      archMacros("sm_100a", args({"sm_100a", "sm_80"}));
  EXPECT_EQ(Macros, args({"-U__CUDA_ARCH__", "-D__CUDA_ARCH__=1000",
                          "-D__CUDA_ARCH_LIST__=800,1000",
                          "-D__CUDA_ARCH_SPECIFIC__=1000",
                          "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000",
                          "-D__CUDA_ARCH_FEAT_SM100_ALL"}))
      << "the macros nvcc 13.0 passes for sm_100a (seen with --dryrun)";
}

/// Compiles inputs/arch.cu for one architecture and reads its IR.
class ArchIR : public ::testing::TestWithParam<std::pair<const char *, int>> {};

TEST_P(ArchIR, EveryNvccArchitectureCompilesWithNvccsArchMacro) {
  auto [Arch, Value] = GetParam();
  TempFile IR("ll"), Stderr("txt");
  ASSERT_EQ(0, runCucc({"--emit-llvm", std::string("-arch=") + Arch, "-o",
                        std::string(IR.Path), inputPath("arch.cu")},
                       Stderr.Path))
      << Arch << " compiles (clang's headers for it need the SDK's "
      << "address-space functions):\n"
      << readText(Stderr.Path);
  std::string Text = readText(IR.Path);
  EXPECT_NE(Text.find("store i32 " + std::to_string(Value)), std::string::npos)
      << "__CUDA_ARCH__ is " << Value << " for " << Arch << ", as nvcc's:\n"
      << Text;
  EXPECT_EQ(Text.find("isspacep"), std::string::npos)
      << "the address-space predicates need no NVVM intrinsic on the CPU";
}

INSTANTIATE_TEST_SUITE_P(Archs, ArchIR,
                         ::testing::Values(std::make_pair("sm_75", 750),
                                           std::make_pair("sm_90", 900),
                                           std::make_pair("sm_90a", 900),
                                           std::make_pair("sm_100f", 1000),
                                           std::make_pair("sm_110", 1100),
                                           std::make_pair("sm_120", 1200),
                                           std::make_pair("compute_121a",
                                                          1210)));

/// Describes hand-written NVVM IR.
Expected<loader::ModuleImage> describe(StringRef IR, LLVMContext &Ctx) {
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(IR, Diag, Ctx);
  if (!M)
    return createStringError(inconvertibleErrorCode(), Diag.getMessage());
  return buildImage(*M, "sm_75", "test");
}

constexpr const char *Layout =
    "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n"
    "target triple = \"nvptx64-nvidia-cuda\"\n";

TEST(ImageBuilder, StructInitializersFollowTheDataLayout) {
  LLVMContext Ctx;
  std::string IR = std::string(Layout) +
                   "@s = addrspace(1) global { i8, i32, [2 x i16] } "
                   "{ i8 1, i32 2, [2 x i16] [i16 3, i16 -1] }, align 4\n";
  auto Image = describe(IR, Ctx);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  ASSERT_EQ(Image->Globals.size(), 1u);
  EXPECT_EQ(Image->Globals[0].Size, 12u)
      << "i8, 3 bytes of padding, i32, 2 x i16";
  EXPECT_EQ(Image->Globals[0].Initializer,
            (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0xff, 0xff}))
      << "padding is zero";
}

TEST(ImageBuilder, PointerInitializersAreAClearError) {
  LLVMContext Ctx;
  std::string IR = std::string(Layout) +
                   "@a = addrspace(1) global i32 1\n"
                   "@p = addrspace(1) global ptr addrspace(1) @a\n";
  auto Image = describe(IR, Ctx);
  ASSERT_FALSE(bool(Image)) << "the address of @a is not known at compile time";
  std::string Message = toString(Image.takeError());
  EXPECT_NE(Message.find("'p'"), std::string::npos) << Message;
}

TEST(ImageBuilder, PtxKernelCallingConventionMarksKernels) {
  LLVMContext Ctx;
  std::string IR = std::string(Layout) +
                   "define ptx_kernel void @k(ptr %p, i64 %n) { ret void }\n"
                   "define void @notkernel() { ret void }\n";
  auto Image = describe(IR, Ctx);
  ASSERT_TRUE(bool(Image)) << toString(Image.takeError());
  ASSERT_EQ(Image->Kernels.size(), 1u) << "newer clang marks kernels this way";
  EXPECT_EQ(Image->Kernels[0].Name, "k");
  EXPECT_EQ(Image->Kernels[0].ParamBytes, 16u);
}

} // namespace

//===- LaunchTest.cpp - Module loading and launching through the API ------===//
//
// The launch rows of shared/reference/nvidia-driver-observed.md, checked
// through the public cu* API on a module image built inside the test (NVVM
// IR text -> bitcode -> loader::writeImage), so no cucc is needed.
//
//===----------------------------------------------------------------------===//
#include "IrBitcode.h"
#include "cucpu/loader/ModuleImage.h"

#include <cuda.h>

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#define EXPECT_CU(Want, Call)                                                  \
  EXPECT_EQ(static_cast<int>(Want), static_cast<int>(Call))
#define ASSERT_CU(Want, Call)                                                  \
  ASSERT_EQ(static_cast<int>(Want), static_cast<int>(Call))

namespace {
const char *ProbeIr = R"(
target triple = "nvptx64-nvidia-cuda"
@counter = addrspace(1) global i32 7, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare void @llvm.trap()

define void @probe(ptr %out, i32 %a, float %f, i8 %c) {
  store i32 %a, ptr %out
  %fm = fmul float %f, 1000.0
  %fi = fptosi float %fm to i32
  %p1 = getelementptr i32, ptr %out, i64 1
  store i32 %fi, ptr %p1
  %ci = sext i8 %c to i32
  %p2 = getelementptr i32, ptr %out, i64 2
  store i32 %ci, ptr %p2
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %p3 = getelementptr i32, ptr %out, i64 3
  store i32 %bx, ptr %p3
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %p4 = getelementptr i32, ptr %out, i64 4
  store i32 %by, ptr %p4
  %bz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %p5 = getelementptr i32, ptr %out, i64 5
  store i32 %bz, ptr %p5
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %p6 = getelementptr i32, ptr %out, i64 6
  store i32 %gx, ptr %p6
  %gy = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %p7 = getelementptr i32, ptr %out, i64 7
  store i32 %gy, ptr %p7
  %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %p8 = getelementptr i32, ptr %out, i64 8
  store i32 %gz, ptr %p8
  ret void
}

@said = private unnamed_addr constant [10 x i8] c"said %d.\0A\00"
declare i32 @vprintf(ptr, ptr)
define void @say(i32 %v) {
  %buf = alloca i32, align 4
  store i32 %v, ptr %buf
  %r = call i32 @vprintf(ptr @said, ptr %buf)
  ret void
}
define void @boom() {
  call void @llvm.trap()
  unreachable
}

!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @probe, !"kernel", i32 1}
!1 = !{ptr @boom, !"kernel", i32 1}
!2 = !{ptr @say, !"kernel", i32 1}
)";

/// The ELF image of ProbeIr, built with the loader's writer.
std::vector<uint8_t> probeImage() {
  std::vector<uint8_t> Bytes = cucpu::testing::bitcodeOf(ProbeIr);
  if (Bytes.empty())
    return {};
  cucpu::loader::ModuleImage I;
  I.Producer = "LaunchTest";
  I.TargetArch = "sm_75";
  cucpu::loader::KernelInfo Probe;
  Probe.Name = "probe";
  Probe.Params = {{0, 8, 8}, {8, 4, 4}, {12, 4, 4}, {16, 1, 1}};
  Probe.ParamBytes = 17;
  cucpu::loader::KernelInfo Boom;
  Boom.Name = "boom";
  cucpu::loader::KernelInfo Say;
  Say.Name = "say";
  Say.Params = {{0, 4, 4}};
  Say.ParamBytes = 4;
  Say.Uses = cucpu::loader::UsesPrintf;
  I.Kernels = {Probe, Boom, Say};
  cucpu::loader::GlobalInfo Counter;
  Counter.Name = "counter";
  Counter.Space = cucpu::loader::GlobalSpace::Device;
  Counter.Size = 4;
  Counter.Align = 4;
  Counter.Initializer = {7, 0, 0, 0};
  I.Globals = {Counter};
  I.Bitcode.assign(Bytes.begin(), Bytes.end());
  auto Image = cucpu::loader::writeImage(I);
  if (!Image) {
    llvm::consumeError(Image.takeError());
    return {};
  }
  return *Image;
}

class Launch : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    CUdevice Dev;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
    Image = probeImage();
    ASSERT_FALSE(Image.empty()) << "the test image could be built";
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Image.data()));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Probe, Mod, "probe"));
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, 9 * sizeof(int)));
  }
  void TearDown() override { cuCtxDestroy(Ctx); }

  std::array<int, 9> readOut() {
    std::array<int, 9> Got{};
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Got.data(), Out, sizeof(Got)));
    return Got;
  }
  void setProbeParams() {
    char C = 'x';
    ASSERT_CU(CUDA_SUCCESS, cuParamSetv(Probe, 0, &Out, 8));
    ASSERT_CU(CUDA_SUCCESS, cuParamSeti(Probe, 8, 42));
    ASSERT_CU(CUDA_SUCCESS, cuParamSetf(Probe, 12, 1.5f));
    ASSERT_CU(CUDA_SUCCESS, cuParamSetv(Probe, 16, &C, 1));
    ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(Probe, 17));
  }

  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
  CUfunction Probe = nullptr;
  CUdeviceptr Out = 0;
  std::vector<uint8_t> Image;
};
} // namespace

TEST_F(Launch, LegacyLayoutMatchesNvidia) {
  setProbeParams();
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(Probe, 2, 3, 4));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGrid(Probe, 5, 6));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::array<int, 9> Want = {42, 1500, 'x', 2, 3, 4, 5, 6, 1};
  EXPECT_EQ(readOut(), Want) << "the observed NVIDIA row: 8-byte pointer, "
                                "natural alignment, block and grid shape";
  ASSERT_CU(CUDA_SUCCESS, cuLaunch(Probe));
  std::array<int, 9> One = {42, 1500, 'x', 2, 3, 4, 1, 1, 1};
  EXPECT_EQ(readOut(), One) << "cuLaunch runs a 1x1 grid";
}

TEST_F(Launch, BlockShapeDefaultsToOneThread) {
  setProbeParams();
  EXPECT_CU(CUDA_SUCCESS, cuLaunchGrid(Probe, 1, 1))
      << "no cuFuncSetBlockShape: a 1x1x1 block (observed)";
  std::array<int, 9> Got = readOut();
  EXPECT_EQ(Got[3] * Got[4] * Got[5], 1) << "blockDim is 1x1x1";
}

TEST_F(Launch, LegacyValidationAtTheCall) {
  EXPECT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(Probe, 1024, 1, 1))
      << "at the limit";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(Probe, 2000, 1, 1))
      << "x over 1024 (observed)";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(Probe, 0, 1, 1))
      << "x of 0 (observed)";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(Probe, 1, 1, 65))
      << "z over 64";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(Probe, 32, 32, 2))
      << "2048 threads";
  EXPECT_CU(CUDA_SUCCESS, cuParamSetSize(Probe, 4096)) << "at the limit";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetSize(Probe, 100000))
      << "over 4 KB (observed)";
  EXPECT_CU(CUDA_SUCCESS, cuFuncSetSharedSize(Probe, 48 * 1024)) << "48 KB";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetSharedSize(Probe, 1 << 20))
      << "1 MB (observed)";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetBlockShape(nullptr, 1, 1, 1))
      << "a null function";
}

TEST_F(Launch, ParamPastTheBufferFailsTheLaunchNotTheCall) {
  setProbeParams();
  EXPECT_CU(CUDA_SUCCESS, cuParamSeti(Probe, 5000, 7))
      << "the offset is not checked at the call (observed)";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(Probe, 1, 1))
      << "the launch reports the write past the 4 KB buffer";
  EXPECT_CU(CUDA_SUCCESS, cuLaunchGrid(Probe, 1, 1))
      << "reported once; the buffer itself was never overrun";
}

TEST_F(Launch, GridLimits) {
  setProbeParams();
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(Probe, 0, 1)) << "observed";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(Probe, 1, 70000))
      << "grid y max 65535 (observed)";
  EXPECT_CU(CUDA_SUCCESS, cuLaunchGrid(Probe, 1, 65535)) << "at the limit";
}

TEST_F(Launch, LaunchKernelParamsAndExtra) {
  int A = 9;
  float F = 0.25f;
  char C = 'q';
  void *Params[] = {&Out, &A, &F, &C};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(Probe, 2, 3, 4, 5, 6, 7, 0, nullptr,
                                         Params, nullptr));
  std::array<int, 9> Want = {9, 250, 'q', 5, 6, 7, 2, 3, 4};
  EXPECT_EQ(readOut(), Want) << "kernelParams at the kernel's offsets";

  alignas(8) unsigned char Buffer[24] = {};
  int A2 = 11;
  std::memcpy(Buffer, &Out, 8);
  std::memcpy(Buffer + 8, &A2, 4);
  size_t Size = sizeof(Buffer);
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &Size, CU_LAUNCH_PARAM_END};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 0, nullptr,
                                         nullptr, Extra));
  EXPECT_EQ(readOut()[0], 11) << "extra's buffer is the parameter buffer";

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 0, nullptr, Params, Extra))
      << "kernelParams and extra together";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 0,
                                                     nullptr, nullptr, nullptr))
      << "a kernel with parameters and none given";
  size_t Small = 8;
  void *Short[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Buffer,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &Small, CU_LAUNCH_PARAM_END};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, Short))
      << "a buffer smaller than the kernel's parameters";
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(Probe, 1, 1, 1, 1025, 1, 1, 0, nullptr, Params, nullptr))
      << "block x over 1024";
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(Probe, 1, 65536, 1, 1, 1, 1, 0, nullptr, Params, nullptr))
      << "grid y over 65535";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 64 * 1024, nullptr, Params,
                           nullptr))
      << "dynamic shared memory over 48 KB without opting in";
  EXPECT_CU(CUDA_SUCCESS,
            cuFuncSetAttribute(Probe,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               64 * 1024))
      << "opting in to 64 KB";
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(Probe, 1, 1, 1, 1, 1, 1, 64 * 1024,
                                         nullptr, Params, nullptr))
      << "64 KB after opting in";
}

TEST_F(Launch, FunctionQueries) {
  int V = 0;
  EXPECT_CU(
      CUDA_SUCCESS,
      cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, Probe));
  EXPECT_EQ(V, 1024) << "no launch bounds: 1024";
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuFuncGetAttribute(&V, static_cast<CUfunction_attribute>(999), Probe))
      << "an unknown attribute";
  size_t Offset = 0, Size = 0;
  EXPECT_CU(CUDA_SUCCESS, cuFuncGetParamInfo(Probe, 2, &Offset, &Size));
  EXPECT_EQ(Offset, 12u) << "the float follows the int";
  EXPECT_EQ(Size, 4u);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuFuncGetParamInfo(Probe, 4, &Offset, &Size))
      << "there are 4 parameters";
  const char *Name = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuFuncGetName(&Name, Probe));
  EXPECT_STREQ(Name, "probe");
  CUmodule Owner = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuFuncGetModule(&Owner, Probe));
  EXPECT_EQ(Owner, Mod) << "the function's module";
  unsigned Count = 0;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunctionCount(&Count, Mod));
  EXPECT_EQ(Count, 3u) << "probe, boom and say";
  CUfunction Missing;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&Missing, Mod, "nope"))
      << "a missing name (observed)";
  int Blocks = 0;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(
                              &Blocks, Probe, 256, 0));
  EXPECT_EQ(Blocks, 4) << "1024 threads per SM / 256";
  int MinGrid = 0, BlockSize = 0;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(
                              &MinGrid, &BlockSize, Probe, nullptr, 0, 0));
  EXPECT_GT(BlockSize, 0) << "some block size";
}

TEST_F(Launch, TrapIsStickyAndUnloadInvalidatesHandles) {
  CUfunction Boom;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Boom, Mod, "boom"));
  EXPECT_CU(CUDA_SUCCESS, cuLaunchGrid(Boom, 1, 1))
      << "the launch itself succeeds, as on NVIDIA";
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize())
      << "the next call reports the trap";
  CUdeviceptr P;
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuMemAlloc(&P, 16)) << "sticky";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Ctx)) << "the faulted context dies";
  Ctx = nullptr;
  CUfunction F;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&F, Mod, "probe"))
      << "a module of a destroyed context (observed)";
}

TEST_F(Launch, ModuleGlobalsAreCopyableButNotFreeable) {
  CUdeviceptr G = 0;
  size_t Size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetGlobal(&G, &Size, Mod, "counter"));
  EXPECT_EQ(4u, Size) << "the variable's own size, as NVIDIA reports it";
  int Value = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Value, G, sizeof(Value)))
      << "a module variable is a device pointer copies accept";
  EXPECT_EQ(7, Value) << "its initializer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(G))
      << "the module owns its variables; cuMemFree must not free them";
  Value = 9;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(G, &Value, sizeof(Value)))
      << "still usable after the refused free";
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(&Value, G, sizeof(Value)))
      << "after unload the address is no allocation";
  Mod = nullptr;
}

TEST_F(Launch, PrintfOutputArrivesAtStreamAndEventSynchronize) {
  CUfunction Say = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Say, Mod, "say"));
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, 0));
  int V = 41;
  void *Args[] = {&V};

  testing::internal::CaptureStdout();
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Say, 1, 1, 1, 1, 1, 1, 0, S, Args, nullptr));
  std::string AtLaunch = testing::internal::GetCapturedStdout();
  testing::internal::CaptureStdout();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  std::string AtSync = testing::internal::GetCapturedStdout();
  EXPECT_EQ("", AtLaunch) << "device output waits for a synchronization";
  EXPECT_EQ("said 41.\n", AtSync) << "cuStreamSynchronize delivers it";

  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, 0));
  V = 42;
  testing::internal::CaptureStdout();
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Say, 1, 1, 1, 1, 1, 1, 0, S, Args, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, S));
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E));
  EXPECT_EQ("said 42.\n", testing::internal::GetCapturedStdout())
      << "cuEventSynchronize delivers it too";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

/// An image that passes the loader's checks but holds \p Bitcode and lists
/// the kernels \p Kernels.
std::vector<uint8_t> imageWith(std::vector<uint8_t> Bitcode,
                               std::vector<cucpu::loader::KernelInfo> Kernels) {
  cucpu::loader::ModuleImage I;
  I.Producer = "LaunchTest";
  I.TargetArch = "sm_75";
  I.Kernels = std::move(Kernels);
  I.Bitcode = std::move(Bitcode);
  auto Bytes = cucpu::loader::writeImage(I);
  if (!Bytes) {
    llvm::consumeError(Bytes.takeError());
    return {};
  }
  return *Bytes;
}

TEST_F(Launch, MalformedImagesAreInvalidImageWithoutACrash) {
  CUmodule M = nullptr;
  for (size_t Keep : {size_t(64), Image.size() / 2, Image.size() * 3 / 4}) {
    std::vector<uint8_t> Truncated(Image.begin(), Image.begin() + Keep);
    Truncated.resize(Image.size(), 0); // Same length, the tail zeroed.
    EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&M, Truncated.data()))
        << "an image cut after " << Keep << " bytes";
  }
  std::vector<uint8_t> WrongMachine = Image;
  WrongMachine[18] = 62; // e_machine = EM_X86_64
  WrongMachine[19] = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&M, WrongMachine.data()))
      << "an ELF file for another machine";
  std::vector<uint8_t> BadOffsets = Image;
  BadOffsets[0x28 + 4] = 0x7f; // e_shoff far past the end
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&M, BadOffsets.data()))
      << "a section header table outside the image";

  std::vector<uint8_t> Corrupt =
      imageWith({'B', 'C', 0xc0, 0xde, 1, 2, 3, 4, 5, 6, 7, 8}, {});
  ASSERT_FALSE(Corrupt.empty());
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&M, Corrupt.data()))
      << "bitcode that does not parse";

  cucpu::loader::KernelInfo Ghost;
  Ghost.Name = "ghost";
  std::vector<uint8_t> Good = probeImage();
  auto Parsed = cucpu::loader::readImage(Good);
  ASSERT_TRUE(static_cast<bool>(Parsed));
  std::vector<uint8_t> Missing = imageWith(Parsed->Bitcode, {Ghost});
  ASSERT_FALSE(Missing.empty());
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&M, Missing.data()))
      << "the image lists a kernel its IR does not define";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "no fault was left behind";
}

TEST_F(Launch, LoadDataExFillsLogsAndWallTime) {
  char Info[256] = {}, Error[256] = {};
  CUjit_option Options[] = {
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_WALL_TIME};
  void *Values[] = {Info, reinterpret_cast<void *>(uintptr_t(sizeof(Info))),
                    Error, reinterpret_cast<void *>(uintptr_t(sizeof(Error))),
                    nullptr};
  CUmodule M = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuModuleLoadDataEx(&M, Image.data(), 5, Options, Values));
  EXPECT_NE(std::strstr(Info, "cucpu:"), nullptr)
      << "the info log says how the module was loaded: " << Info;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Values[1]), std::strlen(Info))
      << "the info log size comes back as its length (as on NVIDIA's driver)";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Values[3]), 0u)
      << "no error, no error log";
  float Ms = -1;
  std::memcpy(&Ms, &Values[4], sizeof(Ms));
  EXPECT_GE(Ms, 0.0f) << "the wall time comes back as a float, in ms";
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(M));

  // A corrupt image: its IR no longer parses.
  std::vector<uint8_t> Bad = Image;
  for (size_t I = Bad.size() / 2; I < Bad.size() / 2 + 64 && I < Bad.size();
       ++I)
    Bad[I] ^= 0x5a;
  Values[3] = reinterpret_cast<void *>(uintptr_t(sizeof(Error)));
  CUresult R = cuModuleLoadDataEx(&M, Bad.data(), 5, Options, Values);
  EXPECT_NE(R, CUDA_SUCCESS);
  EXPECT_GT(std::strlen(Error), 0u) << "the error log says what was wrong";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Values[3]), std::strlen(Error))
      << "the error log's length, without its NUL (as on NVIDIA's driver)";
}

TEST_F(Launch, LoadDataExRejectsBadOptions) {
  CUmodule M = nullptr;
  CUjit_option Options[] = {CU_JIT_WALL_TIME};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuModuleLoadDataEx(&M, Image.data(), 1, Options, nullptr))
      << "options without values";
  CUjit_option Invalid[] = {static_cast<CUjit_option>(9999)};
  void *Values[] = {nullptr};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuModuleLoadDataEx(&M, Image.data(), 1, Invalid, Values))
      << "an option that does not exist";
}

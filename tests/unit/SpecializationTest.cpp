//===- SpecializationTest.cpp - Block functions compiled for a launch's shape
//===//
//
// Large launches run a block function compiled for their block shape, in an
// object of its own beside the module's
// (modules/include/cucpu/modules/Specialization.h). These tests check, through
// the cu* API, that it sees the shape it was compiled for, that it is compiled
// once per shape, and that it shares the module's variables (a private one too)
// with the module's own code. A kernel's thread entry, which the module load
// leaves out when the kernel has a block function, is compiled the same way
// when a launch first needs it.
//
//===----------------------------------------------------------------------===//
#include "IrBitcode.h"
#include "cucpu/loader/ModuleImage.h"
#include "cucpu/modules/JitStats.h"

#include <cuda.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#define ASSERT_CU(Want, Call)                                                  \
  ASSERT_EQ(static_cast<int>(Want), static_cast<int>(Call))

namespace {

// shape(out): every thread counts itself in @hits (private) and @seen, then
// after a barrier writes ntid.x * 10000 + ntid.y * 100 + ntid.z at its
// global linear index. count(out): out[0] = @hits, out[1] = @seen.
const char *ShapeIr = R"(
target triple = "nvptx64-nvidia-cuda"
@hits = private addrspace(1) global i32 0, align 4
@seen = internal addrspace(1) global i32 0, align 4
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

define void @shape(ptr %out) {
  %h = atomicrmw add ptr addrspace(1) @hits, i32 1 monotonic
  %s = atomicrmw add ptr addrspace(1) @seen, i32 1 monotonic
  call void @llvm.nvvm.barrier0()
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %tz = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ny = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %nz = call i32 @llvm.nvvm.read.ptx.sreg.ntid.z()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nxy = mul i32 %nx, %ny
  %n = mul i32 %nxy, %nz
  %zpart = mul i32 %tz, %nxy
  %ypart = mul i32 %ty, %nx
  %l0 = add i32 %zpart, %ypart
  %l = add i32 %l0, %tx
  %b = mul i32 %bx, %n
  %g = add i32 %b, %l
  %v0 = mul i32 %nx, 10000
  %v1 = mul i32 %ny, 100
  %v2 = add i32 %v0, %v1
  %v = add i32 %v2, %nz
  %gi = zext i32 %g to i64
  %p = getelementptr i32, ptr %out, i64 %gi
  store i32 %v, ptr %p
  ret void
}

define void @count(ptr %out) {
  %h = load i32, ptr addrspace(1) @hits
  store i32 %h, ptr %out
  %s = load i32, ptr addrspace(1) @seen
  %p = getelementptr i32, ptr %out, i64 1
  store i32 %s, ptr %p
  ret void
}

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @shape, !"kernel", i32 1}
!1 = !{ptr @count, !"kernel", i32 1}
)";

/// The module image of \p Ir with \p Kernels (each taking one pointer).
std::vector<uint8_t> imageOf(const char *Ir,
                             std::vector<cucpu::loader::KernelInfo> Kernels) {
  std::vector<uint8_t> Bytes = cucpu::testing::bitcodeOf(Ir);
  if (Bytes.empty())
    return {};
  cucpu::loader::ModuleImage I;
  I.Producer = "SpecializationTest";
  I.TargetArch = "sm_75";
  for (cucpu::loader::KernelInfo &K : Kernels) {
    K.Params = {{0, 8, 8}};
    K.ParamBytes = 8;
  }
  I.Kernels = std::move(Kernels);
  I.Bitcode = std::move(Bytes);
  auto Image = cucpu::loader::writeImage(I);
  if (!Image) {
    ADD_FAILURE() << llvm::toString(Image.takeError());
    return {};
  }
  return *Image;
}

/// A kernel named \p Name that uses \p Uses (loader::Uses* flags).
cucpu::loader::KernelInfo kernel(const char *Name, uint32_t Uses) {
  cucpu::loader::KernelInfo K;
  K.Name = Name;
  K.Uses = Uses;
  return K;
}

std::vector<uint8_t> shapeImage() {
  return imageOf(ShapeIr, {kernel("shape", cucpu::loader::UsesBarrier |
                                               cucpu::loader::UsesAtomics),
                           kernel("count", 0)});
}

/// Threads per launch: enough for a launch to be worth specializing.
constexpr unsigned Blocks = 256, Threads = 256;

class Specialization : public ::testing::Test {
protected:
  void SetUp() override {
    // Compile every time: the counts below are of compilations.
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    CUdevice Dev;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
    Image = shapeImage();
    ASSERT_FALSE(Image.empty()) << "the test image could be built";
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Image.data()));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Shape, Mod, "shape"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Count, Mod, "count"));
    ASSERT_CU(CUDA_SUCCESS,
              cuMemAlloc(&Out, size_t(Blocks) * Threads * sizeof(int)));
  }
  void TearDown() override {
    cuCtxDestroy(Ctx);
    unsetenv("CUDA_CACHE_DISABLE");
  }

  /// Launches shape() with blocks of \p X x \p Y x \p Z (X * Y * Z ==
  /// Threads) and checks what every thread wrote.
  void launchShape(unsigned X, unsigned Y, unsigned Z) {
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Out, 0, size_t(Blocks) * Threads));
    void *Args[] = {&Out};
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(Shape, Blocks, 1, 1, X, Y, Z, 0,
                                           nullptr, Args, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    std::vector<int> Got(size_t(Blocks) * Threads);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemcpyDtoH(Got.data(), Out, Got.size() * sizeof(int)));
    int Want = int(X * 10000 + Y * 100 + Z);
    for (size_t I = 0; I < Got.size(); ++I)
      ASSERT_EQ(Want, Got[I])
          << "thread " << I << " of blocks " << X << "x" << Y << "x" << Z;
  }

  std::array<int, 2> counts() {
    void *Args[] = {&Out};
    std::array<int, 2> Got{};
    EXPECT_EQ(CUDA_SUCCESS, cuLaunchKernel(Count, 1, 1, 1, 1, 1, 1, 0, nullptr,
                                           Args, nullptr));
    EXPECT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(Got.data(), Out, sizeof(Got)));
    return Got;
  }

  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
  CUfunction Shape = nullptr, Count = nullptr;
  CUdeviceptr Out = 0;
  std::vector<uint8_t> Image;
};

} // namespace

/// Whether CUCPU_EXEC lets large launches specialize.
bool specializing() {
  const char *Mode = std::getenv("CUCPU_EXEC");
  return !Mode || std::string(Mode) == "specialized";
}

TEST_F(Specialization, EachShapeIsCompiledOnceAndSeesItsShape) {
  if (!specializing())
    GTEST_SKIP() << "CUCPU_EXEC turns specialization off";
  uint64_t Before = cucpu::modules::specializedBlockCount();
  launchShape(256, 1, 1);
  launchShape(64, 2, 2);
  launchShape(16, 4, 4);
  EXPECT_EQ(Before + 3, cucpu::modules::specializedBlockCount());
  launchShape(64, 2, 2);
  launchShape(256, 1, 1);
  EXPECT_EQ(Before + 3, cucpu::modules::specializedBlockCount())
      << "a shape seen before reuses its block function";
}

// deep(out): each thread keeps a value in a private array of 280,000 bytes
// across a barrier and writes it, doubled plus one, at its global index: a
// block of 1024 threads needs more frame than a block function may use, so
// the launch runs on the fiber engine through the kernel's thread entry.
const char *DeepIr = R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier0()

define void @deep(ptr %out) {
  %buf = alloca [70000 x i32], align 4
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tx to i64
  %slot = getelementptr [70000 x i32], ptr %buf, i64 0, i64 %i
  store i32 %tx, ptr %slot
  call void @llvm.nvvm.barrier0()
  %v = load i32, ptr %slot
  %w = mul i32 %v, 2
  %x = add i32 %w, 1
  %nx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b = mul i32 %bx, %nx
  %g = add i32 %b, %tx
  %gi = zext i32 %g to i64
  %p = getelementptr i32, ptr %out, i64 %gi
  store i32 %x, ptr %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @deep, !"kernel", i32 1}
)";

TEST(LateThreadEntry, LaunchTooLargeForABlockFunctionCompilesIt) {
  setenv("CUDA_CACHE_DISABLE", "1", 1);
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  CUdevice Dev;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
  // The fiber engine's stacks hold the array.
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 300000));
  std::vector<uint8_t> Image =
      imageOf(DeepIr, {kernel("deep", cucpu::loader::UsesBarrier)});
  ASSERT_FALSE(Image.empty()) << "the test image could be built";
  CUmodule Mod;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&Mod, Image.data()));
  CUfunction F;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, Mod, "deep"));
  constexpr unsigned DeepBlocks = 2, DeepThreads = 1024;
  CUdeviceptr Out;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, DeepBlocks * DeepThreads * 4));
  bool Fallback = std::getenv("CUCPU_EXEC") &&
                  std::string(std::getenv("CUCPU_EXEC")) == "fallback";
  uint64_t Before = cucpu::modules::lateThreadEntryCount();
  for (int Run = 0; Run < 2; ++Run) {
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Out, 0, DeepBlocks * DeepThreads));
    void *Args[] = {&Out};
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(F, DeepBlocks, 1, 1, DeepThreads, 1,
                                           1, 0, nullptr, Args, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    std::vector<int> Got(DeepBlocks * DeepThreads);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemcpyDtoH(Got.data(), Out, Got.size() * sizeof(int)));
    for (size_t T = 0; T < Got.size(); ++T)
      ASSERT_EQ(int(T % DeepThreads) * 2 + 1, Got[T]) << "thread " << T;
    EXPECT_EQ(Before + (Fallback ? 0 : 1),
              cucpu::modules::lateThreadEntryCount())
        << "compiled at the first launch (CUCPU_EXEC=fallback: at the load), "
           "then kept";
  }
  cuCtxDestroy(Ctx);
  unsetenv("CUDA_CACHE_DISABLE");
}

TEST_F(Specialization, SharesTheModulesVariables) {
  if (!specializing())
    GTEST_SKIP() << "CUCPU_EXEC turns specialization off";
  uint64_t Before = cucpu::modules::specializedBlockCount();
  launchShape(256, 1, 1);
  launchShape(32, 8, 1);
  ASSERT_EQ(Before + 2, cucpu::modules::specializedBlockCount())
      << "both ran a specialized block function";
  // count() is a one-thread launch: the module's own code reads what the
  // specialized block functions wrote.
  std::array<int, 2> Got = counts();
  EXPECT_EQ(int(2 * Blocks * Threads), Got[0]) << "the private variable";
  EXPECT_EQ(int(2 * Blocks * Threads), Got[1]) << "the internal variable";
}

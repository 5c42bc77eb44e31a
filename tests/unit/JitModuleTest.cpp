//===- JitModuleTest.cpp - Lowering and JIT of small NVVM kernels ---------===//
//
// Kernels are textual NVVM IR (what clang 19 emits for NVPTX64), turned into
// bitcode here; a one-thread-at-a-time test engine implements the
// __cucpu_* services and runs the thread entries.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/JitModule.h"
#include "IrBitcode.h"
#include "cucpu/modules/CompilerIdentity.h"
#include "cucpu/modules/JitError.h"
#include "cucpu/modules/JitSession.h"
#include "cucpu/modules/JitStats.h"
#include "cucpu/modules/LoadedModule.h"
#include "cucpu/modules/PerfMap.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace cucpu;
using namespace cucpu::modules;

namespace {

/// What the test engine saw.
struct EngineLog {
  int Barriers = 0;
  std::string Printed;
  std::string AssertMessage;
  unsigned AssertLine = 0;
  bool Trapped = false;
  std::jmp_buf Exit;
};
EngineLog *Log = nullptr;

extern "C" {
void testBarrier(CucpuThread *) { ++Log->Barriers; }
int32_t testBarrierReduce(CucpuThread *, int32_t P, int32_t Op) {
  ++Log->Barriers;
  return Op == 0 ? (P != 0) : (P != 0);
}
void testWarpSync(CucpuThread *, uint32_t) {}
uint32_t testWarpVote(CucpuThread *T, uint32_t, int32_t P, int32_t Mode) {
  return Mode == 3 ? (P ? 1u << T->LaneId : 0u) : uint32_t(P != 0);
}
uint32_t testWarpShfl(CucpuThread *, uint32_t, uint32_t V, uint32_t, uint32_t,
                      int32_t, int32_t *InRange) {
  *InRange = 1;
  return V;
}
uint32_t testWarpMatch(CucpuThread *T, uint32_t, uint64_t, int32_t,
                       int32_t *Pred) {
  *Pred = 1;
  return 1u << T->LaneId;
}
uint32_t testActiveMask(CucpuThread *T) { return 1u << T->LaneId; }
void testYield(CucpuThread *) {}
/// A small vprintf: %d, %u, %f, %s over the NVVM argument buffer.
int32_t testVprintf(CucpuThread *, const char *Format, const char *Args) {
  size_t Offset = 0;
  auto Next = [&](size_t Size) {
    Offset = (Offset + Size - 1) / Size * Size;
    const char *P = Args + Offset;
    Offset += Size;
    return P;
  };
  for (const char *C = Format; *C; ++C) {
    if (*C != '%') {
      Log->Printed += *C;
      continue;
    }
    char Spec = *++C;
    char Buf[64];
    if (Spec == 'd') {
      int32_t V;
      std::memcpy(&V, Next(4), 4);
      snprintf(Buf, sizeof Buf, "%d", V);
    } else if (Spec == 'f') {
      double V;
      std::memcpy(&V, Next(8), 8);
      snprintf(Buf, sizeof Buf, "%f", V);
    } else {
      snprintf(Buf, sizeof Buf, "%%%c", Spec);
    }
    Log->Printed += Buf;
  }
  return 0;
}
[[noreturn]] void testAssertFail(CucpuThread *, const char *Message,
                                 const char *, uint32_t Line, const char *) {
  Log->AssertMessage = Message;
  Log->AssertLine = Line;
  std::longjmp(Log->Exit, 1);
}
[[noreturn]] void testTrap(CucpuThread *) {
  Log->Trapped = true;
  std::longjmp(Log->Exit, 1);
}
}

JitOptions testOptions() {
  JitOptions O;
  O.CacheEnabled = false;
  auto Add = [&O](const char *Name, auto *Fn) {
    O.RuntimeSymbols[Name] = reinterpret_cast<void *>(Fn);
  };
  Add("__cucpu_barrier", &testBarrier);
  Add("__cucpu_barrier_reduce", &testBarrierReduce);
  Add("__cucpu_warp_sync", &testWarpSync);
  Add("__cucpu_warp_vote", &testWarpVote);
  Add("__cucpu_warp_shfl", &testWarpShfl);
  Add("__cucpu_warp_match", &testWarpMatch);
  Add("__cucpu_activemask", &testActiveMask);
  Add("__cucpu_yield", &testYield);
  Add("__cucpu_vprintf", &testVprintf);
  Add("__cucpu_assert_fail", &testAssertFail);
  Add("__cucpu_trap", &testTrap);
  Add("__cucpu_warp_exchange", &__cucpu_warp_exchange);
  Add("__cucpu_block_reduce", &__cucpu_block_reduce);
  return O;
}

const char *Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
)";

/// Bitcode of \p Body (NVVM IR after Header).
std::vector<uint8_t> bitcode(const std::string &Body) {
  return cucpu::testing::bitcodeOf(std::string(Header) + Body);
}

/// A kernel description with parameters of \p Sizes, naturally aligned.
loader::KernelInfo kernelInfo(std::string Name, std::vector<uint32_t> Sizes,
                              std::vector<uint32_t> Aligns = {}) {
  loader::KernelInfo K;
  K.Name = std::move(Name);
  uint32_t Offset = 0;
  for (size_t I = 0; I < Sizes.size(); ++I) {
    uint32_t Align = I < Aligns.size() ? Aligns[I] : Sizes[I];
    Offset = (Offset + Align - 1) / Align * Align;
    K.Params.push_back({Offset, Sizes[I], Align});
    Offset += Sizes[I];
  }
  K.ParamBytes = Offset;
  return K;
}

loader::ModuleImage image(const std::string &Body,
                          std::vector<loader::KernelInfo> Kernels) {
  loader::ModuleImage I;
  I.Producer = "JitModuleTest";
  I.TargetArch = "sm_75";
  I.Kernels = std::move(Kernels);
  I.Bitcode = bitcode(Body);
  return I;
}

/// Runs one thread; a trap or failed assert in it longjmps back here. Kept
/// apart from the loop so that no variable modified after setjmp is live
/// across it.
void runThread(CucpuThreadEntry Entry, CucpuThread *T) {
  if (setjmp(Log->Exit) == 0)
    Entry(T);
}

/// Runs \p Entry for threads 0..Threads-1 of block \p Block, one at a time.
void runBlock(CucpuThreadEntry Entry, CucpuBlock &Block, unsigned Threads) {
  for (unsigned I = 0; I < Threads; ++I) {
    CucpuThread T{};
    T.ThreadIdx[0] = I;
    T.LaneId = I % 32;
    T.WarpId = I / 32;
    T.Block = &Block;
    runThread(Entry, &T);
  }
}

class JitModuleTest : public ::testing::Test {
protected:
  void SetUp() override { Log = &Events; }
  void TearDown() override { Log = nullptr; }

  std::unique_ptr<JitModule> load(loader::ModuleImage Image,
                                  JitOptions Options = testOptions()) {
    auto M = JitModule::load(std::move(Image), Options);
    if (!M) {
      ADD_FAILURE() << llvm::toString(M.takeError());
      return nullptr;
    }
    return std::move(*M);
  }

  /// Kernel \p Name's thread entry, compiled now if the load left it out
  /// (a thread that does nothing, after a failure, if it cannot be).
  static CucpuThreadEntry entry(JitModule &M, llvm::StringRef Name) {
    llvm::Expected<CucpuThreadEntry> E = M.threadEntry(Name);
    if (!E) {
      ADD_FAILURE() << llvm::toString(E.takeError());
      return [](CucpuThread *) {};
    }
    return *E;
  }

  EngineLog Events;
};

const char *VectorAdd = R"(
define void @add(ptr %a, ptr %b, ptr %c, i32 %n) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %pa = getelementptr float, ptr %a, i64 %idx
  %pb = getelementptr float, ptr %b, i64 %idx
  %pc = getelementptr float, ptr %c, i64 %idx
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %s = fadd float %va, %vb
  store float %s, ptr %pc
  br label %done
done:
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @add, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, VectorAddOverTwoBlocks) {
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("add");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  std::vector<float> A(10), B(10), C(10, -1.0f);
  for (int I = 0; I < 10; ++I) {
    A[I] = float(I);
    B[I] = float(100 * I);
  }
  struct {
    float *A, *B, *C;
    int32_t N;
  } Params{A.data(), B.data(), C.data(), 10};
  for (uint32_t Bid = 0; Bid < 2; ++Bid) {
    CucpuBlock Block{};
    Block.BlockIdx[0] = Bid;
    Block.BlockDim[0] = 8;
    Block.GridDim[0] = 2;
    Block.Params = reinterpret_cast<const char *>(&Params);
    runBlock(entry(*M, "add"), Block, 8);
  }
  for (int I = 0; I < 10; ++I)
    EXPECT_EQ(C[I], 101.0f * I) << "thread " << I << " adds its elements";
}

TEST_F(JitModuleTest, UnknownKernelIsNotFound) {
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("nope");
  ASSERT_FALSE(bool(K));
  std::string Msg;
  EXPECT_EQ(takeJitError(K.takeError(), Msg), JitErrorKind::NotFound)
      << "a kernel the module lacks is not found";
}

TEST_F(JitModuleTest, ThreadEntryIsCompiledWhenFirstNeeded) {
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("add");
  ASSERT_TRUE(bool(K));
  EXPECT_NE(K->Block, nullptr) << "the kernel has a block function";
  EXPECT_EQ(K->Entry, nullptr) << "the load leaves its thread entry out";
  auto First = M->threadEntry("add");
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  EXPECT_NE(*First, nullptr);
  auto Again = M->threadEntry("add");
  ASSERT_TRUE(bool(Again));
  EXPECT_EQ(*Again, *First) << "compiled once";
  auto None = M->threadEntry("nope");
  ASSERT_FALSE(bool(None));
  std::string Msg;
  EXPECT_EQ(takeJitError(None.takeError(), Msg), JitErrorKind::NotFound);

  JitOptions Eager = testOptions();
  Eager.ThreadEntriesOnly = true;
  auto E = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), Eager);
  ASSERT_TRUE(E);
  auto EK = E->kernel("add");
  ASSERT_TRUE(bool(EK));
  EXPECT_NE(EK->Entry, nullptr) << "ThreadEntriesOnly links it at load";
  EXPECT_EQ(EK->Block, nullptr) << "ThreadEntriesOnly forms no block function";
  auto Linked = E->threadEntry("add");
  ASSERT_TRUE(bool(Linked));
  EXPECT_EQ(*Linked, EK->Entry);
}

const char *Globals = R"(
@counter = addrspace(1) externally_initialized global i32 5, align 4
@scale = addrspace(4) externally_initialized global [4 x float] zeroinitializer, align 4
define void @bump(ptr %out) {
  %p = addrspacecast ptr addrspace(1) @counter to ptr
  %v = atomicrmw add ptr %p, i32 1 seq_cst
  %s = load float, ptr addrspacecast (ptr addrspace(4) getelementptr ([4 x float], ptr addrspace(4) @scale, i64 0, i64 2) to ptr)
  store float %s, ptr %out
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @bump, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, ModuleGlobalsArePerInstance) {
  auto M1 = load(image(Globals, {kernelInfo("bump", {8})}));
  auto M2 = load(image(Globals, {kernelInfo("bump", {8})}));
  ASSERT_TRUE(M1 && M2);
  auto C1 = M1->global("counter"), C2 = M2->global("counter");
  auto S1 = M1->global("scale");
  ASSERT_TRUE(C1 && C2 && S1);
  EXPECT_EQ(C1->Size, 4u) << "an int is 4 bytes";
  EXPECT_EQ(S1->Size, 16u) << "float[4] is 16 bytes";
  EXPECT_NE(C1->Address, C2->Address) << "each load is its own instance";
  EXPECT_EQ(*static_cast<int32_t *>(C1->Address), 5) << "initializer kept";
  static_cast<float *>(S1->Address)[2] = 2.5f;

  auto K = M1->kernel("bump");
  ASSERT_TRUE(bool(K));
  float Out = 0;
  float *OutPtr = &Out;
  CucpuBlock Block{};
  Block.BlockDim[0] = 3;
  Block.Params = reinterpret_cast<const char *>(&OutPtr);
  runBlock(entry(*M1, "bump"), Block, 3);
  EXPECT_EQ(*static_cast<int32_t *>(C1->Address), 8) << "three atomic adds";
  EXPECT_EQ(*static_cast<int32_t *>(C2->Address), 5)
      << "other instance untouched";
  EXPECT_EQ(Out, 2.5f) << "constant memory written by the host is read";
  EXPECT_FALSE(bool(M1->global("missing")))
      << "unknown variables are not found";
  consumeError(M1->global("missing").takeError());
}

const char *Shared = R"(
@tile = internal addrspace(3) global [16 x i32] undef, align 4
@flag = internal addrspace(3) global i8 undef, align 1
@other = internal addrspace(3) global [100 x i32] undef, align 16
@dyn = external addrspace(3) global [0 x float], align 4
define void @useShared(ptr %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p = getelementptr [16 x i32], ptr addrspace(3) @tile, i64 0, i64 %i
  store i32 %tid, ptr addrspace(3) %p
  store i8 1, ptr addrspace(3) @flag
  call void @llvm.nvvm.barrier0()
  %d = getelementptr [0 x float], ptr addrspace(3) @dyn, i64 0, i64 %i
  store float 1.5, ptr addrspace(3) %d
  ret void
}
define void @useOther() {
  store i32 7, ptr addrspace(3) @other
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @useShared, !"kernel", i32 1}
!1 = !{ptr @useOther, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, SharedMemoryLayout) {
  auto M = load(image(
      Shared, {kernelInfo("useShared", {8}), kernelInfo("useOther", {})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("useShared");
  auto O = M->kernel("useOther");
  ASSERT_TRUE(K && O);
  EXPECT_EQ(K->StaticShared, 65u) << "tile (64) and flag (1), not other";
  EXPECT_EQ(O->StaticShared, 400u) << "other only, overlapping tile";
  alignas(16) char Memory[256] = {};
  void *Unused = nullptr;
  CucpuBlock Block{};
  Block.BlockDim[0] = 4;
  Block.Shared = Memory;
  Block.DynamicSharedOffset = 128;
  Block.Params = reinterpret_cast<const char *>(&Unused);
  runBlock(entry(*M, "useShared"), Block, 4);
  EXPECT_EQ(Events.Barriers, 4) << "each thread reaches the barrier";
  int32_t Tile[4];
  std::memcpy(Tile, Memory, sizeof Tile);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(Tile[I], I) << "tile is at offset 0";
  EXPECT_EQ(Memory[64], 1) << "flag follows tile";
  float Dyn;
  std::memcpy(&Dyn, Memory + 128 + 4 * 3, 4);
  EXPECT_EQ(Dyn, 1.5f) << "extern shared starts at DynamicSharedOffset";
}

const char *ByVal = R"(
%struct.S = type { i32, double, i8 }
define void @takeStruct(ptr %out, ptr byval(%struct.S) align 8 %s, i32 %k) {
  %pb = getelementptr inbounds i8, ptr %s, i64 8
  %b = load double, ptr %pb
  %a = load i32, ptr %s
  %c = getelementptr inbounds i8, ptr %s, i64 16
  %cv = load i8, ptr %c
  %ad = sitofp i32 %a to double
  %cd = sitofp i8 %cv to double
  %kd = sitofp i32 %k to double
  %t1 = fadd double %ad, %b
  %t2 = fadd double %t1, %cd
  %t3 = fadd double %t2, %kd
  store double %t3, ptr %out
  store i32 0, ptr %s
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @takeStruct, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, StructParameterByValue) {
  auto M =
      load(image(ByVal, {kernelInfo("takeStruct", {8, 24, 4}, {8, 8, 4})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("takeStruct");
  ASSERT_TRUE(bool(K));
  alignas(8) char Params[36] = {};
  double Out = 0;
  double *OutPtr = &Out;
  std::memcpy(Params, &OutPtr, 8);
  int32_t A = 3;
  double B = 0.25;
  int8_t C = 40;
  int32_t Kv = 1000;
  std::memcpy(Params + 8, &A, 4);
  std::memcpy(Params + 16, &B, 8);
  std::memcpy(Params + 24, &C, 1);
  std::memcpy(Params + 32, &Kv, 4);
  CucpuBlock Block{};
  Block.BlockDim[0] = 1;
  Block.Params = Params;
  runBlock(entry(*M, "takeStruct"), Block, 1);
  EXPECT_EQ(Out, 1043.25) << "all fields of the struct arrive";
  int32_t After;
  std::memcpy(&After, Params + 8, 4);
  EXPECT_EQ(After, 3) << "the kernel writes its own copy, not the buffer";
}

const char *PrintAssert = R"(
@fmt = private unnamed_addr constant [12 x i8] c"x=%d y=%f!\0A\00"
@msg = private unnamed_addr constant [6 x i8] c"x < 2\00"
@file = private unnamed_addr constant [5 x i8] c"k.cu\00"
@fn = private unnamed_addr constant [2 x i8] c"k\00"
declare i32 @vprintf(ptr, ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
define void @talk(i32 %x) {
  %buf = alloca { i32, double }, align 8
  store i32 %x, ptr %buf
  %py = getelementptr inbounds i8, ptr %buf, i64 8
  store double 0.5, ptr %py
  %r = call i32 @vprintf(ptr @fmt, ptr %buf)
  %ok = icmp slt i32 %x, 2
  br i1 %ok, label %done, label %fail
fail:
  call void @__assertfail(ptr @msg, ptr @file, i32 42, ptr @fn, i64 1)
  br label %done
done:
  ret void
}
define void @boom() {
  call void @llvm.trap()
  unreachable
}
declare void @llvm.trap()
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @talk, !"kernel", i32 1}
!1 = !{ptr @boom, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, PrintfAssertAndTrapReachTheEngine) {
  auto M = load(
      image(PrintAssert, {kernelInfo("talk", {4}), kernelInfo("boom", {})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("talk");
  ASSERT_TRUE(bool(K));
  int32_t X = 7;
  CucpuBlock Block{};
  Block.BlockDim[0] = 1;
  Block.Params = reinterpret_cast<const char *>(&X);
  runBlock(entry(*M, "talk"), Block, 1);
  EXPECT_EQ(Events.Printed, "x=7 y=0.500000!\n") << "printf's arguments";
  EXPECT_EQ(Events.AssertMessage, "x < 2") << "the failed assertion";
  EXPECT_EQ(Events.AssertLine, 42u) << "its line";
  auto B = M->kernel("boom");
  ASSERT_TRUE(bool(B));
  runBlock(entry(*M, "boom"), Block, 1);
  EXPECT_TRUE(Events.Trapped) << "llvm.trap reaches __cucpu_trap";
}

const char *Math = R"(
declare float @__nv_sinf(float)
declare i32 @__nv_float2int_rd(float)
declare float @__nv_fadd_ru(float, float)
define void @math(ptr %out, float %x) {
  %s = call float @__nv_sinf(float %x)
  store float %s, ptr %out
  %i = call i32 @__nv_float2int_rd(float -2.5)
  %p1 = getelementptr inbounds i8, ptr %out, i64 4
  store i32 %i, ptr %p1
  %u = call float @__nv_fadd_ru(float 1.0, float 0x3E45798EE0000000)
  %p2 = getelementptr inbounds i8, ptr %out, i64 8
  store float %u, ptr %p2
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @math, !"kernel", i32 1}
)";

TEST_F(JitModuleTest, MathCallsTheRuntimeLibrary) {
  auto M = load(image(Math, {kernelInfo("math", {8, 4})}));
  ASSERT_TRUE(M);
  auto K = M->kernel("math");
  ASSERT_TRUE(bool(K));
  struct {
    float S;
    int32_t I;
    float U;
  } Out{};
  struct {
    void *Out;
    float X;
  } Params{&Out, 0.75f};
  CucpuBlock Block{};
  Block.BlockDim[0] = 1;
  Block.Params = reinterpret_cast<const char *>(&Params);
  runBlock(entry(*M, "math"), Block, 1);
  EXPECT_EQ(Out.S, std::sin(0.75f)) << "sinf as the host computes it";
  EXPECT_EQ(Out.I, -3) << "rounding down";
  EXPECT_EQ(Out.U, std::nextafter(1.0f, 2.0f)) << "1 + 1e-8 rounded up";
}

TEST_F(JitModuleTest, CorruptBitcodeIsAnInvalidImage) {
  loader::ModuleImage I = image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})});
  I.Bitcode.resize(I.Bitcode.size() / 2);
  auto M = JitModule::load(std::move(I), testOptions());
  ASSERT_FALSE(bool(M));
  std::string Msg;
  EXPECT_EQ(takeJitError(M.takeError(), Msg), JitErrorKind::InvalidImage)
      << "truncated bitcode is an invalid image: " << Msg;
}

TEST_F(JitModuleTest, IRThatFailsTheVerifierIsAnInvalidImage) {
  // A block without a terminator still writes as bitcode.
  llvm::LLVMContext Ctx;
  llvm::Module Mod("bad", Ctx);
  auto *F = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx), false),
      llvm::GlobalValue::ExternalLinkage, "k", Mod);
  llvm::BasicBlock::Create(Ctx, "entry", F);
  std::string Bytes;
  llvm::raw_string_ostream OS(Bytes);
  llvm::WriteBitcodeToFile(Mod, OS);
  OS.flush();
  loader::ModuleImage I;
  I.Bitcode.assign(Bytes.begin(), Bytes.end());
  auto M = JitModule::load(std::move(I), testOptions());
  ASSERT_FALSE(bool(M));
  std::string Msg;
  EXPECT_EQ(takeJitError(M.takeError(), Msg), JitErrorKind::InvalidImage)
      << "the verifier rejects it: " << Msg;
  EXPECT_NE(Msg.find("invalid"), std::string::npos) << Msg;
}

TEST_F(JitModuleTest, ImageAndIRMustAgree) {
  auto M = JitModule::load(image(VectorAdd, {kernelInfo("add", {8, 8, 8})}),
                           testOptions());
  ASSERT_FALSE(bool(M));
  std::string Msg;
  EXPECT_EQ(takeJitError(M.takeError(), Msg), JitErrorKind::InvalidImage)
      << "a parameter count that differs from the IR: " << Msg;
  auto N = JitModule::load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4}),
                                             kernelInfo("ghost", {})}),
                           testOptions());
  ASSERT_FALSE(bool(N));
  EXPECT_EQ(takeJitError(N.takeError(), Msg), JitErrorKind::InvalidImage)
      << "a kernel the IR lacks: " << Msg;
}

TEST_F(JitModuleTest, UnknownIntrinsicAndInlinePtxAreLoadErrors) {
  const char *Body = R"(
declare i32 @llvm.nvvm.read.ptx.sreg.pm0()
define void @k() {
  %v = call i32 @llvm.nvvm.read.ptx.sreg.pm0()
  call void asm sideeffect "pmevent 1;", ""()
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)";
  auto M = JitModule::load(image(Body, {kernelInfo("k", {})}), testOptions());
  ASSERT_FALSE(bool(M));
  std::string Msg;
  EXPECT_EQ(takeJitError(M.takeError(), Msg), JitErrorKind::Unsupported);
  EXPECT_NE(Msg.find("pm0"), std::string::npos) << "names it: " << Msg;
}

TEST_F(JitModuleTest, MissingEngineServiceIsALoadError) {
  JitOptions O = testOptions();
  O.RuntimeSymbols.erase("__cucpu_barrier");
  auto M = JitModule::load(
      image(Shared, {kernelInfo("useShared", {8}), kernelInfo("useOther", {})}),
      O);
  ASSERT_FALSE(bool(M));
  std::string Msg;
  takeJitError(M.takeError(), Msg);
  EXPECT_NE(Msg.find("__cucpu_barrier"), std::string::npos) << Msg;
}

TEST_F(JitModuleTest, UnloadRemovesTheJITDylib) {
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}));
  ASSERT_TRUE(M);
  std::string Name = static_cast<LoadedModule &>(*M).dylibName();
  auto Session = JitSession::get();
  ASSERT_TRUE(bool(Session));
  auto &ES = Session->jit().getExecutionSession();
  EXPECT_NE(ES.getJITDylibByName(Name), nullptr) << "loaded";
  M.reset();
  EXPECT_EQ(ES.getJITDylibByName(Name), nullptr) << "unloaded";
}

/// A fresh, empty cache directory for one test.
std::string tempCacheDir() {
  llvm::SmallString<128> Dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("cucpu-cache", Dir));
  return std::string(Dir);
}

TEST_F(JitModuleTest, SecondLoadHitsTheComputeCache) {
  JitOptions O = testOptions();
  O.CacheEnabled = true;
  O.CachePath = tempCacheDir();
  std::string Info;
  O.InfoLog = &Info;
  uint64_t Compiled = compiledModuleCount();
  auto M1 = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), O);
  EXPECT_EQ(compiledModuleCount(), Compiled + 1) << "first load compiles";
  auto M2 = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), O);
  EXPECT_EQ(compiledModuleCount(), Compiled + 1) << "second load does not";
  EXPECT_NE(Info.find("compute cache"), std::string::npos) << Info;
  ASSERT_TRUE(M1 && M2);
  auto K = M2->kernel("add");
  ASSERT_TRUE(bool(K));
  float A = 1, B = 2, C = 0;
  struct {
    float *A, *B, *C;
    int32_t N;
  } Params{&A, &B, &C, 1};
  CucpuBlock Block{};
  Block.BlockDim[0] = 1;
  Block.Params = reinterpret_cast<const char *>(&Params);
  runBlock(entry(*M2, "add"), Block, 1);
  EXPECT_EQ(C, 3.0f) << "cached code runs";
  llvm::sys::fs::remove_directories(O.CachePath);
}

TEST_F(JitModuleTest, AnotherCompilerDoesNotReadCachedObjects) {
  JitOptions O = testOptions();
  O.CacheEnabled = true;
  O.CachePath = tempCacheDir();
  auto Load = [&](const char *Identity) {
    O.CompilerIdentity = Identity;
    uint64_t Before = compiledModuleCount();
    auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), O);
    EXPECT_TRUE(M);
    return compiledModuleCount() - Before;
  };
  EXPECT_EQ(Load("compiler A"), 1u) << "an empty cache";
  EXPECT_EQ(Load("compiler A"), 0u) << "the same compiler reads its object";
  EXPECT_EQ(Load("compiler B"), 1u) << "another compiler compiles again";
  EXPECT_EQ(Load("compiler A"), 0u) << "both objects are kept";
  llvm::sys::fs::remove_directories(O.CachePath);
}

// Run by PerfMapNamesEveryKernel in a child process with CUCPU_PERF=1.
TEST_F(JitModuleTest, ChildWritesThePerfMap) {
  if (!std::getenv("CUCPU_TEST_PERF_CHILD"))
    GTEST_SKIP() << "only run as the child of PerfMapNamesEveryKernel";
  std::string Path = perfMapPath();
  llvm::sys::fs::remove(Path);
  auto M =
      load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), testOptions());
  ASSERT_TRUE(M);
  auto Map = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Map)) << Path;
  std::string Text = (*Map)->getBuffer().str();
  llvm::sys::fs::remove(Path);
  // "START SIZE NAME", hex without 0x, for the block function of the kernel.
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  bool Found = false;
  for (llvm::StringRef Line : Lines) {
    auto [Start, Rest] = Line.split(' ');
    auto [Size, Name] = Rest.split(' ');
    uint64_t Address = 0, Bytes = 0;
    EXPECT_FALSE(Start.getAsInteger(16, Address) ||
                 Size.getAsInteger(16, Bytes))
        << Line.str();
    if (Name == "add [cucpu block]") {
      Found = true;
      EXPECT_EQ(Address, reinterpret_cast<uintptr_t>(M->kernel("add")->Block));
      EXPECT_GT(Bytes, 0u);
    }
  }
  EXPECT_TRUE(Found) << Text;
}

TEST_F(JitModuleTest, PerfMapNamesEveryKernel) {
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string Filter = "--gtest_filter=JitModuleTest.ChildWritesThePerfMap";
  std::vector<llvm::StringRef> Args{Self, Filter};
  std::vector<llvm::StringRef> Envs{"CUCPU_TEST_PERF_CHILD=1", "CUCPU_PERF=1"};
  for (char **E = environ; *E; ++E)
    Envs.push_back(*E);
  std::string Error;
  int Rc = llvm::sys::ExecuteAndWait(Self, Args, Envs, {}, 120, 0, &Error);
  EXPECT_EQ(Rc, 0) << "the child finds the kernel in its map: " << Error;
}

TEST(PerfMap, NamesKernelsByTheirDemangledNameAndRole) {
  EXPECT_EQ(perfMapName("__cucpu_block._Z6vecAddPKfS0_Pfi"),
            "vecAdd(float const*, float const*, float*, int) [cucpu block]");
  EXPECT_EQ(perfMapName("__cucpu_block._Z5scalePf.256x1x1"),
            "scale(float*) [cucpu block 256x1x1]");
  EXPECT_EQ(perfMapName("__cucpu_entry.add"), "add [cucpu thread]");
  EXPECT_EQ(perfMapName("__cucpu_work.add.v2"), "add.v2 [cucpu work]");
  EXPECT_EQ(perfMapName("_Z5twicef"), "twice(float)");
}

TEST(CompilerIdentityTest, NamesTheSourcesAndLLVM) {
  const std::string &Id = compilerIdentity();
  EXPECT_EQ(Id.rfind(std::string("sources ") + compilerSourceId() + "\n", 0),
            0u)
      << Id;
  EXPECT_EQ(std::strlen(compilerSourceId()), 64u) << "a SHA-256 in hex";
  EXPECT_NE(Id.find("llvm " LLVM_VERSION_STRING "\n"), std::string::npos) << Id;
  // LLVM is a shared library here: its build id names it.
  std::string LLVMBuildId = buildIdOf(reinterpret_cast<const void *>(
      static_cast<uint64_t (*)(llvm::ArrayRef<uint8_t>)>(&llvm::xxh3_64bits)));
  if (!LLVMBuildId.empty() && LLVMBuildId != buildIdOf(&Id)) {
    EXPECT_NE(Id.find("libLLVM " + LLVMBuildId + "\n"), std::string::npos)
        << Id;
  }
  EXPECT_EQ(&Id, &compilerIdentity()) << "computed once";
  EXPECT_EQ(buildIdOf(nullptr), "") << "no binary holds address 0";
}

// Run by SecondProcessCompilesNothing in a child process.
TEST_F(JitModuleTest, ChildProcessLoadsFromCache) {
  const char *Dir = std::getenv("CUCPU_TEST_CACHE_CHILD");
  if (!Dir)
    GTEST_SKIP() << "only run as the child of SecondProcessCompilesNothing";
  JitOptions O = testOptions();
  O.CacheEnabled = true;
  O.CachePath = Dir;
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), O);
  ASSERT_TRUE(M);
  EXPECT_EQ(compiledModuleCount(), 0u) << "a fresh process compiles nothing";
  EXPECT_EQ(cachedModuleCount(), 1u) << "it loads from the cache";
}

TEST_F(JitModuleTest, SecondProcessCompilesNothing) {
  JitOptions O = testOptions();
  O.CacheEnabled = true;
  O.CachePath = tempCacheDir();
  auto M = load(image(VectorAdd, {kernelInfo("add", {8, 8, 8, 4})}), O);
  ASSERT_TRUE(M);
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  std::string Filter =
      "--gtest_filter=JitModuleTest.ChildProcessLoadsFromCache";
  std::string Env = "CUCPU_TEST_CACHE_CHILD=" + O.CachePath;
  std::vector<llvm::StringRef> Args{Self, Filter};
  std::vector<llvm::StringRef> Envs{Env};
  for (char **E = environ; *E; ++E)
    Envs.push_back(*E);
  std::string Error;
  int Rc = llvm::sys::ExecuteAndWait(Self, Args, Envs, {}, 120, 0, &Error);
  EXPECT_EQ(Rc, 0) << "the child loads from the cache: " << Error;
  llvm::sys::fs::remove_directories(O.CachePath);
}

} // namespace

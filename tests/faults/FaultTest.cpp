//===- FaultTest.cpp - Faulting kernels cost a context, not the process ---===//
//
// A kernel that writes through a null or wild pointer, divides an integer
// by zero or overflows its stack fails its launch: the next synchronizing
// call of its context reports CUDA_ERROR_ILLEGAL_ADDRESS or
// CUDA_ERROR_LAUNCH_FAILED, and every later call of that context does too. The
// process survives; other contexts keep working, the context can be destroyed
// and a new one created. A fault outside kernel code goes to the application's
// own handler. A kernel that never ends is stopped by the watchdog
// (CUCPU_WATCHDOG_MS) with CUDA_ERROR_LAUNCH_TIMEOUT. (NVIDIA's driver
// poisons the whole process instead: this suite is cucpu's.) CTest runs it
// once per execution mode (CUCPU_EXEC).
//
//===----------------------------------------------------------------------===//
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string name(CUresult R) {
  const char *N = nullptr;
  cuGetErrorName(R, &N);
  return N ? N : std::to_string(int(R));
}
#define EXPECT_CU(Expected, Call) EXPECT_EQ(name(Expected), name(Call)) << #Call
#define ASSERT_CU(Expected, Call) ASSERT_EQ(name(Expected), name(Call)) << #Call

class FaultTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
  }

  /// A context with the kernels loaded, current to this thread.
  struct Loaded {
    CUcontext Ctx = nullptr;
    CUmodule Module = nullptr;
    CUdeviceptr Buffer = 0;
  };
  void load(Loaded &L) {
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&L.Ctx, 0, Dev));
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&L.Module, FAULTS_CUBIN));
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&L.Buffer, 64 * sizeof(int)));
  }
  CUfunction function(const Loaded &L, const char *Name) {
    CUfunction F = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&F, L.Module, Name));
    return F;
  }
  /// Launches \p F on one block of \p Threads and synchronizes.
  CUresult launchAndSync(CUfunction F, void **Args, unsigned Threads = 32) {
    CUresult R =
        cuLaunchKernel(F, 1, 1, 1, Threads, 1, 1, 0, nullptr, Args, nullptr);
    return R != CUDA_SUCCESS ? R : cuCtxSynchronize();
  }
  /// Whether the current context still runs a kernel correctly.
  void expectWorking(const Loaded &L) {
    int Value = 42;
    CUdeviceptr Buffer = L.Buffer;
    void *Args[] = {&Buffer, &Value};
    ASSERT_CU(CUDA_SUCCESS, launchAndSync(function(L, "fill"), Args));
    std::vector<int> Out(32);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemcpyDtoH(Out.data(), L.Buffer, 32 * sizeof(int)));
    EXPECT_EQ(42, Out[31]);
  }

  CUdevice Dev = 0;
};

TEST_F(FaultTest, NullWriteCostsItsContextOnly) {
  Loaded Bystander, Victim;
  load(Bystander);
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  load(Victim);

  int Thread = 7;
  void *Args[] = {&Victim.Buffer, &Thread};
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
            launchAndSync(function(Victim, "writeNull"), Args));
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemAlloc(&P, 16))
      << "the fault is sticky for its context";
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());

  // Another context, current to this thread after the victim is popped,
  // keeps working; the victim can be destroyed; a new context works.
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Bystander.Ctx));
  expectWorking(Bystander);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Victim.Ctx));
  Loaded Fresh;
  load(Fresh);
  expectWorking(Fresh);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Fresh.Ctx));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Bystander.Ctx));
}

TEST_F(FaultTest, WildWriteIsAnIllegalAddress) {
  Loaded L;
  load(L);
  long long Offset = 1LL << 40; // 4 TiB past the buffer.
  void *Args[] = {&L.Buffer, &Offset};
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
            launchAndSync(function(L, "writeFar"), Args));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, IntegerDivisionByZeroFailsTheLaunch) {
  Loaded L;
  load(L);
  int Divisor = 0;
  void *Args[] = {&L.Buffer, &Divisor};
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED,
            launchAndSync(function(L, "divide"), Args, 64));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, StackOverflowFailsTheLaunch) {
  Loaded L;
  load(L);
  int Depth = 1 << 30;
  void *Args[] = {&L.Buffer, &Depth};
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED,
            launchAndSync(function(L, "overflowStack"), Args))
      << "NVIDIA's unspecified launch failure";
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize()) << "sticky";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  Loaded Fresh;
  load(Fresh);
  int Shallow = 100;
  void *Fine[] = {&Fresh.Buffer, &Shallow};
  EXPECT_CU(CUDA_SUCCESS, launchAndSync(function(Fresh, "overflowStack"), Fine))
      << "recursion that fits runs";
  expectWorking(Fresh);
  // Again, now that the workers' rescue stacks have been used once.
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED,
            launchAndSync(function(Fresh, "overflowStack"), Args));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Fresh.Ctx));
}

TEST_F(FaultTest, StackOverflowInLargeFramesFailsTheLaunch) {
  Loaded L;
  load(L);
  int Depth = 1 << 20;
  void *Args[] = {&L.Buffer, &Depth};
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED,
            launchAndSync(function(L, "overflowStackLarge"), Args, 4))
      << "frames of 2 MiB meet the guard page, not memory beyond it";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, ManyFaultsInARow) {
  // Each fault abandons the block's frames; nothing leaks or breaks the
  // workers for the next launch.
  for (int Round = 0; Round < 20; ++Round) {
    Loaded L;
    load(L);
    int Thread = Round % 32;
    void *Args[] = {&L.Buffer, &Thread};
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
              launchAndSync(function(L, "writeNull"), Args));
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  }
  Loaded L;
  load(L);
  expectWorking(L);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, WatchdogStopsAKernelThatNeverEnds) {
  // CUCPU_WATCHDOG_MS is read when a context is created.
  constexpr int WatchdogMs = 300;
  ASSERT_EQ(0,
            setenv("CUCPU_WATCHDOG_MS", std::to_string(WatchdogMs).c_str(), 1));
  Loaded L;
  load(L);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(L.Buffer, 0, 1));
  void *Args[] = {&L.Buffer};
  // The spin loop's volatile reads make the fiber engine meet the warp at
  // every access, and memcheck check each one: the kernel spends most of
  // its time in the engine, not in kernel code, and must still stop.
  auto Start = std::chrono::steady_clock::now();
  CUresult R = cuLaunchKernel(function(L, "spin"), 8, 1, 1, 64, 1, 1, 0,
                              nullptr, Args, nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  auto Took = std::chrono::steady_clock::now() - Start;
  EXPECT_CU(CUDA_ERROR_LAUNCH_TIMEOUT, R);
  // The watchdog's promise, with room for a loaded machine: stopped within
  // ten times its limit (not stopping showed as 4 to 40 s).
  EXPECT_LT(Took, std::chrono::milliseconds(10 * WatchdogMs));
  ASSERT_EQ(0, unsetenv("CUCPU_WATCHDOG_MS"));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  Loaded Fresh;
  load(Fresh);
  expectWorking(Fresh);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Fresh.Ctx));
}

TEST_F(FaultTest, FaultInAStreamIsReportedByTheNextSynchronize) {
  Loaded L;
  load(L);
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  CUfunction Spin = function(L, "spin"), WriteNull = function(L, "writeNull"),
             Fill = function(L, "fill");
  // The stream waits for *Flag, so both launches below are issued before
  // the fault happens.
  int *Flag = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAllocHost(reinterpret_cast<void **>(&Flag), sizeof(int)));
  *Flag = 0;
  int Thread = 3, Value = 9;
  void *SpinArgs[] = {&Flag};
  void *FaultArgs[] = {&L.Buffer, &Thread};
  void *FillArgs[] = {&L.Buffer, &Value};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Spin, 1, 1, 1, 1, 1, 1, 0, S, SpinArgs, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(WriteNull, 1, 1, 1, 32, 1, 1, 0, S,
                                         FaultArgs, nullptr))
      << "the launch itself is fine";
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Fill, 2, 1, 1, 32, 1, 1, 0, S, FillArgs, nullptr))
      << "queued behind the faulting kernel";
  __atomic_store_n(Flag, 1, __ATOMIC_SEQ_CST);
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamSynchronize(S))
      << "the stream's synchronize reports the fault";
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuStreamQuery(S)) << "sticky";
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize()) << "sticky";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  Loaded Fresh;
  load(Fresh);
  expectWorking(Fresh);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Fresh.Ctx));
}

/// Runs under CUDA_LAUNCH_BLOCKING=1 (the faults.launch_blocking test).
class LaunchBlockingTest : public FaultTest {
protected:
  void SetUp() override {
    const char *Blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
    if (!Blocking || std::string(Blocking) != "1")
      GTEST_SKIP() << "runs as faults.launch_blocking, with "
                      "CUDA_LAUNCH_BLOCKING=1";
    FaultTest::SetUp();
  }
};

TEST_F(LaunchBlockingTest, LaunchReturnsTheFault) {
  Loaded L;
  load(L);
  int Thread = 0;
  void *Args[] = {&L.Buffer, &Thread};
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
            cuLaunchKernel(function(L, "writeNull"), 1, 1, 1, 32, 1, 1, 0,
                           nullptr, Args, nullptr))
      << "the launch completes before returning and returns its error";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(LaunchBlockingTest, LaunchesAndCopiesCompleteBeforeReturning) {
  Loaded L;
  load(L);
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  int *Flag = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAllocHost(reinterpret_cast<void **>(&Flag), sizeof(int)));
  *Flag = 0;
  std::thread Setter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    __atomic_store_n(Flag, 1, __ATOMIC_SEQ_CST);
  });
  void *Args[] = {&Flag};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(function(L, "spin"), 1, 1, 1, 1, 1, 1,
                                         0, S, Args, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S))
      << "the kernel finished before the launch returned";
  Setter.join();
  std::vector<int> Pinned(4, 5);
  int *Host = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAllocHost(reinterpret_cast<void **>(&Host), 4 * sizeof(int)));
  std::copy(Pinned.begin(), Pinned.end(), Host);
  EXPECT_CU(CUDA_SUCCESS,
            cuMemcpyHtoDAsync(L.Buffer, Host, 4 * sizeof(int), S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "the copy is done too";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Host));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Flag));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

/// Runs under CUCPU_MEMCHECK=1 (the faults.memcheck test).
class MemcheckTest : public FaultTest {
protected:
  void SetUp() override {
    const char *Memcheck = std::getenv("CUCPU_MEMCHECK");
    if (!Memcheck || std::string(Memcheck) != "1")
      GTEST_SKIP() << "runs as faults.memcheck, with CUCPU_MEMCHECK=1";
    FaultTest::SetUp();
  }
};

TEST_F(MemcheckTest, WritePastAnAllocationIsReported) {
  Loaded L;
  load(L);
  int Count = 64; // L.Buffer holds 64 ints.
  void *Args[] = {&L.Buffer, &Count};
  testing::internal::CaptureStderr();
  CUresult R = cuLaunchKernel(function(L, "writePastEnd"), 2, 1, 1, 32, 1, 1, 0,
                              nullptr, Args, nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  std::string Report = testing::internal::GetCapturedStderr();
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, R) << "the launch fails";
  char Expected[200];
  std::snprintf(Expected, sizeof(Expected),
                "invalid global write of size 4 at 0x%llx by thread (31,0,0) "
                "in block (1,0,0) of kernel \"writePastEnd\"",
                static_cast<unsigned long long>(L.Buffer + 64 * sizeof(int)));
  EXPECT_NE(std::string::npos, Report.find(Expected))
      << "expected \"" << Expected << "\" in: " << Report;
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(MemcheckTest, SharedMemoryOutsideTheLaunchsSizeIsReported) {
  Loaded L;
  load(L);
  CUfunction Shared = function(L, "sharedAt");
  int Index = 63; // Inside 64 ints of dynamic shared memory: fine.
  void *Args[] = {&L.Buffer, &Index};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(Shared, 1, 1, 1, 32, 1, 1, 64 * sizeof(int), nullptr,
                           Args, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "in-bounds accesses pass";
  // Past the 32 ints this launch asks for (the block's buffer may still have
  // room for the 64 of the launch before).
  Index = 40;
  testing::internal::CaptureStderr();
  CUresult R = cuLaunchKernel(Shared, 1, 1, 1, 32, 1, 1, 32 * sizeof(int),
                              nullptr, Args, nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  std::string Report = testing::internal::GetCapturedStderr();
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS, R);
  EXPECT_NE(std::string::npos,
            Report.find("invalid shared write of size 4 at 0x"))
      << Report;
  EXPECT_NE(std::string::npos,
            Report.find("by thread (3,0,0) in block (0,0,0) of kernel "
                        "\"sharedAt\""))
      << Report;
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

/// Runs under CUCPU_SYNCCHECK=1 (the faults.synccheck test).
class SyncCheckTest : public FaultTest {
protected:
  void SetUp() override {
    const char *SyncCheck = std::getenv("CUCPU_SYNCCHECK");
    if (!SyncCheck || std::string(SyncCheck) != "1")
      GTEST_SKIP() << "runs as faults.synccheck, with CUCPU_SYNCCHECK=1";
    FaultTest::SetUp();
  }
  /// Runs warpSum on 0..63 and returns what the checker printed; the sum
  /// is right whatever it reports.
  std::string warpSum(int Ordered, int Race) {
    Loaded L;
    load(L);
    std::vector<int> In(64);
    for (int I = 0; I < 64; ++I)
      In[I] = I;
    EXPECT_CU(CUDA_SUCCESS,
              cuMemcpyHtoD(L.Buffer, In.data(), 64 * sizeof(int)));
    void *Args[] = {&L.Buffer, &Ordered, &Race};
    testing::internal::CaptureStderr();
    EXPECT_CU(CUDA_SUCCESS, launchAndSync(function(L, "warpSum"), Args, 64));
    std::string Report = testing::internal::GetCapturedStderr();
    int Sum = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Sum, L.Buffer, sizeof(int)));
    EXPECT_EQ(64 * 63 / 2, Sum);
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
    return Report;
  }
};

TEST_F(SyncCheckTest, ImplicitWarpSynchronyIsReported) {
  std::string Report = warpSum(/*Ordered=*/0, /*Race=*/0);
  EXPECT_NE(std::string::npos,
            Report.find("cucpu synccheck: kernel \"warpSum\", block (0,0,0): "
                        "thread (0,0,0) and thread (16,0,0)"))
      << Report;
  EXPECT_NE(std::string::npos,
            Report.find("of one warp rely on implicit warp synchrony"))
      << Report;
  EXPECT_EQ(std::string::npos, Report.find("race")) << Report;
}

TEST_F(SyncCheckTest, SyncwarpOrdersTheWarp) {
  EXPECT_EQ("", warpSum(/*Ordered=*/1, /*Race=*/0));
}

TEST_F(SyncCheckTest, RaceBetweenWarpsIsReported) {
  std::string Report = warpSum(/*Ordered=*/1, /*Race=*/1);
  EXPECT_NE(std::string::npos, Report.find("race (")) << Report;
  EXPECT_EQ(std::string::npos, Report.find("implicit warp synchrony"))
      << Report;
}

TEST_F(FaultTest, WildCopyInTheRuntimesMemcpyIsAnIllegalAddress) {
  Loaded L;
  load(L);
  long long Source = 1LL << 46;
  int Bytes = 200;
  void *Args[] = {&L.Buffer, &Source, &Bytes};
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
            launchAndSync(function(L, "copyFrom"), Args));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, WildSetInTheRuntimesMemsetIsAnIllegalAddress) {
  Loaded L;
  load(L);
  long long Target = 0x1000;
  int Bytes = 300;
  void *Args[] = {&Target, &Bytes};
  EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
            launchAndSync(function(L, "setAt"), Args));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, GarbageTextureObjectFailsTheLaunch) {
  for (unsigned long long Garbage : {0xb3ull, 0x1000ull, 0x123456789abcull}) {
    Loaded L;
    load(L);
    void *Args[] = {&Garbage, &L.Buffer};
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
              launchAndSync(function(L, "fetchTexel"), Args))
        << std::hex << Garbage;
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  }
}

TEST_F(FaultTest, FreeOfAPointerOutsideTheDeviceHeapFailsTheLaunch) {
  // NVIDIA's driver (H200, 580.159.04): CUDA_ERROR_ILLEGAL_ADDRESS for a
  // wild pointer; nothing for one into a cuMemAlloc block, which cucpu
  // fails too (docs/conformance.md).
  for (long long Offset : {16LL, 1LL << 44}) {
    Loaded L;
    load(L);
    long long Pointer = (long long)L.Buffer + Offset;
    void *Args[] = {&Pointer};
    EXPECT_CU(CUDA_ERROR_ILLEGAL_ADDRESS,
              launchAndSync(function(L, "freeForeign"), Args));
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  }
}

TEST_F(FaultTest, FreeingABlockTwiceFailsTheLaunch) {
  // CUDA_ERROR_LAUNCH_FAILED, as on NVIDIA's driver.
  Loaded L;
  load(L);
  void *Args[] = {&L.Buffer};
  EXPECT_CU(CUDA_ERROR_LAUNCH_FAILED,
            launchAndSync(function(L, "freeTwice"), Args));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

TEST_F(FaultTest, DeviceHeapSizeIsFixedOnceAKernelAllocates) {
  // As on NVIDIA's driver: cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE) works
  // until a kernel has called malloc, then answers CUDA_ERROR_INVALID_VALUE.
  Loaded L;
  load(L);
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 4 << 20));
  long long Pointer = 0;
  void *FreeArgs[] = {&Pointer};
  ASSERT_CU(CUDA_SUCCESS, launchAndSync(function(L, "freeForeign"), FreeArgs))
      << "free(nullptr) does nothing";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 8 << 20))
      << "free(nullptr) does not make the heap";
  void *Args[] = {&L.Buffer};
  ASSERT_CU(CUDA_SUCCESS, launchAndSync(function(L, "mallocAndFree"), Args));
  long long Got = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Got, L.Buffer, sizeof(Got)));
  EXPECT_NE(0, Got) << "malloc returned a block";
  EXPECT_EQ(0, Got % 16);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
  size_t Limit = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetLimit(&Limit, CU_LIMIT_MALLOC_HEAP_SIZE));
  EXPECT_EQ(size_t(8) << 20, Limit);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
  Loaded Fresh;
  load(Fresh);
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 4 << 20))
      << "a new context has a heap of its own, not made yet";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Fresh.Ctx));
}

volatile sig_atomic_t ApplicationHandlerRan = 0;
void applicationHandler(int) { ApplicationHandlerRan = 1; }

TEST_F(FaultTest, FaultsOutsideKernelsReachTheApplicationsHandler) {
  // The application's handler is installed before cucpu's (the first
  // launch installs those).
  struct sigaction Action = {}, Old = {};
  Action.sa_handler = applicationHandler;
  sigemptyset(&Action.sa_mask);
  ASSERT_EQ(0, sigaction(SIGBUS, &Action, &Old));
  Loaded L;
  load(L);
  expectWorking(L);
  raise(SIGBUS);
  EXPECT_EQ(1, ApplicationHandlerRan) << "cucpu must pass the signal on";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(L.Ctx));
}

} // namespace

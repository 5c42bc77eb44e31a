//===- StressTest.cpp - The driver under many host threads ----------------===//
//
// 16 host threads × 1000 mixed operations on one shared context: allocations,
// copies, launches, module loads, attach/detach, streams and events, private
// contexts, and the shared context handed between threads; every result is
// checked. And a third-party library (ThirdParty.cpp, its own shared
// object) that attaches to the application's context, loads its own module
// and launches while the application keeps using the context from another
// thread. Both run under the tsan preset with zero reports.
//
//===----------------------------------------------------------------------===//
#include "ThirdParty.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

/// Records the first failures of any thread (gtest's assertions are not
/// for worker threads).
class Failures {
public:
  void add(const std::string &What) {
    std::lock_guard Lock(Mutex);
    ++Count;
    if (Messages.size() < 20)
      Messages.push_back(What);
  }
  size_t count() const { return Count; }
  std::string text() const {
    std::string T;
    for (const std::string &M : Messages)
      T += M + "\n";
    return T;
  }

private:
  mutable std::mutex Mutex;
  size_t Count = 0;
  std::vector<std::string> Messages;
};

std::string resultName(CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return Name ? Name : std::to_string(int(R));
}

/// One worker's state and operations on the shared context.
class Worker {
public:
  Worker(int Index, CUcontext Shared, Failures &Fails)
      : Index(Index), Shared(Shared), Fails(Fails),
        Random(uint32_t(Index) * 2654435761u + 1) {}

  void run(int Operations) {
    if (!ok(cuCtxPushCurrent(Shared), "push the shared context"))
      return;
    if (!ok(cuModuleLoad(&Module, STRESS_CUBIN), "load the module") ||
        !ok(cuModuleGetFunction(&Add, Module, "addValue"), "addValue") ||
        !ok(cuModuleGetFunction(&Fill, Module, "fill"), "fill"))
      return;
    for (int Op = 0; Op < Operations; ++Op) {
      switch (next() % 8) {
      case 0:
        allocateAndSet();
        break;
      case 1:
        copyRoundTrip();
        break;
      case 2:
        launch();
        break;
      case 3:
        if (next() % 4 == 0)
          reloadModule();
        else
          launch();
        break;
      case 4:
        attachDetach();
        break;
      case 5:
        streamAndEvent();
        break;
      case 6:
        if (next() % 4 == 0)
          privateContext();
        else
          copyRoundTrip();
        break;
      case 7:
        ok(cuCtxSynchronize(), "cuCtxSynchronize");
        break;
      }
    }
    ok(cuModuleUnload(Module), "unload the module");
    CUcontext Popped = nullptr;
    ok(cuCtxPopCurrent(&Popped), "pop the shared context");
    if (Popped != Shared)
      fail("popped a context other than the shared one");
  }

private:
  uint32_t next() {
    Random = Random * 1664525u + 1013904223u;
    return Random >> 8;
  }
  bool ok(CUresult R, const char *What) {
    if (R == CUDA_SUCCESS)
      return true;
    fail(std::string(What) + ": " + resultName(R));
    return false;
  }
  void fail(const std::string &What) {
    Fails.add("thread " + std::to_string(Index) + ": " + What);
  }

  void allocateAndSet() {
    size_t Words = 1 + next() % 16384;
    unsigned Pattern = next();
    CUdeviceptr P = 0;
    if (!ok(cuMemAlloc(&P, Words * 4), "cuMemAlloc"))
      return;
    unsigned Last = 0;
    if (ok(cuMemsetD32(P, Pattern, Words), "cuMemsetD32") &&
        ok(cuMemcpyDtoH(&Last, P + (Words - 1) * 4, 4), "read back") &&
        Last != Pattern)
      fail("memset pattern lost");
    ok(cuMemFree(P), "cuMemFree");
  }

  void copyRoundTrip() {
    int N = 1 + int(next() % 4096);
    std::vector<int> In(N), Out(N, -1);
    for (int I = 0; I < N; ++I)
      In[I] = int(next());
    CUdeviceptr A = 0, B = 0;
    if (ok(cuMemAlloc(&A, N * 4), "alloc A") &&
        ok(cuMemAlloc(&B, N * 4), "alloc B") &&
        ok(cuMemcpyHtoD(A, In.data(), N * 4), "HtoD") &&
        ok(cuMemcpyDtoD(B, A, N * 4), "DtoD") &&
        ok(cuMemcpyDtoH(Out.data(), B, N * 4), "DtoH") && In != Out)
      fail("copies changed the data");
    if (A)
      ok(cuMemFree(A), "free A");
    if (B)
      ok(cuMemFree(B), "free B");
  }

  /// fill then addValue on a buffer of this thread; checks every element.
  void launchOn(CUfunction FillFn, CUfunction AddFn, CUstream Stream,
                bool Async) {
    int N = 1 + int(next() % 2048), Base = int(next() % 1000),
        Value = int(next() % 1000);
    CUdeviceptr P = 0;
    if (!ok(cuMemAlloc(&P, N * 4), "alloc"))
      return;
    void *FillArgs[] = {&P, &N, &Base};
    void *AddArgs[] = {&P, &N, &Value};
    unsigned Blocks = unsigned(N + 127) / 128;
    std::vector<int> Out(N);
    bool Ran = ok(cuLaunchKernel(FillFn, Blocks, 1, 1, 128, 1, 1, 0, Stream,
                                 FillArgs, nullptr),
                  "launch fill") &&
               ok(cuLaunchKernel(AddFn, Blocks, 1, 1, 128, 1, 1, 0, Stream,
                                 AddArgs, nullptr),
                  "launch addValue");
    if (Ran && Async) {
      CUevent Done = nullptr;
      Ran = ok(cuEventCreate(&Done, 0), "cuEventCreate") &&
            ok(cuEventRecord(Done, Stream), "cuEventRecord") &&
            ok(cuMemcpyDtoHAsync(Out.data(), P, N * 4, Stream), "DtoHAsync") &&
            ok(cuEventSynchronize(Done), "cuEventSynchronize") &&
            ok(cuStreamSynchronize(Stream), "cuStreamSynchronize");
      if (Done)
        ok(cuEventDestroy(Done), "cuEventDestroy");
    } else if (Ran) {
      Ran = ok(cuMemcpyDtoH(Out.data(), P, N * 4), "DtoH");
    }
    if (Ran)
      for (int I = 0; I < N; ++I)
        if (Out[I] != Base + I + Value) {
          fail("kernel result wrong at " + std::to_string(I));
          break;
        }
    ok(cuMemFree(P), "free");
  }

  void launch() { launchOn(Fill, Add, nullptr, false); }

  void reloadModule() {
    CUmodule Own = nullptr;
    CUfunction OwnFill = nullptr, OwnAdd = nullptr;
    if (ok(cuModuleLoad(&Own, STRESS_CUBIN), "load a second module") &&
        ok(cuModuleGetFunction(&OwnFill, Own, "fill"), "fill") &&
        ok(cuModuleGetFunction(&OwnAdd, Own, "addValue"), "addValue"))
      launchOn(OwnFill, OwnAdd, nullptr, false);
    if (Own)
      ok(cuModuleUnload(Own), "unload the second module");
  }

  void attachDetach() {
    CUcontext Attached = nullptr;
    if (!ok(cuCtxAttach(&Attached, 0), "cuCtxAttach"))
      return;
    if (Attached != Shared)
      fail("cuCtxAttach returned another context");
    ok(cuCtxDetach(Attached), "cuCtxDetach");
  }

  void streamAndEvent() {
    CUstream Stream = nullptr;
    if (!ok(cuStreamCreate(&Stream, next() % 2 ? CU_STREAM_NON_BLOCKING : 0),
            "cuStreamCreate"))
      return;
    launchOn(Fill, Add, Stream, true);
    ok(cuStreamDestroy(Stream), "cuStreamDestroy");
  }

  void privateContext() {
    CUdevice Dev = 0;
    CUcontext Own = nullptr;
    if (!ok(cuCtxGetDevice(&Dev), "cuCtxGetDevice") ||
        !ok(cuCtxCreate(&Own, 0, Dev), "create a private context"))
      return;
    int Value = int(next()), Back = 0;
    CUdeviceptr P = 0;
    if (ok(cuMemAlloc(&P, 4), "alloc in the private context") &&
        ok(cuMemcpyHtoD(P, &Value, 4), "HtoD") &&
        ok(cuMemcpyDtoH(&Back, P, 4), "DtoH") && Back != Value)
      fail("private context lost a value");
    ok(cuCtxDestroy(Own), "destroy the private context");
    CUcontext Current = nullptr;
    ok(cuCtxGetCurrent(&Current), "cuCtxGetCurrent");
    if (Current != Shared)
      fail("destroying a private context did not uncover the shared one");
  }

  int Index;
  CUcontext Shared;
  Failures &Fails;
  uint32_t Random;
  CUmodule Module = nullptr;
  CUfunction Add = nullptr, Fill = nullptr;
};

class StressTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(CUDA_SUCCESS, cuInit(0));
    CUdevice Dev = 0;
    ASSERT_EQ(CUDA_SUCCESS, cuDeviceGet(&Dev, 0));
    ASSERT_EQ(CUDA_SUCCESS, cuCtxCreate(&Ctx, 0, Dev));
    CUcontext Popped = nullptr;
    ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  }
  void TearDown() override { EXPECT_EQ(CUDA_SUCCESS, cuCtxDestroy(Ctx)); }

  CUcontext Ctx = nullptr;
};

TEST_F(StressTest, SixteenThreadsShareOneContext) {
  Failures Fails;
  std::vector<std::thread> Threads;
  for (int T = 0; T < 16; ++T)
    Threads.emplace_back([&, T] { Worker(T, Ctx, Fails).run(1000); });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(0u, Fails.count()) << Fails.text();
}

TEST_F(StressTest, ContextHandedBetweenThreads) {
  // One context moves from thread to thread with cuCtxPopCurrent and
  // cuCtxPushCurrent; each thread adds its number to the same buffer.
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(Ctx));
  CUdeviceptr Total = 0;
  ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&Total, 4));
  ASSERT_EQ(CUDA_SUCCESS, cuMemsetD32(Total, 0, 1));
  CUcontext Popped = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  Failures Fails;
  for (int T = 1; T <= 8; ++T) {
    std::thread([&, T] {
      CUcontext Mine = nullptr;
      if (cuCtxPushCurrent(Ctx) != CUDA_SUCCESS)
        return Fails.add("push");
      int Value = 0;
      if (cuMemcpyDtoH(&Value, Total, 4) != CUDA_SUCCESS)
        Fails.add("read");
      Value += T;
      if (cuMemcpyHtoD(Total, &Value, 4) != CUDA_SUCCESS)
        Fails.add("write");
      if (cuCtxPopCurrent(&Mine) != CUDA_SUCCESS || Mine != Ctx)
        Fails.add("pop");
    }).join();
  }
  EXPECT_EQ(0u, Fails.count()) << Fails.text();
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(Ctx));
  int Sum = 0;
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(&Sum, Total, 4));
  EXPECT_EQ(36, Sum);
  EXPECT_EQ(CUDA_SUCCESS, cuMemFree(Total));
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
}

TEST_F(StressTest, ThirdPartyLibraryAttachesWhileTheApplicationWorks) {
  const int N = 4096;
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPushCurrent(Ctx));
  CUdeviceptr Data = 0;
  ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&Data, N * sizeof(float)));
  std::vector<float> Ones(N, 1.0f);
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpyHtoD(Data, Ones.data(), N * sizeof(float)));
  CUmodule Module = nullptr;
  CUfunction Fill = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleLoad(&Module, STRESS_CUBIN));
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&Fill, Module, "fill"));

  // The library's thread: the application makes its context current there
  // and calls the library, which attaches, loads, launches and detaches.
  std::atomic<CUresult> LibraryResult{CUDA_SUCCESS};
  std::thread Library([&] {
    if (cuCtxSetCurrent(Ctx) != CUDA_SUCCESS) {
      LibraryResult = CUDA_ERROR_INVALID_CONTEXT;
      return;
    }
    for (int I = 0; I < 20 && LibraryResult == CUDA_SUCCESS; ++I)
      LibraryResult = thirdPartyScale(Data, N, 2.0f);
    cuCtxSetCurrent(nullptr);
  });
  // Meanwhile the application launches into its own buffer.
  CUdeviceptr Own = 0;
  ASSERT_EQ(CUDA_SUCCESS, cuMemAlloc(&Own, N * sizeof(int)));
  std::vector<int> Out(N);
  for (int Round = 0; Round < 50; ++Round) {
    int Base = Round * 10, Count = N;
    void *Args[] = {&Own, &Count, &Base};
    ASSERT_EQ(CUDA_SUCCESS, cuLaunchKernel(Fill, N / 128, 1, 1, 128, 1, 1, 0,
                                           nullptr, Args, nullptr));
    ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(Out.data(), Own, N * sizeof(int)));
    ASSERT_EQ(Base + N - 1, Out[N - 1]);
  }
  Library.join();
  EXPECT_EQ(CUDA_SUCCESS, LibraryResult.load()) << resultName(LibraryResult);
  std::vector<float> Scaled(N);
  ASSERT_EQ(CUDA_SUCCESS, cuMemcpyDtoH(Scaled.data(), Data, N * sizeof(float)));
  EXPECT_EQ(1048576.0f, Scaled[0]) << "2^20 after 20 doublings";
  EXPECT_EQ(1048576.0f, Scaled[N - 1]);
  unsigned Version = 0;
  EXPECT_EQ(CUDA_SUCCESS, cuCtxGetApiVersion(Ctx, &Version))
      << "the library's detach left the context alive";
  EXPECT_EQ(CUDA_SUCCESS, cuMemFree(Own));
  EXPECT_EQ(CUDA_SUCCESS, cuMemFree(Data));
  EXPECT_EQ(CUDA_SUCCESS, cuModuleUnload(Module));
  CUcontext Popped = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
}

} // namespace

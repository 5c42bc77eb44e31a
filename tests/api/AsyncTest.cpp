//===- AsyncTest.cpp - Streams, events and callbacks at work --------------===//
//
// Asynchronous behaviour checked without relying on timing: a kernel that
// waits for a flag in mapped page-locked memory keeps its stream busy until
// the test sets the flag, so "not done yet", "waits for" and "runs at the same
// time as" are facts rather than races. Kernels: kernels/async.cu.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace cuapi;
using namespace std::chrono_literals;

namespace {

/// How long a test waits for something that must happen.
constexpr auto Deadline = 20s;

/// Two ints in mapped page-locked memory: a flag kernels wait for, and the
/// "done" mark waitForFlag sets. Destroying it sets the flag, so a failed
/// test never leaves a kernel waiting.
class Flag {
public:
  Flag() {
    if (cuMemHostAlloc(&Host, 2 * sizeof(int), CU_MEMHOSTALLOC_DEVICEMAP) !=
        CUDA_SUCCESS)
      return;
    static_cast<int *>(Host)[0] = 0;
    static_cast<int *>(Host)[1] = 0;
    Ok = cuMemHostGetDevicePointer(&Dev, Host, 0) == CUDA_SUCCESS;
  }
  ~Flag() {
    if (!Host)
      return;
    set();
    cuMemFreeHost(Host);
  }
  Flag(const Flag &) = delete;
  Flag &operator=(const Flag &) = delete;

  bool ok() const { return Ok; }
  void set() {
    __atomic_store_n(static_cast<int *>(Host), 1, __ATOMIC_SEQ_CST);
  }
  int done() const {
    return __atomic_load_n(static_cast<int *>(Host) + 1, __ATOMIC_SEQ_CST);
  }
  CUdeviceptr flag() const { return Dev; }
  CUdeviceptr doneMark() const { return Dev + sizeof(int); }

private:
  void *Host = nullptr;
  CUdeviceptr Dev = 0;
  bool Ok = false;
};

class Async : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, CUCPU_API_ASYNC_MODULE))
        << "setup: the test kernels (" << CUCPU_API_ASYNC_MODULE << ")";
    ASSERT_CU(CUDA_SUCCESS,
              cuModuleGetFunction(&WaitForFlag, Mod, "waitForFlag"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&SetFlag, Mod, "setFlag"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddOne, Mod, "addOne"));
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Data, N * sizeof(int)));
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Data, 0, N));
  }
  void TearDown() override {
    if (Ctx) {
      EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "no fault in the test";
      if (Data) {
        EXPECT_CU(CUDA_SUCCESS, cuMemFree(Data));
      }
      if (Mod) {
        EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
      }
    }
    DriverTest::TearDown();
  }

  /// waitForFlag on \p S: the stream stays busy until \p F is set.
  CUresult launchWait(CUstream S, Flag &F) {
    CUdeviceptr FlagPtr = F.flag(), Done = F.doneMark();
    void *Args[] = {&FlagPtr, &Done};
    return cuLaunchKernel(WaitForFlag, 1, 1, 1, 1, 1, 1, 0, S, Args, nullptr);
  }
  /// setFlag on \p S.
  CUresult launchSet(CUstream S, Flag &F) {
    CUdeviceptr FlagPtr = F.flag();
    void *Args[] = {&FlagPtr};
    return cuLaunchKernel(SetFlag, 1, 1, 1, 1, 1, 1, 0, S, Args, nullptr);
  }
  /// addOne over Data on \p S.
  CUresult launchAddOne(CUstream S) {
    int Count = N;
    void *Args[] = {&Data, &Count};
    return cuLaunchKernel(AddOne, (N + 127) / 128, 1, 1, 128, 1, 1, 0, S, Args,
                          nullptr);
  }
  /// Polls cuStreamQuery(S) while it answers NOT_READY, up to the deadline.
  static CUresult queryUntilDone(CUstream S) {
    auto End = std::chrono::steady_clock::now() + Deadline;
    CUresult R;
    while ((R = cuStreamQuery(S)) == CUDA_ERROR_NOT_READY &&
           std::chrono::steady_clock::now() < End)
      std::this_thread::sleep_for(1ms);
    return R;
  }
  /// Whether every int of Data equals \p Value.
  bool dataIs(int Value) {
    std::vector<int> Host(N, -1);
    if (cuMemcpyDtoH(Host.data(), Data, N * sizeof(int)) != CUDA_SUCCESS)
      return false;
    for (int V : Host)
      if (V != Value)
        return false;
    return true;
  }
  CUstream createStream(unsigned Flags) {
    CUstream S = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&S, Flags)) << "setup: a stream";
    return S;
  }

  static constexpr int N = 1000;
  CUmodule Mod = nullptr;
  CUfunction WaitForFlag = nullptr, SetFlag = nullptr, AddOne = nullptr;
  CUdeviceptr Data = 0;
};

TEST_F(Async, LaunchReturnsWhileTheKernelRuns) {
  Flag F;
  ASSERT_TRUE(F.ok()) << "setup: mapped page-locked memory";
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F)) << "the launch returns at once";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(S))
      << "the kernel waits for the flag, so the stream is busy";
  EXPECT_EQ(0, F.done()) << "the kernel has not finished";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "the kernel can finish";
  EXPECT_EQ(1, F.done()) << "synchronize returned after the kernel";
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "nothing left in the stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, KernelsOfTwoStreamsRunAtTheSameTime) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream A = createStream(CU_STREAM_NON_BLOCKING);
  CUstream B = createStream(CU_STREAM_NON_BLOCKING);
  ASSERT_CU(CUDA_SUCCESS, launchWait(A, F)) << "A waits for the flag";
  ASSERT_CU(CUDA_SUCCESS, launchSet(B, F)) << "B's kernel sets it";
  EXPECT_CU(CUDA_SUCCESS, queryUntilDone(A))
      << "A's kernel finishes only because B's ran while it was running";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(B));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(A));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(B));
}

TEST_F(Async, LegacyStreamWaitsForBlockingStreams) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(nullptr)) << "a launch on stream 0";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(nullptr))
      << "stream 0's launch waits for the blocking stream's kernel";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_TRUE(dataIs(1)) << "stream 0's kernel ran once";
  EXPECT_EQ(1, F.done()) << "after the kernel it waited for";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, BlockingStreamWaitsForLegacyStream) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, launchWait(nullptr, F)) << "stream 0 is busy";
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(S));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(S))
      << "the blocking stream's launch waits for stream 0's kernel";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_TRUE(dataIs(1));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, NonBlockingStreamAndLegacyStreamDoNotWait) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_NON_BLOCKING);
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F))
      << "the non-blocking stream is busy";
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(nullptr));
  EXPECT_CU(CUDA_SUCCESS, queryUntilDone(nullptr))
      << "stream 0 does not wait for a non-blocking stream";
  EXPECT_EQ(0, F.done()) << "while that stream is still busy";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));

  Flag G;
  ASSERT_TRUE(G.ok());
  ASSERT_CU(CUDA_SUCCESS, launchWait(nullptr, G)) << "now stream 0 is busy";
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(S));
  EXPECT_CU(CUDA_SUCCESS, queryUntilDone(S))
      << "a non-blocking stream does not wait for stream 0";
  EXPECT_EQ(0, G.done());
  G.set();
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_TRUE(dataIs(2));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, StreamWaitEventOrdersTwoStreams) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream A = createStream(CU_STREAM_NON_BLOCKING);
  CUstream B = createStream(CU_STREAM_NON_BLOCKING);
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, launchWait(A, F));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, A)) << "recorded behind the kernel";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventQuery(E)) << "the kernel still waits";
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(B, E, 0));
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(B));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(B))
      << "B's launch waits for the event in A";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(B));
  EXPECT_TRUE(dataIs(1));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(E)) << "the event has completed";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(A));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(B));
}

TEST_F(Async, EventSynchronizeWaitsForTheRecord) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_BLOCKING_SYNC));
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, S));
  std::thread Setter([&] {
    std::this_thread::sleep_for(50ms);
    F.set();
  });
  EXPECT_CU(CUDA_SUCCESS, cuEventSynchronize(E));
  EXPECT_EQ(1, F.done()) << "the event completes after the work before it";
  Setter.join();
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, ElapsedTimeCoversTheWorkBetweenEvents) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CUevent Start = nullptr, Stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Start, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Stop, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Start, S));
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Stop, S));
  float Ms = -1;
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuEventElapsedTime(&Ms, Start, Stop))
      << "the end event has not completed";
  std::this_thread::sleep_for(100ms);
  F.set();
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(Stop));
  EXPECT_CU(CUDA_SUCCESS, cuEventElapsedTime(&Ms, Start, Stop));
  EXPECT_GE(Ms, 50.0f) << "the kernel waited about 100 ms for the flag";
  EXPECT_LT(Ms, 20000.0f) << "in milliseconds";
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Start));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Stop));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

struct CallbackLog {
  std::atomic<int> Calls{0};
  std::atomic<int> DoneWhenCalled{-1};
  CUresult Status = CUDA_ERROR_UNKNOWN;
  CUstream Stream = nullptr;
  CUresult CallInside = CUDA_ERROR_UNKNOWN;
  Flag *F = nullptr;
};

void CUDA_CB onStream(CUstream S, CUresult Status, void *UserData) {
  auto *Log = static_cast<CallbackLog *>(UserData);
  Log->Status = Status;
  Log->Stream = S;
  Log->DoneWhenCalled = Log->F->done();
  Log->Calls.fetch_add(1);
}

void CUDA_CB hostFunction(void *UserData) {
  auto *Log = static_cast<CallbackLog *>(UserData);
  Log->DoneWhenCalled = Log->F->done();
  Log->Calls.fetch_add(1);
}

TEST_F(Async, CallbackRunsAfterTheWorkBeforeIt) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CallbackLog Log;
  Log.F = &F;
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuStreamAddCallback(S, onStream, &Log, 0));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(0, Log.Calls.load()) << "the callback waits for the kernel";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(1, Log.Calls.load()) << "called once, before synchronize returns";
  EXPECT_EQ(1, Log.DoneWhenCalled.load()) << "after the kernel finished";
  EXPECT_CU(CUDA_SUCCESS, Log.Status) << "no error in the stream";
  EXPECT_EQ(S, Log.Stream) << "the callback is told its stream";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, HostFunctionRunsInStreamOrder) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_NON_BLOCKING);
  CallbackLog Log;
  Log.F = &F;
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(S, hostFunction, &Log));
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(S)) << "work after the host function";
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(0, Log.Calls.load()) << "the host function waits for the kernel";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(1, Log.Calls.load());
  EXPECT_EQ(1, Log.DoneWhenCalled.load());
  EXPECT_TRUE(dataIs(1)) << "the launch after it ran too";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, DestroyingAStreamLetsItsWorkComplete) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S)) << "returns with work queued";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(1, F.done()) << "the queued kernel ran";
  EXPECT_TRUE(dataIs(1)) << "and the launch after it";
}

TEST_F(Async, DestroyingAPendingEvent) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CUevent E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(E, S));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E)) << "a pending event";
  F.set();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, CopyFromPageLockedMemoryRunsInStreamOrder) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  int *Pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAllocHost(reinterpret_cast<void **>(&Pinned), sizeof(int)));
  *Pinned = 1;
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(Data, Pinned, sizeof(int), S))
      << "returns while the kernel before it waits";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(S));
  *Pinned = 2; // The copy has not started: it reads this value.
  F.set();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  int Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Back, Data, sizeof(int)));
  EXPECT_EQ(2, Back) << "the copy ran after the kernel, in stream order";

  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F)) << "the flag is still set";
  *Pinned = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(Pinned, Data, sizeof(int), S));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(2, *Pinned) << "device to page-locked host";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Pinned));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, UnifiedCopyRunsInStreamOrder) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_NON_BLOCKING);
  int *Pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAllocHost(reinterpret_cast<void **>(&Pinned), sizeof(int)));
  int Seven = 7;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(Data, &Seven, sizeof(int)));
  *Pinned = 1;
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(Pinned),
                                        Data, sizeof(int), S))
      << "cuMemcpyAsync takes unified addresses and a stream";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(S))
      << "the copy waits behind the kernel";
  EXPECT_EQ(1, *Pinned) << "so page-locked memory is not written yet";
  F.set();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(7, *Pinned) << "the copy ran after the kernel, in stream order";
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(Pinned));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, CopyFromPageableMemoryReadsItBeforeReturning) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  std::thread Setter([&] {
    std::this_thread::sleep_for(50ms);
    F.set();
  });
  std::vector<int> Pageable(1, 1);
  auto Before = std::chrono::steady_clock::now();
  EXPECT_CU(CUDA_SUCCESS,
            cuMemcpyHtoDAsync(Data, Pageable.data(), sizeof(int), S));
  double Waited = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - Before)
                      .count();
  report("async.pageable_htod_returned_after_ms", Waited);
  EXPECT_EQ(0, F.done())
      << "observed on NVIDIA: a small pageable copy is staged, and the call "
         "returns while the stream is still busy";
  Pageable[0] = 2; // The source may be reused once the call returns.
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  Setter.join();
  int Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Back, Data, sizeof(int)));
  EXPECT_EQ(1, Back) << "the value the source held during the call";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, CopyToPageableMemoryIsDoneWhenItReturns) {
  Flag F;
  ASSERT_TRUE(F.ok());
  CUstream S = createStream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Data, 7, N));
  ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  ASSERT_CU(CUDA_SUCCESS, launchAddOne(S));
  std::thread Setter([&] {
    std::this_thread::sleep_for(50ms);
    F.set();
  });
  std::vector<int> Pageable(N, 0);
  EXPECT_CU(CUDA_SUCCESS,
            cuMemcpyDtoHAsync(Pageable.data(), Data, N * sizeof(int), S));
  EXPECT_EQ(8, Pageable[N - 1])
      << "the copy waited for the stream's work and completed";
  Setter.join();
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, QueuedLaunchesRunInOrder) {
  CUstream S = createStream(CU_STREAM_NON_BLOCKING);
  for (int I = 0; I < 200; ++I)
    ASSERT_CU(CUDA_SUCCESS, launchAddOne(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_TRUE(dataIs(200)) << "every launch ran once";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

TEST_F(Async, ContextSynchronizeWaitsForEveryStream) {
  Flag F;
  ASSERT_TRUE(F.ok());
  std::vector<CUstream> Streams;
  for (unsigned Flags :
       {CU_STREAM_DEFAULT, CU_STREAM_NON_BLOCKING, CU_STREAM_NON_BLOCKING})
    Streams.push_back(createStream(Flags));
  for (CUstream S : Streams)
    ASSERT_CU(CUDA_SUCCESS, launchWait(S, F));
  std::thread Setter([&] {
    std::this_thread::sleep_for(30ms);
    F.set();
  });
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  for (CUstream S : Streams) {
    EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "every stream is idle";
    EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  }
  Setter.join();
}

void CUDA_CB queriesItsStream(CUstream S, CUresult, void *UserData) {
  static_cast<CallbackLog *>(UserData)->CallInside = cuStreamQuery(S);
}

TEST_F(Async, CallbackSeesItsStreamBusy) {
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CallbackLog Log;
  ASSERT_CU(CUDA_SUCCESS, cuStreamAddCallback(S, queriesItsStream, &Log, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_CU(CUDA_ERROR_NOT_READY, Log.CallInside)
      << "observed on NVIDIA: the callback itself is the stream's pending work";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
}

void CUDA_CB waitsForItsStream(CUstream S, CUresult, void *UserData) {
  static_cast<CallbackLog *>(UserData)->CallInside = cuStreamSynchronize(S);
}

TEST_F(Async, CallbackCannotWaitForStreamWork) {
#if CUCPU_ONLY
  CUstream S = createStream(CU_STREAM_DEFAULT);
  CallbackLog Log;
  ASSERT_CU(CUDA_SUCCESS, cuStreamAddCallback(S, waitsForItsStream, &Log, 0));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "the callback returned instead of waiting for itself";
  EXPECT_CU(CUDA_ERROR_NOT_PERMITTED, Log.CallInside)
      << "a callback that synchronizes would wait for itself; NVIDIA "
         "documents such calls as not permitted";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
#else
  GTEST_SKIP() << "cucpu-only: on NVIDIA's driver a callback that "
                  "synchronizes its own stream may hang";
#endif
}

} // namespace

//===- StreamCaptureTest.cpp - Stream capture into graphs -----------------===//
//
// cuStreamBeginCapture / cuStreamEndCapture turn the work enqueued on a stream
// into a graph instead of running it. The cases check that captured work runs
// only when the graph is launched and then gives what running it directly
// gives, the capture states, forks into other streams through events, and the
// operations a capture refuses. Kernels: kernels/graph.cu.
//
//===----------------------------------------------------------------------===//

#include "GraphFixture.h"

#include <atomic>
#include <thread>
#include <vector>

using namespace cuapi;

namespace {

/// The user data of a captured host function: how often it ran, and the
/// value it read from page-locked memory that a copy before it wrote.
struct HostCall {
  const int *Where = nullptr;
  std::atomic<int> Calls{0};
  std::atomic<int> Seen{-1};
};

void CUDA_CB readAndCount(void *UserData) {
  auto *H = static_cast<HostCall *>(UserData);
  H->Seen = __atomic_load_n(H->Where, __ATOMIC_SEQ_CST);
  H->Calls.fetch_add(1);
}

/// The graph fixture plus what the capture cases share.
class StreamCapture : public GraphFixture {
protected:
  // Everything a case needs is made before its capture begins: allocation
  // is among the calls a global-mode capture forbids.

  /// The mixed work of the capture cases, on \p S: a memset, a copy from
  /// page-locked memory, two kernels, a copy back and a host function that
  /// reads what the copy back wrote. Out = (5 + In) * 3.
  CUresult enqueueWork(CUstream S, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
                       const int *In, int *Out, HostCall &Call) {
    Call.Where = Out + N - 1;
    CUresult R;
    if ((R = cuMemsetD32Async(A, 5, N, S)) != CUDA_SUCCESS ||
        (R = cuMemcpyHtoDAsync(B, In, N * sizeof(int), S)) != CUDA_SUCCESS ||
        (R = launchAddArrays(S, A, B, C)) != CUDA_SUCCESS ||
        (R = launchScaleBy(S, C, 3)) != CUDA_SUCCESS ||
        (R = cuMemcpyDtoHAsync(Out, C, N * sizeof(int), S)) != CUDA_SUCCESS)
      return R;
    return cuLaunchHostFunc(S, readAndCount, &Call);
  }

  /// The capture status of \p S, or INVALIDATED if the query fails.
  static CUstreamCaptureStatus statusOf(CUstream S) {
    CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
    EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing(S, &Status));
    return Status;
  }
  /// The id of the capture sequence \p S is in.
  static cuuint64_t captureId(CUstream S) {
    CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_NONE;
    cuuint64_t Id = 0;
    EXPECT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(S, &Status, &Id, nullptr,
                                                   nullptr, nullptr, nullptr));
    EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, Status);
    return Id;
  }
  /// The number of nodes of \p G.
  static size_t nodeCount(CUgraph G) {
    size_t Count = 0;
    EXPECT_CU(CUDA_SUCCESS, cuGraphGetNodes(G, nullptr, &Count));
    return Count;
  }
};

//===----------------------------------------------------------------------===//
// Captured work
//===----------------------------------------------------------------------===//

TEST_F(StreamCapture, CapturedWorkMatchesDirectExecution) {
  CUdeviceptr A = buffer(), B = buffer(), C = buffer();
  int *In = pinned(), *Out = pinned();
  ASSERT_TRUE(In && Out);
  for (int I = 0; I < N; ++I)
    In[I] = I;
  CUstream S = stream();
  HostCall Direct;
  ASSERT_CU(CUDA_SUCCESS, enqueueWork(S, A, B, C, In, Out, Direct));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  std::vector<int> Expected(Out, Out + N);
  EXPECT_EQ(15, Expected[0]) << "(5 + 0) * 3, run directly";
  EXPECT_EQ(1, Direct.Calls.load());

  std::fill(Out, Out + N, -1);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(C, static_cast<unsigned>(-1), N));
  HostCall Captured;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, enqueueWork(S, A, B, C, In, Out, Captured))
      << "each operation is captured";
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  ASSERT_NE(nullptr, G);
  EXPECT_EQ(0, Captured.Calls.load()) << "captured work does not run";
  EXPECT_EQ(-1, Out[0]) << "the copy back did not run";
  EXPECT_TRUE(holds(C, -1)) << "nor did the kernels";

  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ(Expected, std::vector<int>(Out, Out + N))
      << "the graph gives what running the work directly gave";
  EXPECT_EQ(1, Captured.Calls.load()) << "the host function ran once";
  EXPECT_EQ(Expected[N - 1], Captured.Seen.load())
      << "after the copy back before it";

  for (int I = 0; I < N; ++I)
    In[I] = 2 * I;
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_EQ((5 + 2 * (N - 1)) * 3, Out[N - 1])
      << "each launch reads the page-locked source anew";
  EXPECT_EQ(2, Captured.Calls.load());
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(StreamCapture, CapturedGraphHasOneNodePerOperation) {
  CUdeviceptr A = buffer(), B = buffer(), C = buffer();
  int *In = pinned(0), *Out = pinned();
  ASSERT_TRUE(In && Out);
  CUstream S = stream();
  HostCall Call;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, enqueueWork(S, A, B, C, In, Out, Call));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  ASSERT_NE(nullptr, G);
  EXPECT_EQ(6u, nodeCount(G)) << "six operations, six nodes";
  size_t Count = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphGetEdges(G, nullptr, nullptr, nullptr, &Count));
  EXPECT_EQ(5u, Count) << "one stream: a chain";
  CUgraphNode Node = nullptr;
  Count = 1;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(G, &Node, &Count));
  ASSERT_EQ(1u, Count) << "the first operation is the only root";
  const CUgraphNodeType Chain[] = {
      CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_MEMCPY,
      CU_GRAPH_NODE_TYPE_KERNEL, CU_GRAPH_NODE_TYPE_KERNEL,
      CU_GRAPH_NODE_TYPE_MEMCPY, CU_GRAPH_NODE_TYPE_HOST};
  for (size_t I = 0; I < 6; ++I) {
    CUgraphNodeType T = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(Node, &T));
    EXPECT_EQ(Chain[I], T) << "operation " << I << " in stream order";
    CUgraphNode Next = nullptr;
    Count = 1;
    ASSERT_CU(CUDA_SUCCESS,
              cuGraphNodeGetDependentNodes(Node, &Next, nullptr, &Count));
    if (I == 5) {
      EXPECT_EQ(0u, Count) << "the host node ends the chain";
    } else {
      ASSERT_EQ(1u, Count) << "operation " << I << " leads to the next";
    }
    Node = Next;
  }
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

//===----------------------------------------------------------------------===//
// Capture state and information
//===----------------------------------------------------------------------===//

TEST_F(StreamCapture, IsCapturingReportsEachState) {
  CUdeviceptr A = buffer();
  CUstream S = stream();
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S)) << "before";
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, statusOf(S)) << "capturing";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(S))
      << "a capturing stream has no work to query";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, statusOf(S))
      << "the refused query invalidated the capture";
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuMemsetD32Async(A, 2, N, S))
      << "observed on NVIDIA: further work on an invalidated capture is "
         "refused";
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(S, &G));
  EXPECT_EQ(nullptr, G) << "an invalidated capture gives no graph";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S)) << "after the end";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 3, N, S))
      << "the stream runs work again";
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_TRUE(holds(A, 3)) << "none of the captured work ran";
}

TEST_F(StreamCapture, GetCaptureInfoGivesIdStatusAndDependencies) {
  CUdeviceptr A = buffer();
  CUstream S = stream();
  CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  EXPECT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(S, &Status, nullptr, nullptr,
                                                 nullptr, nullptr, nullptr))
      << "the other outputs are optional";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, Status) << "not capturing";

  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  cuuint64_t Id = 0;
  CUgraph Capturing = nullptr;
  const CUgraphNode *Deps = nullptr;
  size_t NumDeps = 99;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(S, &Status, &Id, &Capturing,
                                                 &Deps, nullptr, &NumDeps));
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, Status);
  EXPECT_NE(nullptr, Capturing) << "the graph being captured into";
  EXPECT_EQ(0u, NumDeps) << "the first node will be a root";

  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  cuuint64_t SameId = 0;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(S, &Status, &SameId, nullptr,
                                                 &Deps, nullptr, &NumDeps));
  EXPECT_EQ(Id, SameId) << "one capture sequence, one id";
  ASSERT_EQ(1u, NumDeps) << "the next node will depend on the memset";
  CUgraphNode Memset = Deps[0]; // valid until the next call on the stream
  CUgraphNodeType T = CU_GRAPH_NODE_TYPE_CONDITIONAL;
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeGetType(Memset, &T));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMSET, T);
  EXPECT_EQ(1u, nodeCount(Capturing))
      << "the graph may be queried during the capture";

  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  // Observed on NVIDIA's driver: the graph handed out during the capture is
  // the one cuStreamEndCapture returns.
  EXPECT_EQ(Capturing, G) << "ownership of that graph passes to the caller";

  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_NE(Id, captureId(S))
      << "\"an id for the capture sequence, which is unique over the "
         "lifetime of the process\"";
  CUgraph Empty = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &Empty));
  EXPECT_EQ(0u, nodeCount(Empty)) << "nothing was captured the second time";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Empty));
}

//===----------------------------------------------------------------------===//
// Several streams in one capture
//===----------------------------------------------------------------------===//

TEST_F(StreamCapture, CrossStreamForkAndJoin) {
  CUdeviceptr A = buffer(), B = buffer(), C = buffer();
  CUstream S1 = stream(), S2 = stream();
  CUevent Fork = event(), Join = event();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S1));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(B, 10, N, S1));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Fork, S1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S2, Fork, 0))
      << "waiting for an event of the capture forks S2 into it";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, statusOf(S2))
      << "S2 now captures too";
  EXPECT_EQ(captureId(S1), captureId(S2)) << "into the same sequence";
  ASSERT_CU(CUDA_SUCCESS, launchAddValue(S1, A, 1));
  ASSERT_CU(CUDA_SUCCESS, launchScaleBy(S2, B, 2));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Join, S2));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S1, Join, 0)) << "join S2 back";
  ASSERT_CU(CUDA_SUCCESS, launchAddArrays(S1, A, B, C));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S1, &G));
  ASSERT_NE(nullptr, G);
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S2))
      << "ending the capture ends it on the joined stream too";
  EXPECT_EQ(5u, nodeCount(G))
      << "two memsets and three kernels; events only add edges";
  size_t Roots = 0;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(G, nullptr, &Roots));
  EXPECT_EQ(1u, Roots) << "the first memset";
  EXPECT_TRUE(holds(C, -1)) << "nothing ran during the capture";

  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S1));
  EXPECT_TRUE(holds(A, 2)) << "S1's branch: 1 + 1";
  EXPECT_TRUE(holds(B, 20)) << "S2's branch, after the fork: 10 * 2";
  EXPECT_TRUE(holds(C, 22)) << "the join waited for both branches";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(StreamCapture, UnjoinedForkFailsEndCapture) {
  CUdeviceptr A = buffer(), B = buffer();
  CUstream S1 = stream(), S2 = stream();
  CUevent Fork = event();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S1));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Fork, S1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(S2, Fork, 0));
  ASSERT_CU(CUDA_SUCCESS, launchAddValue(S2, B, 1)) << "work S1 never joins";
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cuStreamEndCapture(S1, &G))
      << "S2's branch was not joined back into S1";
  // Observed on NVIDIA's driver: no graph, and both streams leave capture
  // mode.
  EXPECT_EQ(nullptr, G) << "no graph";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S1));
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S2));
  if (G) {
    EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  }
}

//===----------------------------------------------------------------------===//
// What a capture refuses
//===----------------------------------------------------------------------===//

TEST_F(StreamCapture, SynchronizeInvalidatesTheCapture) {
  CUdeviceptr A = buffer();
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamSynchronize(S))
      << "there is no work to wait for in a capturing stream";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, statusOf(S));
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(S, &G));
  EXPECT_EQ(nullptr, G) << "\"a NULL graph will be returned\"";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S)) << "allowed again";
}

TEST_F(StreamCapture, QueryInvalidatesTheCapture) {
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(S))
      << "even with nothing captured yet";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, statusOf(S));
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(S, &G));
  EXPECT_EQ(nullptr, G);
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(S)) << "allowed again";
}

TEST_F(StreamCapture, LegacyStreamCannotCapture) {
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            cuStreamBeginCapture(nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL))
      << "\"Capture may not be initiated if stream is CU_STREAM_LEGACY\"; "
         "stream 0 is the legacy stream";
  EXPECT_CU(
      CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
      cuStreamBeginCapture(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_RELAXED))
      << "in any mode";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr))
      << "the legacy stream was left alone";
}

TEST_F(StreamCapture, SynchronousCopyDuringBlockingCaptureIsImplicit) {
  CUdeviceptr A = buffer();
  std::vector<int> Host(N, 7);
  CUstream S = stream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
            cuMemcpyHtoD(A, Host.data(), N * sizeof(int)))
      << "a synchronous copy uses the legacy stream, which would wait for "
         "the capturing blocking stream";
  // Observed on NVIDIA's driver: the refused copy invalidates the capture it
  // would have depended on.
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_INVALIDATED, statusOf(S));
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(S, &G));
  EXPECT_EQ(nullptr, G);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(A, Host.data(), N * sizeof(int)))
      << "allowed once the capture has ended";
  EXPECT_TRUE(holds(A, 7));
}

TEST_F(StreamCapture, SynchronousCopyDuringNonBlockingCaptureIsAllowed) {
  CUdeviceptr A = buffer(), B = buffer();
  std::vector<int> Host(N, 7);
  CUstream S = stream(CU_STREAM_NON_BLOCKING);
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  // Observed on NVIDIA's driver: the legacy stream does not wait for a
  // non-blocking stream, so its use does not touch the capture.
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(B, Host.data(), N * sizeof(int)))
      << "the copy runs at once, outside the capture";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, statusOf(S));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  EXPECT_EQ(1u, nodeCount(G)) << "only the memset was captured";
  EXPECT_TRUE(holds(B, 7)) << "the copy ran";
  EXPECT_TRUE(holds(A, -1)) << "the captured memset did not";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(StreamCapture, LegacyStreamQueryDuringBlockingCaptureIsImplicit) {
  CUstream Blocking = stream(CU_STREAM_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(Blocking, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_NONE;
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
            cuStreamIsCapturing(CU_STREAM_LEGACY, &Status))
      << "\"if this is called on CU_STREAM_LEGACY ... while a blocking "
         "stream in the same context is capturing\"";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, statusOf(Blocking))
      << "\"The blocking stream capture is not invalidated\"";
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(Blocking, &G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));

  CUstream NonBlocking = stream(CU_STREAM_NON_BLOCKING);
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(NonBlocking, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing(CU_STREAM_LEGACY, &Status))
      << "a non-blocking stream's capture does not involve the legacy stream";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, Status);
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(NonBlocking, &G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(StreamCapture, EndCaptureWithoutBeginIsIllegalState) {
  CUstream S = stream();
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(S, &G))
      << "the stream is not capturing";
  EXPECT_EQ(nullptr, G);
}

TEST_F(StreamCapture, BeginCaptureTwiceIsIllegalState) {
  CUdeviceptr A = buffer();
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL))
      << "\"it may only be initiated if the stream is not already in capture "
         "mode\"";
  // Observed on NVIDIA's driver: the refused call leaves the first capture
  // as it was.
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_ACTIVE, statusOf(S));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  EXPECT_EQ(1u, nodeCount(G)) << "the first capture's memset";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(StreamCapture, ExchangeCaptureModeRoundTrip) {
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  ASSERT_CU(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&Mode));
  EXPECT_EQ(CU_STREAM_CAPTURE_MODE_GLOBAL, Mode)
      << "a thread starts in global mode; the old mode is handed back";
  Mode = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
  ASSERT_CU(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&Mode));
  EXPECT_EQ(CU_STREAM_CAPTURE_MODE_RELAXED, Mode) << "the mode set before";

  CUresult OtherResult = CUDA_ERROR_UNKNOWN;
  CUstreamCaptureMode OtherMode = CU_STREAM_CAPTURE_MODE_RELAXED;
  std::thread Other([&] {
    CUstreamCaptureMode M = CU_STREAM_CAPTURE_MODE_RELAXED;
    OtherResult = cuThreadExchangeStreamCaptureMode(&M);
    OtherMode = M;
    cuThreadExchangeStreamCaptureMode(&M); // restore
  });
  Other.join();
  EXPECT_CU(CUDA_SUCCESS, OtherResult);
  EXPECT_EQ(CU_STREAM_CAPTURE_MODE_GLOBAL, OtherMode)
      << "the mode is per thread: another thread is still in global mode";

  Mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  ASSERT_CU(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&Mode))
      << "restore the default";
  EXPECT_EQ(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, Mode);
#if CUCPU_ONLY
  // NVIDIA's driver segfaults on a NULL mode pointer; its documentation
  // lists CUDA_ERROR_INVALID_VALUE.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuThreadExchangeStreamCaptureMode(nullptr))
      << "the mode pointer is required";
#endif
}

TEST_F(StreamCapture, NullArgumentsAndUnknownModeRejected) {
  CUstream S = stream();
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamIsCapturing(S, nullptr))
      << "the status pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamGetCaptureInfo(S, nullptr, nullptr, nullptr, nullptr,
                                   nullptr, nullptr))
      << "\"captureStatus_out ... required\"";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamBeginCapture(S, static_cast<CUstreamCaptureMode>(7)))
      << "observed on NVIDIA: an unknown capture mode";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S)) << "nothing began";
}

TEST_F(StreamCapture, EndCaptureWithoutGraphPointerStillEndsTheCapture) {
  CUdeviceptr A = buffer();
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(A, 1, N, S));
  EXPECT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, nullptr))
      << "observed on NVIDIA: a NULL graph pointer is accepted, and the "
         "captured graph is not handed out";
  EXPECT_EQ(CU_STREAM_CAPTURE_STATUS_NONE, statusOf(S))
      << "observed on NVIDIA: the capture has ended";
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(S, &G))
      << "there is no capture left to end";
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(S, nullptr))
      << "observed on NVIDIA: the stream's state is checked, not the pointer";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_TRUE(holds(A, -1)) << "the captured memset never ran";
}

} // namespace

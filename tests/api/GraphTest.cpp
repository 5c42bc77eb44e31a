//===- GraphTest.cpp - cuGraph*: running graphs ---------------------------===//
//
// Graphs built node by node through the driver API, instantiated and launched.
// The kernels (kernels/graph.cu) do arithmetic that does not commute, so the
// value a buffer ends with shows whether the nodes ran in dependency order;
// host nodes log the order they ran in. Every result is read on the host
// after cuStreamSynchronize. Building and querying graphs, and the input the
// driver refuses, are in GraphNodeTest.cpp; stream capture is in
// StreamCaptureTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphFixture.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace cuapi;

namespace {

/// The ids of the host nodes of a graph, in the order they ran.
struct OrderLog {
  std::mutex Lock;
  std::vector<int> Ids;

  std::vector<int> take() {
    std::lock_guard<std::mutex> Guard(Lock);
    return std::move(Ids);
  }
};

/// The user data of logStep: which log, and this node's id.
struct Step {
  OrderLog *Log;
  int Id;
};

void CUDA_CB logStep(void *UserData) {
  auto *S = static_cast<Step *>(UserData);
  std::lock_guard<std::mutex> Guard(S->Log->Lock);
  S->Log->Ids.push_back(S->Id);
}

/// The user data of writeInt / readInt: an int in page-locked memory.
struct HostInt {
  int *Where;
  int Value;
};

void CUDA_CB writeInt(void *UserData) {
  auto *H = static_cast<HostInt *>(UserData);
  __atomic_store_n(H->Where, H->Value, __ATOMIC_SEQ_CST);
}

void CUDA_CB readInt(void *UserData) {
  auto *H = static_cast<HostInt *>(UserData);
  H->Value = __atomic_load_n(H->Where, __ATOMIC_SEQ_CST);
}

/// Ints in mapped page-locked memory, seen by both host nodes and kernels.
/// Word 0 doubles as the flag waitForFlag spins on and word 1 as its "done"
/// mark; destroying the memory sets the flag first, so a failed test never
/// leaves a kernel spinning.
class Mapped {
public:
  explicit Mapped(int Count) {
    if (cuMemHostAlloc(reinterpret_cast<void **>(&Host), Count * sizeof(int),
                       CU_MEMHOSTALLOC_DEVICEMAP) != CUDA_SUCCESS)
      return;
    std::fill(Host, Host + Count, 0);
    Ok = cuMemHostGetDevicePointer(&Dev, Host, 0) == CUDA_SUCCESS;
  }
  ~Mapped() {
    if (!Host)
      return;
    setFlag();
    cuCtxSynchronize();
    cuMemFreeHost(Host);
  }
  Mapped(const Mapped &) = delete;
  Mapped &operator=(const Mapped &) = delete;

  bool ok() const { return Ok; }
  int *host(int I) { return Host + I; }
  CUdeviceptr dev(int I) const { return Dev + I * sizeof(int); }
  void setFlag() { __atomic_store_n(Host, 1, __ATOMIC_SEQ_CST); }

private:
  int *Host = nullptr;
  CUdeviceptr Dev = 0;
  bool Ok = false;
};

using Graph = GraphFixture;

//===----------------------------------------------------------------------===//
// Execution follows the dependencies
//===----------------------------------------------------------------------===//

TEST_F(Graph, EmptyGraphInstantiatesAndLaunches) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0)) << "flags must be 0";
  ASSERT_NE(nullptr, G);
  size_t Count = 99;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetNodes(G, nullptr, &Count));
  EXPECT_EQ(0u, Count) << "a new graph has no nodes";
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0))
      << "a graph with no nodes can be instantiated for a host launch";
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream())) << "and does nothing";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, KernelChainRunsInDependencyOrder) {
  CUdeviceptr A = buffer(), B = buffer(), C = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K1, K2, K3, K4;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, A, 2));         // A = 2
  ASSERT_CU(CUDA_SUCCESS, addAddInto(&K1, G, {M}, A, B, 1));   // B = 3
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K2, G, {K1}, B, 3));     // B = 9
  ASSERT_CU(CUDA_SUCCESS, addAddInto(&K3, G, {K2}, B, C, -4)); // C = 5
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K4, G, {K3}, C, 7));     // C = 35
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  EXPECT_TRUE(holds(A, 2)) << "the memset node ran";
  EXPECT_TRUE(holds(B, 9)) << "B = (A + 1) * 3: each kernel read what the "
                              "one before it wrote";
  EXPECT_TRUE(holds(C, 35)) << "C = (B - 4) * 7, after both kernels on B";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, EdgesAddedAfterTheNodesOrderThem) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  // Created last-first, all as roots; the edges alone give the order.
  CUgraphNode K3, K2, K1, M;
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K3, G, {}, D, 5));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K2, G, {}, D, 3));
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K1, G, {}, D, 2));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 1));
  CUgraphNode From[] = {M, K1, K2}, To[] = {K1, K2, K3};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies(G, From, To, nullptr, 3))
      << "three edges at once";
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  EXPECT_TRUE(holds(D, 25)) << "((1 * 2) + 3) * 5: memset, K1, K2, K3";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, DiamondJoinsBothBranches) {
  CUdeviceptr X = buffer(), L = buffer(), R = buffer(), Out = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, KL, KR, KJ;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, X, 3));
  ASSERT_CU(CUDA_SUCCESS, addAddInto(&KL, G, {M}, X, L, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddInto(&KR, G, {M}, X, R, 10));
  ASSERT_CU(CUDA_SUCCESS, addAddArrays(&KJ, G, {KL, KR}, L, R, Out));
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  EXPECT_TRUE(holds(L, 4)) << "the left branch ran after the memset";
  EXPECT_TRUE(holds(R, 13)) << "the right branch ran after the memset";
  EXPECT_TRUE(holds(Out, 17)) << "the join ran after both branches";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, HostNodesRunInDependencyOrder) {
  OrderLog Log;
  Step S1{&Log, 1}, S2{&Log, 2}, S3{&Log, 3}, S4{&Log, 4};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  // 4 is created first and 1 last, so creation order is no help.
  CUgraphNode H1, H2, H3, H4, Barrier;
  ASSERT_CU(CUDA_SUCCESS, addHost(&H4, G, {}, logStep, &S4));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Barrier, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H2, G, {}, logStep, &S2));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H3, G, {}, logStep, &S3));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H1, G, {}, logStep, &S1));
  // 1 -> {2, 3} -> barrier -> 4.
  CUgraphNode From[] = {H1, H1, H2, H3, Barrier};
  CUgraphNode To[] = {H2, H3, Barrier, Barrier, H4};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies(G, From, To, nullptr, 5));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream();
  for (int Launch = 0; Launch < 3; ++Launch) {
    ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
    std::vector<int> Order = Log.take();
    ASSERT_EQ(4u, Order.size()) << "each host node ran once per launch";
    EXPECT_EQ(1, Order[0]) << "the root ran first";
    EXPECT_EQ(4, Order[3]) << "the node behind the barrier ran last";
    EXPECT_EQ(5, Order[1] + Order[2]) << "2 and 3 ran in between";
  }
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, HostAndKernelNodesSeeEachOthersWrites) {
  Mapped Shared(4);
  ASSERT_TRUE(Shared.ok()) << "setup: mapped page-locked memory";
  CUdeviceptr D = buffer(0);
  HostInt Write{Shared.host(2), 42};
  HostInt Read{Shared.host(3), -1};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  // host writes 42 -> kernel copies it to D -> kernel copies D back to
  // mapped memory -> host reads it.
  CUgraphNode HW, K1, K2, HR;
  ASSERT_CU(CUDA_SUCCESS, addHost(&HW, G, {}, writeInt, &Write));
  ASSERT_CU(CUDA_SUCCESS, addCopyInt(&K1, G, {HW}, Shared.dev(2), D));
  ASSERT_CU(CUDA_SUCCESS, addCopyInt(&K2, G, {K1}, D, Shared.dev(3)));
  ASSERT_CU(CUDA_SUCCESS, addHost(&HR, G, {K2}, readInt, &Read));
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  int Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Back, D, sizeof(int)));
  EXPECT_EQ(42, Back) << "the kernel ran after the host node before it";
  EXPECT_EQ(42, Read.Value) << "the host node ran after the kernel before it";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, MemcpyNodesCopyBothWays) {
  int *In = pinned(), *Out = pinned(-1);
  ASSERT_TRUE(In && Out) << "setup: page-locked memory";
  for (int I = 0; I < N; ++I)
    In[I] = I;
  CUdeviceptr A = buffer(), B = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode Up, K, Across, Down;
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Up, G, {}, hostToDevice(A, In)));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {Up}, A, 1));
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Across, G, {K}, deviceToDevice(B, A)));
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Down, G, {Across}, deviceToHost(Out, B)));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_EQ(1, Out[0]) << "host -> device, +1, device -> device -> host";
  EXPECT_EQ(N, Out[N - 1]);
  for (int I = 0; I < N; ++I)
    In[I] = 2 * I;
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_EQ(1, Out[0]) << "the copy reads the host memory at each launch";
  EXPECT_EQ(2 * (N - 1) + 1, Out[N - 1]);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ChildGraphNodeRunsItsGraph) {
  CUdeviceptr D = buffer();
  CUgraph Child = nullptr, Parent = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Child, 0));
  CUgraphNode CA, CS;
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&CA, Child, {}, D, 5));
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&CS, Child, {CA}, D, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Parent, 0));
  CUgraphNode M, C, K;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, Parent, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddChildGraphNode(&C, Parent, &M, 1, Child));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, Parent, {C}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, runOnce(Parent, stream()));
  EXPECT_TRUE(holds(D, 13))
      << "(1 + 5) * 2 + 1: the child's nodes ran in their order, between "
         "the parent's nodes before and after the child node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Parent));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Child));
}

TEST_F(Graph, EventRecordNodeRecordsAfterItsDependencies) {
  Mapped Flag(2);
  ASSERT_TRUE(Flag.ok()) << "setup: mapped page-locked memory";
  CUdeviceptr D = buffer(0);
  CUevent Ev = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Ev, CU_EVENT_DISABLE_TIMING));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUdeviceptr FlagPtr = Flag.dev(0), Done = Flag.dev(1);
  void *Args[] = {&FlagPtr, &Done};
  CUgraphNode Wait, Record;
  ASSERT_CU(CUDA_SUCCESS,
            addKernel(&Wait, G, {}, kernelParams(WaitForFlag, Args, 1, 1)));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventRecordNode(&Record, G, &Wait, 1, Ev));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream(), Other = stream();
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S));
  // Observed on NVIDIA's driver: the launch enqueues the record, so a wait
  // on the event issued after cuGraphLaunch waits for the record node.
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(Other, Ev, 0));
  void *CopyArgs[] = {&Done, &D};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(CopyInt, 1, 1, 1, 1, 1, 1, 0, Other,
                                         CopyArgs, nullptr));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(Other))
      << "the other stream waits for the event, behind the waiting kernel";
  Flag.setFlag();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(Other));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  int Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Back, D, sizeof(int)));
  EXPECT_EQ(1, Back) << "the event completed only after the kernel before "
                        "the record node had finished";
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(Ev)) << "the event has completed";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Ev));
}

TEST_F(Graph, EventWaitNodeWaitsForTheEvent) {
  Mapped Flag(2);
  ASSERT_TRUE(Flag.ok()) << "setup: mapped page-locked memory";
  CUdeviceptr D = buffer(0);
  CUevent Ev = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Ev, CU_EVENT_DISABLE_TIMING));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode Wait, Copy;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventWaitNode(&Wait, G, nullptr, 0, Ev));
  ASSERT_CU(CUDA_SUCCESS, addCopyInt(&Copy, G, {Wait}, Flag.dev(1), D));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream(), Other = stream();
  CUdeviceptr FlagPtr = Flag.dev(0), Done = Flag.dev(1);
  void *Args[] = {&FlagPtr, &Done};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(WaitForFlag, 1, 1, 1, 1, 1, 1, 0,
                                         Other, Args, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(Ev, Other));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(S))
      << "the graph waits for the event, behind the waiting kernel";
  Flag.setFlag();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  int Back = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Back, D, sizeof(int)));
  EXPECT_EQ(1, Back) << "the kernel behind the wait node saw the done mark";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Ev));
}

//===----------------------------------------------------------------------===//
// Launching many times and on several streams
//===----------------------------------------------------------------------===//

TEST_F(Graph, LaunchedAThousandTimesAccumulates) {
  CUdeviceptr D = buffer(0);
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode K1, K2;
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K1, G, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K2, G, {K1}, D, 2));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream();
  for (int I = 0; I < 1000; ++I)
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S)) << "launch " << I;
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  EXPECT_TRUE(holds(D, 3000)) << "every launch ran both nodes once";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, LaunchesOnTwoStreamsAllRun) {
  CUdeviceptr D = buffer(0);
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode K;
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {}, D, 1));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S1 = stream(), S2 = stream();
  // "Each launch is ordered behind both any previous work in hStream and
  // any previous launches of hGraphExec" (cuGraphLaunch), so the two
  // streams' launches of one exec never overlap.
  for (int I = 0; I < 100; ++I) {
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S1));
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(E, S2));
  }
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S2));
  EXPECT_TRUE(holds(D, 200)) << "all 200 launches ran, none lost to a race";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

//===----------------------------------------------------------------------===//
// An executable graph is a snapshot; updating it
//===----------------------------------------------------------------------===//

TEST_F(Graph, InstantiatedGraphIsASnapshot) {
  CUdeviceptr D = buffer();
  std::atomic<int> Calls{0};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K, H;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {M}, D, 2));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  // Change the graph after instantiation.
  KernelArgs Args;
  CUDA_KERNEL_NODE_PARAMS KP = addValueParams(Args, D, 100);
  ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeSetParams(K, &KP));
  CUDA_MEMSET_NODE_PARAMS MP = memsetParams(D, 50);
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeSetParams(M, &MP));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H, G, {K}, countCall, &Calls));
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(D, 3)) << "the exec keeps the parameters it was "
                              "instantiated with: 1 + 2";
  EXPECT_EQ(0, Calls.load()) << "a node added after instantiation is not in "
                                "the exec";
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, S));
  EXPECT_TRUE(holds(D, 150)) << "a new instantiation sees the changes";
  EXPECT_EQ(1, Calls.load()) << "and the new node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ExecKernelNodeSetParamsChangesOnlyTheExec) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {M}, D, 2));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  KernelArgs Args;
  CUDA_KERNEL_NODE_PARAMS P = addValueParams(Args, D, 10);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecKernelNodeSetParams(E, K, &P));
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(D, 11)) << "the exec runs the new parameters";
  CUDA_KERNEL_NODE_PARAMS Back = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeGetParams(K, &Back));
  ASSERT_NE(nullptr, Back.kernelParams);
  EXPECT_EQ(2, *static_cast<int *>(Back.kernelParams[2]))
      << "\"hNode is also not modified by this call\"";
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, S));
  EXPECT_TRUE(holds(D, 3)) << "a new instantiation has the graph's value";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ExecMemsetNodeSetParamsChangesTheValue) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {M}, D, 2));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUDA_MEMSET_NODE_PARAMS P = memsetParams(D, 7);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecMemsetNodeSetParams(E, M, &P, Ctx));
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(D, 9)) << "the exec's memset now writes 7";
  CUDA_MEMSET_NODE_PARAMS Back = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(M, &Back));
  EXPECT_EQ(1u, Back.value) << "the graph's node keeps its value";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ExecMemcpyNodeSetParamsChangesTheSource) {
  CUdeviceptr A = buffer(5), B = buffer(8), C = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode Copy, K;
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Copy, G, {}, deviceToDevice(C, A)));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {Copy}, C, 1));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(C, 6)) << "copied from A";
  CUDA_MEMCPY3D P = deviceToDevice(C, B);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecMemcpyNodeSetParams(E, Copy, &P, Ctx))
      << "same memory types, same context, 1D";
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(C, 9)) << "now copied from B";
  CUDA_MEMCPY3D Back = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(Copy, &Back));
  EXPECT_EQ(A, Back.srcDevice) << "the graph's node still copies from A";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ExecHostNodeSetParamsChangesTheCall) {
  std::atomic<int> First{0}, Second{0};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode H;
  ASSERT_CU(CUDA_SUCCESS, addHost(&H, G, {}, countCall, &First));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  CUDA_HOST_NODE_PARAMS P = {};
  P.fn = countCall;
  P.userData = &Second;
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecHostNodeSetParams(E, H, &P));
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_EQ(0, First.load()) << "the exec no longer passes the first counter";
  EXPECT_EQ(1, Second.load()) << "it passes the second";
  CUDA_HOST_NODE_PARAMS Back = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphHostNodeGetParams(H, &Back));
  EXPECT_EQ(static_cast<void *>(&First), Back.userData)
      << "the graph's node keeps its user data";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, ExecUpdateWithTheSameTopologyTakesTheNewParams) {
  CUdeviceptr D = buffer();
  CUgraph G1 = nullptr, G2 = nullptr;
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G1, 0));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G1, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G1, {M}, D, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G2, 0));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G2, {}, D, 10));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G2, {M}, D, 20));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G1, 0));
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(D, 3)) << "G1's values";
  CUgraphExecUpdateResultInfo Info;
  Info.result = CU_GRAPH_EXEC_UPDATE_ERROR;
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecUpdate(E, G2, &Info))
      << "the same nodes and edges with other values";
  EXPECT_EQ(CU_GRAPH_EXEC_UPDATE_SUCCESS, Info.result);
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(D, 30)) << "the exec now runs G2's values";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G1));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G2));
}

TEST_F(Graph, ExecUpdateWithAnotherTopologyFails) {
  CUdeviceptr D = buffer();
  CUgraph G1 = nullptr, G2 = nullptr;
  CUgraphNode M, K, K2;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G1, 0));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G1, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G1, {M}, D, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G2, 0));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G2, {}, D, 10));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G2, {M}, D, 20));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K2, G2, {K}, D, 30));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G1, 0));
  CUgraphExecUpdateResultInfo Info;
  Info.result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  Info.errorNode = K2;
  EXPECT_CU(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
            cuGraphExecUpdate(E, G2, &Info))
      << "G2 has a node more than the exec";
  EXPECT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, Info.result);
  EXPECT_EQ(nullptr, Info.errorNode)
      << "\"The count of nodes directly in hGraphExec and hGraph differ, in "
         "which case resultInfo->errorNode is set to NULL\"";
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(D, 3)) << "the exec was left as it was";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G1));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G2));
}

TEST_F(Graph, ExecUpdateWithAnotherNodeTypeFails) {
  CUdeviceptr D = buffer();
  CUgraph G1 = nullptr, G2 = nullptr;
  CUgraphNode K, M;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G1, 0));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G1, {}, D, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G2, 0));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G2, {}, D, 10));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G1, 0));
  CUgraphExecUpdateResultInfo Info;
  Info.result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  Info.errorNode = nullptr;
  EXPECT_CU(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
            cuGraphExecUpdate(E, G2, &Info))
      << "one node each, but a memset where the exec has a kernel";
  EXPECT_EQ(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, Info.result);
  EXPECT_EQ(M, Info.errorNode) << "the node from hGraph";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G1));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G2));
}

//===----------------------------------------------------------------------===//
// Instantiation with parameters, upload, flags and events of nodes
//===----------------------------------------------------------------------===//

TEST_F(Graph, InstantiateWithParamsUploadsToTheStream) {
  CUdeviceptr A = buffer(), B = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, A, 6));
  ASSERT_CU(CUDA_SUCCESS, addAddInto(&K, G, {M}, A, B, 1)); // B = 7
  CUstream S = stream();
  CUDA_GRAPH_INSTANTIATE_PARAMS P{};
  P.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  P.hUploadStream = S;
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiateWithParams(&E, G, &P));
  EXPECT_EQ(CUDA_GRAPH_INSTANTIATE_SUCCESS, P.result_out);
  EXPECT_EQ(nullptr, P.hErrNode_out);
  cuuint64_t Flags = ~cuuint64_t(0);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecGetFlags(E, &Flags));
  EXPECT_EQ(0u, Flags) << "the upload flag is not kept (NVIDIA's driver "
                          "documents it)";
  EXPECT_CU(CUDA_SUCCESS, cuGraphUpload(E, S)) << "uploading again is allowed";
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  EXPECT_TRUE(holds(B, 7)) << "the graph ran";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecGetFlags(E, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphInstantiateWithParams(&E, G, nullptr))
      << "the parameters are required";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, AutoFreeFlagIsReportedBack) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphInstantiate(
                &E, G, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
  cuuint64_t Flags = 0;
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecGetFlags(E, &Flags));
  EXPECT_EQ(
      static_cast<cuuint64_t>(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH),
      Flags);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, EventNodesTakeAnotherEvent) {
  CUevent First = nullptr, Second = nullptr, Got = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&First, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Second, CU_EVENT_DISABLE_TIMING));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode Record, Wait;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphAddEventRecordNode(&Record, G, nullptr, 0, First));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventWaitNode(&Wait, G, &Record, 1, First));
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeSetEvent(Record, Second));
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(Record, &Got));
  EXPECT_EQ(Second, Got);
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeSetEvent(Wait, Second));
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(Wait, &Got));
  EXPECT_EQ(Second, Got);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphEventWaitNodeSetEvent(Record, First))
      << "a record node is no wait node";
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecEventRecordNodeSetEvent(E, Record, First));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecEventWaitNodeSetEvent(E, Wait, First));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(First)) << "the exec recorded First";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(First));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Second));
}

TEST_F(Graph, DebugDotPrintWritesAGraph) {
  CUdeviceptr A = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, A, 1));
  char Path[] = "/tmp/cucpu-graph-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  close(Fd);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDebugDotPrint(G, Path, 0));
  std::FILE *F = std::fopen(Path, "r");
  ASSERT_NE(nullptr, F);
  char Text[64] = {};
  size_t Read = std::fread(Text, 1, sizeof(Text) - 1, F);
  std::fclose(F);
  unlink(Path);
  EXPECT_GT(Read, 0u);
  EXPECT_NE(nullptr, std::strstr(Text, "digraph")) << "a DOT graph: " << Text;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDebugDotPrint(G, nullptr, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, DisabledNodeIsSkippedUntilEnabled) {
  CUdeviceptr A = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K1, K2;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, A, 2));     // A = 2
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K1, G, {M}, A, 3));  // A = 6
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K2, G, {K1}, A, 5)); // A = 30
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeSetEnabled(E, K1, 0));
  unsigned On = 9;
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeGetEnabled(E, K1, &On));
  EXPECT_EQ(0u, On);
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(A, 10)) << "2 * 5: the disabled kernel did not run";
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeSetEnabled(E, K1, 1));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(A, 30)) << "enabled again";
  CUgraphNode Empty;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Empty, G, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeSetEnabled(E, Empty, 0))
      << "only kernel, memcpy and memset nodes";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetEnabled(E, K1, nullptr));
  CUkernelNodeAttrValue V{};
  V.priority = -2;
  EXPECT_CU(CUDA_SUCCESS, cuGraphKernelNodeSetAttribute(
                              K1, CU_LAUNCH_ATTRIBUTE_PRIORITY, &V));
  EXPECT_CU(CUDA_SUCCESS, cuGraphKernelNodeCopyAttributes(K2, K1));
  V = {};
  EXPECT_CU(CUDA_SUCCESS, cuGraphKernelNodeGetAttribute(
                              K2, CU_LAUNCH_ATTRIBUTE_PRIORITY, &V));
  EXPECT_EQ(-2, V.priority);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphKernelNodeGetAttribute(M, CU_LAUNCH_ATTRIBUTE_PRIORITY, &V))
      << "a memset node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, GenericNodeCallsAddAndChangeNodes) {
  CUdeviceptr A = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNodeParams P{};
  P.type = CU_GRAPH_NODE_TYPE_MEMSET;
  P.memset.dst = A;
  P.memset.value = 2;
  P.memset.elementSize = 4;
  P.memset.width = N;
  P.memset.height = 1;
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddNode(&M, G, nullptr, nullptr, 0, &P))
      << "CUDA 13's cuGraphAddNode is the form with edge data";
  int Count = N, Factor = 3;
  void *Args[] = {&A, &Count, &Factor};
  CUDA_KERNEL_NODE_PARAMS KP = kernelParams(ScaleBy, Args);
  P = {};
  P.type = CU_GRAPH_NODE_TYPE_KERNEL;
  std::memcpy(&P.kernel, &KP, sizeof(KP));
  CUgraphEdgeData Edge{};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddNode(&K, G, &M, &Edge, 1, &P));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(A, 6)) << "2 * 3";
  int Five = 5;
  void *Args5[] = {&A, &Count, &Five};
  KP = kernelParams(ScaleBy, Args5);
  std::memcpy(&P.kernel, &KP, sizeof(KP));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecNodeSetParams(E, K, &P));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_TRUE(holds(A, 10)) << "2 * 5 in the executable graph";
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeSetParams(K, &P));
  CUDA_KERNEL_NODE_PARAMS Back{};
  EXPECT_CU(CUDA_SUCCESS, cuGraphKernelNodeGetParams(K, &Back));
  EXPECT_EQ(5, *static_cast<int *>(Back.kernelParams[2]))
      << "the graph's node took the new arguments";
  P.type = CU_GRAPH_NODE_TYPE_EMPTY;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeSetParams(K, &P))
      << "a node keeps its type";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddNode(&K, G, nullptr, nullptr, 0, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, MemoryNodesAreChecked) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUdevice Dev = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&Dev));
  CUDA_MEM_ALLOC_NODE_PARAMS A{};
  A.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  A.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  A.poolProps.location.id = Dev;
  A.bytesize = 0;
  CUgraphNode Alloc, Free;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemAllocNode(&Alloc, G, nullptr, 0, &A))
      << "an allocation needs a size";
  A.bytesize = 4096;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemAllocNode(&Alloc, G, nullptr, 0, &A));
  EXPECT_NE(0u, A.dptr);
  CUdeviceptr Plain = buffer();
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemFreeNode(&Free, G, &Alloc, 1, Plain))
      << "a free node frees graph allocations only";
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemFreeNode(&Free, G, &Alloc, 1, A.dptr));
  CUdeviceptr Back = 0;
  EXPECT_CU(CUDA_SUCCESS, cuGraphMemFreeNodeGetParams(Free, &Back));
  EXPECT_EQ(A.dptr, Back);
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_CU(CUDA_SUCCESS, launchAndWait(E, stream()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(A.dptr))
      << "the graph has freed it already";
  cuuint64_t Used = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetGraphMemAttribute(
                              Dev, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &Used));
  EXPECT_GE(Used, 4096u);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetGraphMemAttribute(
                Dev, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, CooperativeLaunchesDirectExAndCaptured) {
  CUfunction GridRounds = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&GridRounds, Mod, "gridRounds"));
  int PerSm = 0, Sms = 0, Cooperative = 0;
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(
                              &PerSm, GridRounds, 64, 0));
  CUdevice Dev = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&Dev));
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                 Dev));
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&Cooperative,
                                 CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, Dev));
  EXPECT_EQ(1, Cooperative);
  const int Blocks = std::min(PerSm * Sms, 32), Rounds = 3;
  ASSERT_GE(Blocks, 2);
  CUdeviceptr Partial = 0, Out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Partial, Blocks * sizeof(int)));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Out, Rounds * Blocks * sizeof(int)));
  int Count = Rounds;
  void *Args[] = {&Partial, &Out, &Count};
  auto Check = [&](const char *How) {
    std::vector<int> Host(Rounds * Blocks, -1);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemcpyDtoH(Host.data(), Out, Host.size() * sizeof(int)));
    for (int R = 0; R < Rounds; ++R)
      for (int B = 0; B < Blocks; ++B)
        ASSERT_EQ((R + 1) * Blocks * (Blocks + 1) / 2, Host[R * Blocks + B])
            << How << ": round " << R << ", block " << B;
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Out, 0, Rounds * Blocks));
  };
  CUstream S = stream();
  ASSERT_CU(CUDA_SUCCESS, cuLaunchCooperativeKernel(GridRounds, Blocks, 1, 1,
                                                    64, 1, 1, 0, S, Args));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  Check("cuLaunchCooperativeKernel");

  CUlaunchAttribute Attr{};
  Attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  Attr.value.cooperative = 1;
  CUlaunchConfig Config{};
  Config.gridDimX = Blocks;
  Config.gridDimY = Config.gridDimZ = 1;
  Config.blockDimX = 64;
  Config.blockDimY = Config.blockDimZ = 1;
  Config.hStream = S;
  Config.attrs = &Attr;
  Config.numAttrs = 1;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&Config, GridRounds, Args, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(S));
  Check("cuLaunchKernelEx with the cooperative attribute");

  ASSERT_CU(CUDA_SUCCESS,
            cuStreamBeginCapture(S, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchCooperativeKernel(GridRounds, Blocks, 1, 1,
                                                    64, 1, 1, 0, S, Args));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(S, &G));
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  ASSERT_CU(CUDA_SUCCESS, launchAndWait(E, S));
  Check("a captured cooperative launch");
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));

  EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
            cuLaunchCooperativeKernel(GridRounds, PerSm * Sms + 1, 1, 1, 64, 1,
                                      1, 0, S, Args))
      << "one block more than the device holds at once";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Partial));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Out));
}

std::atomic<int> ApiUserObjectsDestroyed{0};
void CUDA_CB destroyApiUserObject(void *) { ApiUserObjectsDestroyed++; }

TEST_F(Graph, UserObjectReferencesOfGraphsAndClones) {
  int Before = ApiUserObjectsDestroyed.load();
  CUuserObject O = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuUserObjectCreate(&O, nullptr, destroyApiUserObject, 1,
                               CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
  CUgraph G = nullptr, Clone = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphRetainUserObject(G, O, 2, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphClone(&Clone, G));
#if CUCPU_ONLY
  // NVIDIA's driver does not check this, and its count is wrong afterwards
  // (the process crashed later, on an H200).
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphReleaseUserObject(G, O, 3))
      << "the graph holds 2";
#endif
  EXPECT_CU(CUDA_SUCCESS, cuGraphReleaseUserObject(G, O, 2));
  EXPECT_CU(CUDA_SUCCESS, cuUserObjectRelease(O, 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(Before, ApiUserObjectsDestroyed.load())
      << "the clone holds references of its own";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Clone));
  for (int I = 0; I < 500 && ApiUserObjectsDestroyed.load() == Before; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Before + 1, ApiUserObjectsDestroyed.load());
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphRetainUserObject(G, O, 0, 0))
      << "a count of 0";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, AllocationOutlivingItsContextIsHarmless) {
  CUcontext Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, createContext(&Other));
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS A{};
  A.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  A.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  A.poolProps.location.id = Dev;
  A.bytesize = 1 << 16;
  CUgraphNode Alloc;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemAllocNode(&Alloc, G, nullptr, 0, &A));
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  EXPECT_EQ(Other, Popped);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(Other))
      << "the context goes, and the graph's memory with it";
  CUdeviceptr Mine = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Mine, 1 << 16));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G))
      << "the graph goes later without touching memory that is not its";
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8(Mine, 7, 1 << 16))
      << "memory allocated since is intact";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Mine));
}

} // namespace

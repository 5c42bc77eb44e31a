//===- GraphFixture.h - Fixture of the graph and capture cases --*- C++ -*-===//
//
// What GraphTest.cpp, GraphNodeTest.cpp and StreamCaptureTest.cpp share: the
// kernels of kernels/graph.cu, buffers of N ints that TearDown frees, builders
// of graph nodes over those buffers, and graph queries that return sorted
// lists (the driver's order is unspecified).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_API_GRAPHFIXTURE_H
#define CUCPU_TESTS_API_GRAPHFIXTURE_H

#include "DriverTest.h"

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

namespace cuapi {

/// The dependencies of a node being added.
using Deps = std::vector<CUgraphNode>;

/// DriverTest with the graph kernels loaded. Streams, events, device and
/// page-locked memory made through it are released by TearDown; graphs and
/// executable graphs are the cases' own.
class GraphFixture : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, CUCPU_API_GRAPH_MODULE))
        << "setup: the test kernels (" << CUCPU_API_GRAPH_MODULE << ")";
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddValue, Mod, "addValue"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&ScaleBy, Mod, "scaleBy"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddInto, Mod, "addInto"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddArrays, Mod, "addArrays"));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&CopyInt, Mod, "copyInt"));
    ASSERT_CU(CUDA_SUCCESS,
              cuModuleGetFunction(&WaitForFlag, Mod, "waitForFlag"));
  }
  void TearDown() override {
    if (Ctx) {
      EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "no fault in the test";
      for (CUstream S : Streams) {
        EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
      }
      for (CUevent E : Events) {
        EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(E));
      }
      for (CUdeviceptr P : Buffers) {
        EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
      }
      for (int *P : Pinned) {
        EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(P));
      }
      if (Mod) {
        EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
      }
    }
    DriverTest::TearDown();
  }

  //===--------------------------------------------------------------------===//
  // Resources
  //===--------------------------------------------------------------------===//

  /// N ints of device memory, each set to \p Fill.
  CUdeviceptr buffer(int Fill = -1) {
    CUdeviceptr P = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&P, N * sizeof(int)))
        << "setup: device memory";
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(P, static_cast<unsigned>(Fill), N));
    if (P)
      Buffers.push_back(P);
    return P;
  }
  /// N ints of page-locked host memory, each set to \p Fill.
  int *pinned(int Fill = -1) {
    int *P = nullptr;
    EXPECT_CU(CUDA_SUCCESS,
              cuMemAllocHost(reinterpret_cast<void **>(&P), N * sizeof(int)))
        << "setup: page-locked memory";
    if (!P)
      return nullptr;
    Pinned.push_back(P);
    std::fill(P, P + N, Fill);
    return P;
  }
  /// A stream with \p Flags.
  CUstream stream(unsigned Flags = CU_STREAM_NON_BLOCKING) {
    CUstream S = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&S, Flags)) << "setup: a stream";
    if (S)
      Streams.push_back(S);
    return S;
  }
  /// An event without timing.
  CUevent event() {
    CUevent E = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&E, CU_EVENT_DISABLE_TIMING))
        << "setup: an event";
    if (E)
      Events.push_back(E);
    return E;
  }

  //===--------------------------------------------------------------------===//
  // Kernel nodes and launches
  //===--------------------------------------------------------------------===//

  /// Parameters of a kernel node running \p F on a 1D grid.
  static CUDA_KERNEL_NODE_PARAMS kernelParams(CUfunction F, void **Args,
                                              unsigned Blocks = Grid,
                                              unsigned Threads = Block) {
    CUDA_KERNEL_NODE_PARAMS P = {};
    P.func = F;
    P.gridDimX = Blocks;
    P.gridDimY = 1;
    P.gridDimZ = 1;
    P.blockDimX = Threads;
    P.blockDimY = 1;
    P.blockDimZ = 1;
    P.kernelParams = Args;
    return P;
  }
  /// Adds a kernel node with parameters \p P after \p D.
  static CUresult addKernel(CUgraphNode *Out, CUgraph G, const Deps &D,
                            const CUDA_KERNEL_NODE_PARAMS &P) {
    return cuGraphAddKernelNode(Out, G, D.data(), D.size(), &P);
  }
  /// The argument values of an addValue node's parameters; they must outlive
  /// every use of those parameters.
  struct KernelArgs {
    CUdeviceptr Data = 0;
    int Count = N, Value = 0;
    void *Args[3] = {};
  };
  /// Parameters of addValue(Data, N, Value), with the values kept in \p A.
  CUDA_KERNEL_NODE_PARAMS addValueParams(KernelArgs &A, CUdeviceptr Data,
                                         int Value) {
    A.Data = Data;
    A.Value = Value;
    A.Args[0] = &A.Data;
    A.Args[1] = &A.Count;
    A.Args[2] = &A.Value;
    return kernelParams(AddValue, A.Args);
  }
  /// Adds addValue(Data, N, Value): Data[i] += Value.
  CUresult addAddValue(CUgraphNode *Out, CUgraph G, const Deps &D,
                       CUdeviceptr Data, int Value) {
    KernelArgs A;
    return addKernel(Out, G, D, addValueParams(A, Data, Value));
  }
  /// Adds scaleBy(Data, N, Factor): Data[i] *= Factor.
  CUresult addScaleBy(CUgraphNode *Out, CUgraph G, const Deps &D,
                      CUdeviceptr Data, int Factor) {
    int Count = N;
    void *Args[] = {&Data, &Count, &Factor};
    return addKernel(Out, G, D, kernelParams(ScaleBy, Args));
  }
  /// Adds addInto(In, To, N, Value): To[i] = In[i] + Value.
  CUresult addAddInto(CUgraphNode *Out, CUgraph G, const Deps &D,
                      CUdeviceptr In, CUdeviceptr To, int Value) {
    int Count = N;
    void *Args[] = {&In, &To, &Count, &Value};
    return addKernel(Out, G, D, kernelParams(AddInto, Args));
  }
  /// Adds addArrays(A, B, C, N): C[i] = A[i] + B[i].
  CUresult addAddArrays(CUgraphNode *Out, CUgraph G, const Deps &D,
                        CUdeviceptr A, CUdeviceptr B, CUdeviceptr C) {
    int Count = N;
    void *Args[] = {&A, &B, &C, &Count};
    return addKernel(Out, G, D, kernelParams(AddArrays, Args));
  }
  /// Adds copyInt(Src, Dst) on one thread: *Dst = *Src.
  CUresult addCopyInt(CUgraphNode *Out, CUgraph G, const Deps &D,
                      CUdeviceptr Src, CUdeviceptr Dst) {
    void *Args[] = {&Src, &Dst};
    return addKernel(Out, G, D, kernelParams(CopyInt, Args, 1, 1));
  }
  /// Launches \p F over the N ints on \p S.
  static CUresult launch(CUfunction F, CUstream S, void **Args) {
    return cuLaunchKernel(F, Grid, 1, 1, Block, 1, 1, 0, S, Args, nullptr);
  }
  /// addValue(Data, N, Value) on \p S.
  CUresult launchAddValue(CUstream S, CUdeviceptr Data, int Value) {
    int Count = N;
    void *Args[] = {&Data, &Count, &Value};
    return launch(AddValue, S, Args);
  }
  /// scaleBy(Data, N, Factor) on \p S.
  CUresult launchScaleBy(CUstream S, CUdeviceptr Data, int Factor) {
    int Count = N;
    void *Args[] = {&Data, &Count, &Factor};
    return launch(ScaleBy, S, Args);
  }
  /// addArrays(A, B, C, N) on \p S.
  CUresult launchAddArrays(CUstream S, CUdeviceptr A, CUdeviceptr B,
                           CUdeviceptr C) {
    int Count = N;
    void *Args[] = {&A, &B, &C, &Count};
    return launch(AddArrays, S, Args);
  }

  //===--------------------------------------------------------------------===//
  // Memset, memcpy and host nodes
  //===--------------------------------------------------------------------===//

  /// A memset node's parameters: N 4-byte values at \p Dst.
  static CUDA_MEMSET_NODE_PARAMS memsetParams(CUdeviceptr Dst, int Value) {
    CUDA_MEMSET_NODE_PARAMS P = {};
    P.dst = Dst;
    P.pitch = 0; // unused when height is 1
    P.value = static_cast<unsigned>(Value);
    P.elementSize = sizeof(int);
    P.width = N;
    P.height = 1;
    return P;
  }
  /// Adds a memset of the N ints at \p Dst to \p Value.
  CUresult addMemset(CUgraphNode *Out, CUgraph G, const Deps &D,
                     CUdeviceptr Dst, int Value) {
    CUDA_MEMSET_NODE_PARAMS P = memsetParams(Dst, Value);
    return cuGraphAddMemsetNode(Out, G, D.data(), D.size(), &P, Ctx);
  }
  /// A 1D copy of the N ints; the caller sets memory types and pointers.
  static CUDA_MEMCPY3D linearCopy() {
    CUDA_MEMCPY3D C = {};
    C.WidthInBytes = N * sizeof(int);
    C.Height = 1;
    C.Depth = 1;
    C.srcPitch = C.dstPitch = N * sizeof(int);
    C.srcHeight = C.dstHeight = 1;
    return C;
  }
  /// Copies the N ints from (page-locked) host memory to the device.
  static CUDA_MEMCPY3D hostToDevice(CUdeviceptr Dst, const int *Src) {
    CUDA_MEMCPY3D C = linearCopy();
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Src;
    C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    C.dstDevice = Dst;
    return C;
  }
  /// Copies the N ints between two device buffers.
  static CUDA_MEMCPY3D deviceToDevice(CUdeviceptr Dst, CUdeviceptr Src) {
    CUDA_MEMCPY3D C = linearCopy();
    C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    C.srcDevice = Src;
    C.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    C.dstDevice = Dst;
    return C;
  }
  /// Copies the N ints from the device to (page-locked) host memory.
  static CUDA_MEMCPY3D deviceToHost(int *Dst, CUdeviceptr Src) {
    CUDA_MEMCPY3D C = linearCopy();
    C.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    C.srcDevice = Src;
    C.dstMemoryType = CU_MEMORYTYPE_HOST;
    C.dstHost = Dst;
    return C;
  }
  /// Adds a memcpy node doing \p C in the fixture's context.
  CUresult addMemcpy(CUgraphNode *Out, CUgraph G, const Deps &D,
                     const CUDA_MEMCPY3D &C) {
    return cuGraphAddMemcpyNode(Out, G, D.data(), D.size(), &C, Ctx);
  }
  /// Adds a host node calling Fn(UserData).
  static CUresult addHost(CUgraphNode *Out, CUgraph G, const Deps &D,
                          CUhostFn Fn, void *UserData) {
    CUDA_HOST_NODE_PARAMS P = {};
    P.fn = Fn;
    P.userData = UserData;
    return cuGraphAddHostNode(Out, G, D.data(), D.size(), &P);
  }
  /// A host function: adds 1 to the std::atomic<int> at \p UserData.
  static void CUDA_CB countCall(void *UserData) {
    static_cast<std::atomic<int> *>(UserData)->fetch_add(1);
  }

  //===--------------------------------------------------------------------===//
  // Running and checking
  //===--------------------------------------------------------------------===//

  /// Launches \p E on \p S and waits for it.
  static CUresult launchAndWait(CUgraphExec E, CUstream S) {
    CUresult R = cuGraphLaunch(E, S);
    return R != CUDA_SUCCESS ? R : cuStreamSynchronize(S);
  }
  /// Instantiates \p G, launches it once on \p S, waits and destroys it.
  static CUresult runOnce(CUgraph G, CUstream S) {
    CUgraphExec E = nullptr;
    CUresult R = cuGraphInstantiate(&E, G, 0);
    if (R != CUDA_SUCCESS)
      return R;
    R = launchAndWait(E, S);
    CUresult D = cuGraphExecDestroy(E);
    return R != CUDA_SUCCESS ? R : D;
  }
  /// Whether each of the N ints at \p P equals \p Value.
  static ::testing::AssertionResult holds(CUdeviceptr P, int Value) {
    std::vector<int> Host(N, 0);
    CUresult R = cuMemcpyDtoH(Host.data(), P, N * sizeof(int));
    if (R != CUDA_SUCCESS)
      return ::testing::AssertionFailure()
             << "cuMemcpyDtoH returned " << resultName(R);
    for (int I = 0; I < N; ++I)
      if (Host[I] != Value)
        return ::testing::AssertionFailure()
               << "element " << I << " is " << Host[I] << ", not " << Value;
    return ::testing::AssertionSuccess();
  }

  //===--------------------------------------------------------------------===//
  // Queries
  //===--------------------------------------------------------------------===//

  /// Every node of \p G, sorted.
  static std::vector<CUgraphNode> nodesOf(CUgraph G) {
    size_t Count = 0;
    EXPECT_CU(CUDA_SUCCESS, cuGraphGetNodes(G, nullptr, &Count));
    std::vector<CUgraphNode> Nodes(Count);
    EXPECT_CU(CUDA_SUCCESS, cuGraphGetNodes(G, Nodes.data(), &Count));
    Nodes.resize(Count);
    return sorted(std::move(Nodes));
  }
  /// Every edge of \p G as (from, to), sorted.
  static std::vector<std::pair<CUgraphNode, CUgraphNode>> edgesOf(CUgraph G) {
    size_t Count = 0;
    EXPECT_CU(CUDA_SUCCESS,
              cuGraphGetEdges(G, nullptr, nullptr, nullptr, &Count));
    std::vector<CUgraphNode> From(Count), To(Count);
    EXPECT_CU(CUDA_SUCCESS,
              cuGraphGetEdges(G, From.data(), To.data(), nullptr, &Count));
    std::vector<std::pair<CUgraphNode, CUgraphNode>> Edges;
    for (size_t I = 0; I < Count; ++I)
      Edges.emplace_back(From[I], To[I]);
    std::sort(Edges.begin(), Edges.end());
    return Edges;
  }
  /// The dependencies of \p Node, sorted.
  static std::vector<CUgraphNode> dependenciesOf(CUgraphNode Node) {
    size_t Count = 0;
    EXPECT_CU(CUDA_SUCCESS,
              cuGraphNodeGetDependencies(Node, nullptr, nullptr, &Count));
    std::vector<CUgraphNode> Nodes(Count);
    EXPECT_CU(CUDA_SUCCESS,
              cuGraphNodeGetDependencies(Node, Nodes.data(), nullptr, &Count));
    Nodes.resize(Count);
    return sorted(std::move(Nodes));
  }
  /// \p Nodes in the order the other queries return theirs.
  static std::vector<CUgraphNode> sorted(std::vector<CUgraphNode> Nodes) {
    std::sort(Nodes.begin(), Nodes.end());
    return Nodes;
  }
  /// The type of \p Node.
  static CUgraphNodeType typeOf(CUgraphNode Node) {
    CUgraphNodeType T = CU_GRAPH_NODE_TYPE_CONDITIONAL;
    EXPECT_CU(CUDA_SUCCESS, cuGraphNodeGetType(Node, &T));
    return T;
  }

  /// Every buffer has N ints, processed by Grid blocks of Block threads.
  static constexpr int N = 1000;
  static constexpr unsigned Block = 128;
  static constexpr unsigned Grid = (N + Block - 1) / Block;

  CUmodule Mod = nullptr;
  CUfunction AddValue = nullptr, ScaleBy = nullptr, AddInto = nullptr,
             AddArrays = nullptr, CopyInt = nullptr, WaitForFlag = nullptr;
  std::vector<CUstream> Streams;
  std::vector<CUevent> Events;
  std::vector<CUdeviceptr> Buffers;
  std::vector<int *> Pinned;
};

} // namespace cuapi

#endif // CUCPU_TESTS_API_GRAPHFIXTURE_H

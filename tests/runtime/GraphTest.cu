//===- GraphTest.cu - CUDA graphs and stream capture ----------------------===//
//
// Graphs built node by node (kernel, memcpy, memset, host, child graph,
// empty and event nodes), their topology, instantiation and launch, updates
// of executable graphs, and graphs built by capturing stream work (CUDA 11
// Programming Guide, 3.2.5.6, Graphs).
//
//===----------------------------------------------------------------------===//

#include "Blocker.h"
#include "RuntimeTest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

using namespace curt;

/// Out[i] = Value for i < N.
__global__ void graphFill(int *Out, int Value, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = Value;
}

/// Data[i] += 1 for i < N.
__global__ void graphAddOne(int *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += 1;
}

/// Data[i] *= Factor for i < N.
__global__ void graphScale(int *Data, int Factor, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] *= Factor;
}

/// Out[i] = A * In[i] + B for i < N.
__global__ void graphAxpb(const int *In, int *Out, int A, int B, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = A * In[I] + B;
}

/// Out[i] = X[i] + Y[i] for i < N.
__global__ void graphSum(const int *X, const int *Y, int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = X[I] + Y[I];
}

/// One thread counts one launch.
__global__ void graphIncrement(int *Counter) { *Counter += 1; }

__device__ int GraphSymbol[4];

namespace {

constexpr int N = 1000;
constexpr int Threads = 128;
constexpr int Blocks = (N + Threads - 1) / Threads;

/// What a host node saw: the sum of Count values, and how often it ran.
struct HostSum {
  const int *Values = nullptr;
  int Count = 0;
  long long Sum = 0;
  int Calls = 0;
};

void CUDART_CB graphSumValues(void *Data) {
  auto *S = static_cast<HostSum *>(Data);
  S->Sum = 0;
  for (int I = 0; I < S->Count; ++I)
    S->Sum += S->Values[I];
  ++S->Calls;
}

/// Kernel node parameters of a launch of \p Func with \p Args.
cudaKernelNodeParams kernelParams(const void *Func, void **Args,
                                  dim3 Grid = dim3(Blocks),
                                  dim3 Block = dim3(Threads)) {
  cudaKernelNodeParams P = {};
  P.func = const_cast<void *>(Func);
  P.gridDim = Grid;
  P.blockDim = Block;
  P.sharedMemBytes = 0;
  P.kernelParams = Args;
  P.extra = nullptr;
  return P;
}

/// Adds a graphFill(Out, Value, N) node after \p Deps.
cudaError_t addFill(cudaGraphNode_t *Node, cudaGraph_t G,
                    std::vector<cudaGraphNode_t> Deps, int *Out, int Value) {
  int Count = N;
  void *Args[] = {&Out, &Value, &Count};
  cudaKernelNodeParams P = kernelParams((const void *)graphFill, Args);
  // The argument values are copied when the node is added.
  return cudaGraphAddKernelNode(Node, G, Deps.data(), Deps.size(), &P);
}

/// Adds a graphAddOne(Data, N) node after \p Deps.
cudaError_t addAddOne(cudaGraphNode_t *Node, cudaGraph_t G,
                      std::vector<cudaGraphNode_t> Deps, int *Data) {
  int Count = N;
  void *Args[] = {&Data, &Count};
  cudaKernelNodeParams P = kernelParams((const void *)graphAddOne, Args);
  return cudaGraphAddKernelNode(Node, G, Deps.data(), Deps.size(), &P);
}

/// Whether every one of the N ints at device address \p Dev is \p Value.
::testing::AssertionResult allEqual(const int *Dev, int Value) {
  std::vector<int> Host(N, -1);
  if (cudaError_t E =
          cudaMemcpy(Host.data(), Dev, N * sizeof(int), cudaMemcpyDeviceToHost))
    return ::testing::AssertionFailure() << "copy back: " << errorName(E);
  for (int I = 0; I < N; ++I)
    if (Host[I] != Value)
      return ::testing::AssertionFailure()
             << "element " << I << " is " << Host[I] << ", expected " << Value;
  return ::testing::AssertionSuccess();
}

/// The nodes of \p G.
std::vector<cudaGraphNode_t> nodesOf(cudaGraph_t G) {
  size_t Count = 0;
  if (cudaGraphGetNodes(G, nullptr, &Count) != cudaSuccess)
    return {};
  std::vector<cudaGraphNode_t> Nodes(Count);
  if (Count && cudaGraphGetNodes(G, Nodes.data(), &Count) != cudaSuccess)
    return {};
  return Nodes;
}

/// The root nodes of \p G.
std::vector<cudaGraphNode_t> rootsOf(cudaGraph_t G) {
  size_t Count = 0;
  if (cudaGraphGetRootNodes(G, nullptr, &Count) != cudaSuccess)
    return {};
  std::vector<cudaGraphNode_t> Roots(Count);
  if (Count && cudaGraphGetRootNodes(G, Roots.data(), &Count) != cudaSuccess)
    return {};
  return Roots;
}

/// The edges of \p G as (from, to) pairs.
std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edgesOf(cudaGraph_t G) {
  size_t Count = 0;
  if (cudaGraphGetEdges(G, nullptr, nullptr, nullptr, &Count) != cudaSuccess)
    return {};
  std::vector<cudaGraphNode_t> From(Count), To(Count);
  if (Count && cudaGraphGetEdges(G, From.data(), To.data(), nullptr, &Count) !=
                   cudaSuccess)
    return {};
  std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>> Edges;
  for (size_t I = 0; I < Count; ++I)
    Edges.insert({From[I], To[I]});
  return Edges;
}

/// The kinds of the nodes of \p G, sorted.
std::vector<cudaGraphNodeType> typesOf(cudaGraph_t G) {
  std::vector<cudaGraphNodeType> Types;
  for (cudaGraphNode_t Node : nodesOf(G)) {
    cudaGraphNodeType T = cudaGraphNodeTypeCount;
    if (cudaGraphNodeGetType(Node, &T) == cudaSuccess)
      Types.push_back(T);
  }
  std::sort(Types.begin(), Types.end());
  return Types;
}

} // namespace

using Graph = RuntimeTest;
using StreamCapture = RuntimeTest;

TEST_F(Graph, EmptyGraphInstantiatesAndLaunches) {
  cudaGraph_t G = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphCreate(&G, 1))
      << "documented: the flags must be 0";
  (void)cudaGetLastError();
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "an empty graph";
  ASSERT_NE(nullptr, G) << "a handle";
  size_t Count = 99;
  EXPECT_CUDA(cudaSuccess, cudaGraphGetNodes(G, nullptr, &Count))
      << "count the nodes";
  EXPECT_EQ(0u, Count) << "a new graph has no nodes";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0))
      << "an empty graph can be instantiated";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "and launched";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "it does nothing";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(Graph, HandBuiltNodesRunInDependencyOrder) {
  int *Dev = nullptr, *Host = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Host, N * sizeof(int))) << "host";
  std::fill(Host, Host + N, -1);
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";

  // memset (Dev = 5) -> kernel (Dev *= 3) -> memcpy (Host = Dev) -> host.
  cudaMemsetParams M = {};
  M.dst = Dev;
  M.pitch = 0;
  M.value = 5;
  M.elementSize = sizeof(int);
  M.width = N;
  M.height = 1;
  cudaGraphNode_t Set = nullptr, Scale = nullptr, Copy = nullptr,
                  Check = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemsetNode(&Set, G, nullptr, 0, &M))
      << "a 4-byte memset node";
  int Factor = 3, Count = N;
  void *Args[] = {&Dev, &Factor, &Count};
  cudaKernelNodeParams K = kernelParams((const void *)graphScale, Args);
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Scale, G, &Set, 1, &K))
      << "a kernel node after the memset, dependency given at creation";
  cudaMemcpy3DParms C = {};
  C.srcPtr = make_cudaPitchedPtr(Dev, N * sizeof(int), N, 1);
  C.dstPtr = make_cudaPitchedPtr(Host, N * sizeof(int), N, 1);
  C.extent = make_cudaExtent(N * sizeof(int), 1, 1);
  C.kind = cudaMemcpyDeviceToHost;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemcpyNode(&Copy, G, nullptr, 0, &C))
      << "a memcpy node, its dependency added later";
  HostSum Sum;
  Sum.Values = Host;
  Sum.Count = N;
  cudaHostNodeParams H = {graphSumValues, &Sum};
  ASSERT_CUDA(cudaSuccess, cudaGraphAddHostNode(&Check, G, nullptr, 0, &H))
      << "a host node";
  cudaGraphNode_t From[] = {Scale, Copy}, To[] = {Copy, Check};
  ASSERT_CUDA(cudaSuccess, cudaGraphAddDependencies(G, From, To, nullptr, 2))
      << "kernel -> memcpy -> host";

  EXPECT_EQ(-1, Host[0]) << "building a graph runs nothing";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  EXPECT_EQ(0, Sum.Calls) << "instantiating runs nothing";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "launch";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_EQ(15, Host[0]) << "memset, then kernel, then copy";
  EXPECT_EQ(15, Host[N - 1]) << "every element";
  EXPECT_EQ(1, Sum.Calls) << "the host node ran once";
  EXPECT_EQ(15LL * N, Sum.Sum) << "the host node ran after the copy";

  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Host)) << "cleanup";
}

TEST_F(Graph, TopologyQueries) {
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  // The guide's diamond (3.2.5.6.2): nodes first, then the edges.
  cudaGraphNode_t A, B, C, D;
  for (cudaGraphNode_t *Node : {&A, &B, &C, &D})
    ASSERT_CUDA(cudaSuccess, cudaGraphAddEmptyNode(Node, G, nullptr, 0))
        << "an empty node";
  ASSERT_CUDA(cudaSuccess, cudaGraphAddDependencies(G, &A, &B, nullptr, 1))
      << "A->B";
  ASSERT_CUDA(cudaSuccess, cudaGraphAddDependencies(G, &A, &C, nullptr, 1))
      << "A->C";
  ASSERT_CUDA(cudaSuccess, cudaGraphAddDependencies(G, &B, &D, nullptr, 1))
      << "B->D";
  ASSERT_CUDA(cudaSuccess, cudaGraphAddDependencies(G, &C, &D, nullptr, 1))
      << "C->D";

  std::vector<cudaGraphNode_t> Nodes = nodesOf(G);
  EXPECT_EQ((std::set<cudaGraphNode_t>{A, B, C, D}),
            std::set<cudaGraphNode_t>(Nodes.begin(), Nodes.end()))
      << "every node, once";
  EXPECT_EQ(std::vector<cudaGraphNode_t>{A}, rootsOf(G)) << "A is the root";
  EXPECT_EQ((std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>>{
                {A, B}, {A, C}, {B, D}, {C, D}}),
            edgesOf(G))
      << "the four edges";
  cudaGraphNode_t Found[4] = {};
  size_t Count = 4;
  EXPECT_CUDA(cudaSuccess,
              cudaGraphNodeGetDependencies(D, Found, nullptr, &Count))
      << "D's dependencies";
  EXPECT_EQ(2u, Count) << "B and C";
  EXPECT_EQ(
      (std::set<cudaGraphNode_t>{B, C}),
      std::set<cudaGraphNode_t>(Found, Found + std::min<size_t>(Count, 4)))
      << "B and C";
  Count = 4;
  EXPECT_CUDA(cudaSuccess,
              cudaGraphNodeGetDependentNodes(A, Found, nullptr, &Count))
      << "A's dependents";
  EXPECT_EQ(2u, Count) << "B and C";
  cudaGraphNodeType T = cudaGraphNodeTypeCount;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(A, &T)) << "a node's type";
  EXPECT_EQ(cudaGraphNodeTypeEmpty, T) << "an empty node";

  // Observed on an H200 (CUDA 13.0, driver 580): a duplicate edge, and the
  // removal of an edge that does not exist, are cudaErrorInvalidValue.
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphAddDependencies(G, &A, &B, nullptr, 1))
      << "A->B exists already";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphRemoveDependencies(G, &D, &A, nullptr, 1))
      << "documented: removing a dependency that does not exist is an error";
  (void)cudaGetLastError();

  ASSERT_CUDA(cudaSuccess, cudaGraphRemoveDependencies(G, &A, &B, nullptr, 1))
      << "remove A->B";
  EXPECT_EQ(3u, edgesOf(G).size()) << "three edges left";
  std::vector<cudaGraphNode_t> Roots = rootsOf(G);
  EXPECT_EQ((std::set<cudaGraphNode_t>{A, B}),
            std::set<cudaGraphNode_t>(Roots.begin(), Roots.end()))
      << "B has no dependency left";
  ASSERT_CUDA(cudaSuccess, cudaGraphDestroyNode(C)) << "remove C";
  EXPECT_EQ(3u, nodesOf(G).size()) << "three nodes left";
  EXPECT_EQ((std::set<std::pair<cudaGraphNode_t, cudaGraphNode_t>>{{B, D}}),
            edgesOf(G))
      << "C's edges went with it";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
}

TEST_F(Graph, KernelNodeParamsRoundTrip) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  cudaGraphNode_t Fill = nullptr;
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 4)) << "fill with 4";

  cudaKernelNodeParams Got = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphKernelNodeGetParams(Fill, &Got))
      << "read the node back";
  EXPECT_EQ((void *)graphFill, Got.func)
      << "the kernel is named by the host function the program gave";
  EXPECT_EQ(unsigned(Blocks), Got.gridDim.x) << "grid";
  EXPECT_EQ(1u, Got.gridDim.y) << "grid";
  EXPECT_EQ(unsigned(Threads), Got.blockDim.x) << "block";
  EXPECT_EQ(0u, Got.sharedMemBytes) << "no dynamic shared memory";
  ASSERT_NE(nullptr, Got.kernelParams) << "the node keeps its arguments";
  EXPECT_EQ(4, *static_cast<int *>(Got.kernelParams[1]))
      << "a copy of the value argument";
  cudaGraphNodeType T = cudaGraphNodeTypeCount;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Fill, &T)) << "its type";
  EXPECT_EQ(cudaGraphNodeTypeKernel, T) << "a kernel node";

  int Value = 9, Count = N;
  void *Args[] = {&Dev, &Value, &Count};
  cudaKernelNodeParams P = kernelParams((const void *)graphFill, Args);
  ASSERT_CUDA(cudaSuccess, cudaGraphKernelNodeSetParams(Fill, &P))
      << "fill with 9 instead";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 9)) << "the new arguments";

  int NotAKernel = 0;
  P.func = &NotAKernel;
  EXPECT_NE(cudaSuccess, cudaGraphKernelNodeSetParams(Fill, &P))
      << "a host address that is no kernel";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, MemcpyMemsetAndHostNodeParamsRoundTrip) {
  int *Dev = nullptr, *Host = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Host, N * sizeof(int))) << "host";
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";

  cudaGraphNode_t Copy = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddMemcpyNode1D(&Copy, G, nullptr, 0, Host, Dev,
                                       N * sizeof(int), cudaMemcpyDeviceToHost))
      << "a 1D memcpy node";
  cudaMemcpy3DParms C = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphMemcpyNodeGetParams(Copy, &C))
      << "read it back";
  // Observed on an H200 (CUDA 13.0, driver 580): a 1D copy reads back as a
  // 3D copy of one row between the two pointers.
  EXPECT_EQ(nullptr, C.srcArray) << "no array";
  EXPECT_EQ(nullptr, C.dstArray) << "no array";
  EXPECT_EQ((void *)Dev, C.srcPtr.ptr) << "source";
  EXPECT_EQ((void *)Host, C.dstPtr.ptr) << "destination";
  EXPECT_EQ(N * sizeof(int), C.extent.width) << "bytes";
  EXPECT_EQ(1u, C.extent.height) << "one row";
  EXPECT_EQ(1u, C.extent.depth) << "one slice";
  cudaGraphNodeType T = cudaGraphNodeTypeCount;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Copy, &T)) << "its type";
  EXPECT_EQ(cudaGraphNodeTypeMemcpy, T) << "a memcpy node";
  EXPECT_CUDA(cudaErrorInvalidMemcpyDirection,
              cudaGraphAddMemcpyNode1D(&Copy, G, nullptr, 0, Host, Dev, 4,
                                       static_cast<cudaMemcpyKind>(42)))
      << "a copy kind out of range";
  (void)cudaGetLastError();

  cudaMemsetParams M = {};
  M.dst = Dev;
  M.value = 7;
  M.elementSize = 2;
  M.width = 2 * N;
  M.height = 1;
  cudaGraphNode_t Set = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemsetNode(&Set, G, nullptr, 0, &M))
      << "a 2-byte memset node";
  cudaMemsetParams GotM = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphMemsetNodeGetParams(Set, &GotM))
      << "read it back";
  EXPECT_EQ((void *)Dev, GotM.dst) << "destination";
  EXPECT_EQ(7u, GotM.value) << "value";
  EXPECT_EQ(2u, GotM.elementSize) << "element size";
  EXPECT_EQ(size_t(2 * N), GotM.width) << "width in elements";
  EXPECT_EQ(1u, GotM.height) << "one row";
  M.elementSize = 3;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphMemsetNodeSetParams(Set, &M))
      << "documented: the element size must be 1, 2 or 4";
  (void)cudaGetLastError();

  HostSum Sum;
  cudaHostNodeParams H = {graphSumValues, &Sum};
  cudaGraphNode_t Call = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddHostNode(&Call, G, nullptr, 0, &H))
      << "a host node";
  cudaHostNodeParams GotH = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphHostNodeGetParams(Call, &GotH))
      << "read it back";
  EXPECT_EQ(&graphSumValues, GotH.fn) << "the function";
  EXPECT_EQ(&Sum, GotH.userData) << "its argument";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Call, &T)) << "its type";
  EXPECT_EQ(cudaGraphNodeTypeHost, T) << "a host node";

  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Host)) << "cleanup";
}

TEST_F(Graph, SymbolCopyNodes) {
  int *In = nullptr, *Out = nullptr, *Symbol = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&In, 4 * sizeof(int))) << "host";
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Out, 4 * sizeof(int))) << "host";
  ASSERT_CUDA(cudaSuccess, cudaGetSymbolAddress((void **)&Symbol, GraphSymbol))
      << "the variable's address";
  for (int I = 0; I < 4; ++I)
    In[I] = I + 1, Out[I] = -1;
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  cudaGraphNode_t To = nullptr, Add = nullptr, From = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemcpyNodeToSymbol(
                               &To, G, nullptr, 0, GraphSymbol, In,
                               4 * sizeof(int), 0, cudaMemcpyHostToDevice))
      << "copy 1, 2, 3, 4 into the variable";
  int Count = 4;
  void *Args[] = {&Symbol, &Count};
  cudaKernelNodeParams K =
      kernelParams((const void *)graphAddOne, Args, dim3(1), dim3(4));
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Add, G, &To, 1, &K))
      << "add one to each";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddMemcpyNodeFromSymbol(
                  &From, G, &Add, 1, Out, GraphSymbol, 3 * sizeof(int),
                  sizeof(int), cudaMemcpyDeviceToHost))
      << "copy back the last three, from offset 4";
  // Observed on an H200 (CUDA 13.0, driver 580): a node copying past the
  // end of its variable is refused as cudaMemcpyToSymbol refuses the copy.
  cudaGraphNode_t Bad = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphAddMemcpyNodeToSymbol(&Bad, G, nullptr, 0, GraphSymbol,
                                             In, 4 * sizeof(int), sizeof(int),
                                             cudaMemcpyHostToDevice))
      << "16 bytes at offset 4 run past the 16-byte variable";
  (void)cudaGetLastError();
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(0)) << "wait";
  EXPECT_EQ(3, Out[0]) << "GraphSymbol[1] + 1";
  EXPECT_EQ(4, Out[1]) << "GraphSymbol[2] + 1";
  EXPECT_EQ(5, Out[2]) << "GraphSymbol[3] + 1";
  EXPECT_EQ(-1, Out[3]) << "only three copied";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(In)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Out)) << "cleanup";
}

TEST_F(Graph, LaunchedOneHundredTimes) {
  int *Counter = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Counter, sizeof(int))) << "counter";
  ASSERT_CUDA(cudaSuccess, cudaMemset(Counter, 0, sizeof(int))) << "zero";
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  void *Args[] = {&Counter};
  cudaKernelNodeParams K =
      kernelParams((const void *)graphIncrement, Args, dim3(1), dim3(1));
  cudaGraphNode_t First = nullptr, Second = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&First, G, nullptr, 0, &K))
      << "one increment";
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Second, G, &First, 1, &K))
      << "and another after it";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  // "A launch of a cudaGraphExec_t will be ordered after previous launches
  // of the same executable graph" (3.2.5.6.4): no increment is lost.
  for (int I = 0; I < 100; ++I)
    ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "launch " << I;
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  int Got = 0;
  ASSERT_CUDA(cudaSuccess,
              cudaMemcpy(&Got, Counter, sizeof(int), cudaMemcpyDeviceToHost))
      << "read";
  EXPECT_EQ(200, Got) << "100 launches of two increments";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Counter)) << "cleanup";
}

TEST_F(Graph, ExecKernelNodeSetParamsChangesTheExecutableGraphOnly) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  cudaGraphNode_t Fill = nullptr;
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 4)) << "fill with 4";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 4)) << "as built";

  int Value = 6, Count = N;
  void *Args[] = {&Dev, &Value, &Count};
  cudaKernelNodeParams P = kernelParams((const void *)graphFill, Args);
  ASSERT_CUDA(cudaSuccess, cudaGraphExecKernelNodeSetParams(E, Fill, &P))
      << "the executable graph fills with 6";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch again";
  EXPECT_TRUE(allEqual(Dev, 6)) << "the new argument";

  // "hNode is also not modified by this call" (cudaGraphExecKernelNodeSet
  // Params): the graph still fills with 4.
  cudaKernelNodeParams Got = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphKernelNodeGetParams(Fill, &Got))
      << "the graph's node";
  ASSERT_NE(nullptr, Got.kernelParams) << "the node keeps its arguments";
  EXPECT_EQ(4, *static_cast<int *>(Got.kernelParams[1])) << "unchanged";
  cudaGraphExec_t Fresh = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&Fresh, G, 0))
      << "a second instance of the graph";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(Fresh, 0)) << "launch it";
  EXPECT_TRUE(allEqual(Dev, 4)) << "the graph kept its arguments";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(Fresh)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, ExecUpdateTakesTheParametersOfAGraphOfTheSameShape) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t Old = nullptr, New = nullptr;
  cudaGraphNode_t Fill = nullptr, Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Old, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, Old, {}, Dev, 1)) << "fill 1";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, Old, {Fill}, Dev)) << "add one";
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&New, 0)) << "another";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, New, {}, Dev, 5)) << "fill 5";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, New, {Fill}, Dev)) << "add one";

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, Old, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 2)) << "1 + 1";
  cudaGraphExecUpdateResultInfo Info = {};
  Info.result = cudaGraphExecUpdateError;
  ASSERT_CUDA(cudaSuccess, cudaGraphExecUpdate(E, New, &Info))
      << "same topology, same kernels, new arguments";
  EXPECT_EQ(cudaGraphExecUpdateSuccess, Info.result) << "it says so";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 6)) << "5 + 1: the new graph's arguments";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Old)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(New)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, ExecUpdateRejectsAChangedTopology) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t Old = nullptr, New = nullptr;
  cudaGraphNode_t Fill = nullptr, Add = nullptr, Again = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Old, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, Old, {}, Dev, 1)) << "fill 1";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, Old, {Fill}, Dev)) << "add one";
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&New, 0)) << "another";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, New, {}, Dev, 5)) << "fill 5";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, New, {Fill}, Dev)) << "add one";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Again, New, {Add}, Dev))
      << "and a third node";

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, Old, 0)) << "instantiate";
  cudaGraphExecUpdateResultInfo Info = {};
  EXPECT_CUDA(cudaErrorGraphExecUpdateFailure,
              cudaGraphExecUpdate(E, New, &Info))
      << "a graph with another node count cannot update this one";
  EXPECT_EQ(cudaGraphExecUpdateErrorTopologyChanged, Info.result)
      << "the reason";
  (void)cudaGetLastError();
  // Observed on an H200 (CUDA 13.0, driver 580): a failed update leaves the
  // executable graph as it was.
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 2)) << "still the old graph's work";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Old)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(New)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, ChildGraphNodeRunsACopyOfItsGraph) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t Child = nullptr, Parent = nullptr;
  cudaGraphNode_t Fill = nullptr, Sub = nullptr, Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Child, 0)) << "the child";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, Child, {}, Dev, 3)) << "fill 3";
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Parent, 0)) << "the parent";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddChildGraphNode(&Sub, Parent, nullptr, 0, Child))
      << "the child as a node";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, Parent, {Sub}, Dev))
      << "then add one";
  // "The child graph is cloned in this call" (cudaGraphAddChildGraphNode).
  ASSERT_CUDA(cudaSuccess, cudaGraphDestroy(Child))
      << "the node has its own copy";

  cudaGraphNodeType T = cudaGraphNodeTypeCount;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Sub, &T)) << "its type";
  EXPECT_EQ(cudaGraphNodeTypeGraph, T) << "a child graph node";
  cudaGraph_t Embedded = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphChildGraphNodeGetGraph(Sub, &Embedded))
      << "the embedded graph";
  EXPECT_NE(nullptr, Embedded) << "a graph";
  EXPECT_EQ(std::vector<cudaGraphNodeType>{cudaGraphNodeTypeKernel},
            typesOf(Embedded))
      << "one kernel node, as the child had";

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, Parent, 0))
      << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 4)) << "the child's fill, then the add";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Parent)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, CloneAndFindInClone) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t G = nullptr, Clone = nullptr;
  cudaGraphNode_t Fill = nullptr, Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 7)) << "fill 7";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, G, {Fill}, Dev)) << "add one";
  ASSERT_CUDA(cudaSuccess, cudaGraphClone(&Clone, G)) << "clone";
  cudaGraphNode_t Found = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphNodeFindInClone(&Found, Fill, Clone))
      << "the clone's copy of the fill";
  EXPECT_NE(Fill, Found) << "a node of its own";
  cudaKernelNodeParams Got = {};
  ASSERT_CUDA(cudaSuccess, cudaGraphKernelNodeGetParams(Found, &Got))
      << "its parameters";
  EXPECT_EQ((void *)graphFill, Got.func) << "the same kernel";
  EXPECT_EQ(2u, nodesOf(Clone).size()) << "both nodes";
  EXPECT_EQ(1u, edgesOf(Clone).size()) << "and their edge";
  cudaGraphNode_t Missing = nullptr;
  EXPECT_NE(cudaSuccess, cudaGraphNodeFindInClone(&Missing, Found, G))
      << "a node of the clone is not in the original";
  (void)cudaGetLastError();

  ASSERT_CUDA(cudaSuccess, cudaGraphDestroy(G))
      << "the clone does not need the original";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, Clone, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, 0)) << "launch";
  EXPECT_TRUE(allEqual(Dev, 8)) << "the clone does the original's work";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Clone)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, EventRecordAndWaitNodesOrderTwoGraphs) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaEvent_t Ev = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaEventCreateWithFlags(&Ev, cudaEventDisableTiming))
      << "an event";
  cudaGraph_t First = nullptr, Second = nullptr;
  cudaGraphNode_t Fill = nullptr, Record = nullptr, Wait = nullptr,
                  Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&First, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, First, {}, Dev, 11)) << "fill 11";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddEventRecordNode(&Record, First, &Fill, 1, Ev))
      << "then record the event";
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Second, 0)) << "another";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddEventWaitNode(&Wait, Second, nullptr, 0, Ev))
      << "wait for the event";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, Second, {Wait}, Dev))
      << "then add one";

  cudaEvent_t Got = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphEventRecordNodeGetEvent(Record, &Got))
      << "the recorded event";
  EXPECT_EQ(Ev, Got) << "as given";
  Got = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphEventWaitNodeGetEvent(Wait, &Got))
      << "the awaited event";
  EXPECT_EQ(Ev, Got) << "as given";
  cudaGraphNodeType T = cudaGraphNodeTypeCount;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Record, &T)) << "type";
  EXPECT_EQ(cudaGraphNodeTypeEventRecord, T) << "an event record node";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Wait, &T)) << "type";
  EXPECT_EQ(cudaGraphNodeTypeWaitEvent, T) << "an event wait node";

  cudaGraphExec_t E1 = nullptr, E2 = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E1, First, 0)) << "first";
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E2, Second, 0)) << "second";
  cudaStream_t S1 = nullptr, S2 = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S1, cudaStreamNonBlocking))
      << "a stream";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S2, cudaStreamNonBlocking))
      << "another";
  Blocker B;
  ASSERT_TRUE(B.valid()) << "mapped pinned flag";
  ASSERT_CUDA(cudaSuccess, B.block(S1)) << "S1 waits for the host";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E1, S1)) << "fill, record";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E2, S2)) << "wait, add";
  B.release();
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S2)) << "wait for S2";
  EXPECT_CUDA(cudaSuccess, cudaEventQuery(Ev)) << "the event was recorded";
  EXPECT_TRUE(allEqual(Dev, 12)) << "the add waited for the fill";

  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E1)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E2)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(First)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Second)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S1)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S2)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Ev)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, InstantiateWithParamsReportsItsResultAndFlags) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t G = nullptr;
  cudaGraphNode_t Fill = nullptr, Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 5)) << "fill 5";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, G, {Fill}, Dev)) << "add one";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";

  cudaGraphInstantiateParams P = {};
  P.flags = cudaGraphInstantiateFlagAutoFreeOnLaunch;
  P.errNode_out = Fill;
  P.result_out = cudaGraphInstantiateError;
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiateWithParams(&E, G, &P))
      << "instantiate with parameters";
  EXPECT_EQ(cudaGraphInstantiateSuccess, P.result_out) << "the result";
  EXPECT_EQ(nullptr, P.errNode_out) << "no node failed";
  unsigned long long Flags = 99;
  EXPECT_CUDA(cudaSuccess, cudaGraphExecGetFlags(E, &Flags)) << "its flags";
  EXPECT_EQ(
      static_cast<unsigned long long>(cudaGraphInstantiateFlagAutoFreeOnLaunch),
      Flags)
      << "as instantiated";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphExecGetFlags(E, nullptr))
      << "no place for the flags";
  (void)cudaGetLastError();
  cudaGraphExec_t Never = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphInstantiateWithParams(&Never, G, nullptr))
      << "no parameters";
  (void)cudaGetLastError();
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "launch";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_TRUE(allEqual(Dev, 6)) << "fill, then add one";

  cudaGraphInstantiateParams U = {};
  U.flags = cudaGraphInstantiateFlagUpload;
  U.uploadStream = S;
  cudaGraphExec_t Uploaded = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiateWithParams(&Uploaded, G, &U))
      << "instantiate and upload in the stream";
  EXPECT_EQ(cudaGraphInstantiateSuccess, U.result_out) << "the result";
  Flags = 99;
  EXPECT_CUDA(cudaSuccess, cudaGraphExecGetFlags(Uploaded, &Flags));
  EXPECT_EQ(0ull, Flags) << "documented: the upload flag is never returned";
  EXPECT_CUDA(cudaSuccess, cudaGraphUpload(Uploaded, S)) << "upload again";
  ASSERT_CUDA(cudaSuccess, cudaMemset(Dev, 0, N * sizeof(int))) << "clear";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(Uploaded, S)) << "launch";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_TRUE(allEqual(Dev, 6)) << "the uploaded graph runs";

  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(Uploaded)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, EventNodesTakeAnotherEvent) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaEvent_t Ev[3] = {};
  for (cudaEvent_t &E : Ev)
    ASSERT_CUDA(cudaSuccess,
                cudaEventCreateWithFlags(&E, cudaEventDisableTiming))
        << "an event";
  cudaGraph_t G = nullptr, Waiting = nullptr;
  cudaGraphNode_t Fill = nullptr, Record = nullptr, Wait = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 7)) << "fill 7";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddEventRecordNode(&Record, G, &Fill, 1, Ev[0]))
      << "then record the first event";
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&Waiting, 0)) << "another graph";
  ASSERT_CUDA(cudaSuccess,
              cudaGraphAddEventWaitNode(&Wait, Waiting, nullptr, 0, Ev[0]))
      << "that waits for the first event";

  EXPECT_CUDA(cudaSuccess, cudaGraphEventRecordNodeSetEvent(Record, Ev[1]))
      << "record the second event instead";
  EXPECT_CUDA(cudaSuccess, cudaGraphEventWaitNodeSetEvent(Wait, Ev[1]))
      << "wait for the second event instead";
  cudaEvent_t Got = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphEventRecordNodeGetEvent(Record, &Got));
  EXPECT_EQ(Ev[1], Got) << "the record node's new event";
  Got = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphEventWaitNodeGetEvent(Wait, &Got));
  EXPECT_EQ(Ev[1], Got) << "the wait node's new event";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphEventRecordNodeSetEvent(Fill, Ev[1]))
      << "a kernel node has no event";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaGraphEventWaitNodeSetEvent(Fill, Ev[1]))
      << "nor does it wait for one";
  (void)cudaGetLastError();

  cudaGraphExec_t E = nullptr, EWait = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&EWait, Waiting, 0))
      << "instantiate the waiting graph";
  EXPECT_CUDA(cudaSuccess,
              cudaGraphExecEventRecordNodeSetEvent(E, Record, Ev[2]))
      << "the executable graph records the third event";
  EXPECT_CUDA(cudaSuccess,
              cudaGraphExecEventWaitNodeSetEvent(EWait, Wait, Ev[2]))
      << "the executable waiting graph waits for it";
  Got = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphEventRecordNodeGetEvent(Record, &Got));
  EXPECT_EQ(Ev[1], Got) << "the graph's node keeps its event";

  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  Blocker B;
  ASSERT_TRUE(B.valid()) << "mapped pinned flag";
  ASSERT_CUDA(cudaSuccess, B.block(S)) << "the stream waits for the host";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "fill, record";
  EXPECT_CUDA(cudaErrorNotReady, cudaEventQuery(Ev[2]))
      << "the third event is recorded by the launch, behind the blocker";
  EXPECT_CUDA(cudaSuccess, cudaEventQuery(Ev[1]))
      << "the second event is not recorded at all";
  B.release();
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_CUDA(cudaSuccess, cudaEventQuery(Ev[2])) << "recorded";
  EXPECT_TRUE(allEqual(Dev, 7)) << "the fill ran";

  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(EWait)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(Waiting)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  for (cudaEvent_t Event : Ev)
    EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Event)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(Graph, DebugDotPrintWritesADotFile) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaGraph_t G = nullptr;
  cudaGraphNode_t Fill = nullptr, Add = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0)) << "a graph";
  ASSERT_CUDA(cudaSuccess, addFill(&Fill, G, {}, Dev, 1)) << "a node";
  ASSERT_CUDA(cudaSuccess, addAddOne(&Add, G, {Fill}, Dev)) << "and another";
  char Path[] = "/tmp/cucpu-graph-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0) << "a temporary file";
  close(Fd);
  EXPECT_CUDA(cudaSuccess,
              cudaGraphDebugDotPrint(G, Path, cudaGraphDebugDotFlagsVerbose))
      << "write the graph";
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(0u, Text.find("digraph")) << "a DOT graph: " << Text;
  EXPECT_NE(std::string::npos, Text.find("->")) << "with its edge: " << Text;
  std::remove(Path);
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(StreamCapture, CapturesLaunchesCopiesAndHostFunctions) {
  int *Dev = nullptr, *In = nullptr, *Out = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&In, N * sizeof(int))) << "host";
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Out, N * sizeof(int))) << "host";
  for (int I = 0; I < N; ++I)
    In[I] = I, Out[I] = -1;
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusActive;
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusNone, Status) << "not capturing yet";

  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "begin";
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusActive, Status) << "capturing";
  unsigned long long Id = 0;
  cudaGraph_t Capturing = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaStreamGetCaptureInfo(S, &Status, &Id, &Capturing,
                                                    nullptr, nullptr, nullptr))
      << "capture info";
  EXPECT_EQ(cudaStreamCaptureStatusActive, Status) << "capturing";
  EXPECT_NE(nullptr, Capturing) << "the graph being built";

  HostSum Sum;
  Sum.Values = Out;
  Sum.Count = N;
  EXPECT_CUDA(cudaSuccess, cudaMemcpyAsync(Dev, In, N * sizeof(int),
                                           cudaMemcpyHostToDevice, S))
      << "captured copy in";
  graphScale<<<Blocks, Threads, 0, S>>>(Dev, 2, N);
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "captured launch";
  EXPECT_CUDA(cudaSuccess, cudaMemcpyAsync(Out, Dev, N * sizeof(int),
                                           cudaMemcpyDeviceToHost, S))
      << "captured copy out";
  EXPECT_CUDA(cudaSuccess, cudaLaunchHostFunc(S, graphSumValues, &Sum))
      << "captured host function";
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S, &G)) << "end";
  ASSERT_NE(nullptr, G) << "the captured graph";
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusNone, Status) << "capture ended";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "nothing pending";
  EXPECT_EQ(-1, Out[1]) << "captured work does not run";
  EXPECT_EQ(0, Sum.Calls) << "nor do captured host functions";

  EXPECT_EQ((std::vector<cudaGraphNodeType>{
                cudaGraphNodeTypeKernel, cudaGraphNodeTypeMemcpy,
                cudaGraphNodeTypeMemcpy, cudaGraphNodeTypeHost}),
            typesOf(G))
      << "one node per captured call";
  EXPECT_EQ(1u, rootsOf(G).size()) << "a chain from the first copy";
  EXPECT_EQ(3u, edgesOf(G).size()) << "in stream order";
  for (cudaGraphNode_t Node : nodesOf(G)) {
    cudaGraphNodeType T = cudaGraphNodeTypeCount;
    cudaGraphNodeGetType(Node, &T);
    if (T != cudaGraphNodeTypeKernel)
      continue;
    cudaKernelNodeParams K = {};
    EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeGetParams(Node, &K))
        << "the captured launch";
    EXPECT_EQ((void *)graphScale, K.func) << "names the kernel's host stub";
    EXPECT_EQ(unsigned(Blocks), K.gridDim.x) << "its grid";
  }

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "launch";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_EQ(2, Out[1]) << "copied in, doubled, copied out";
  EXPECT_EQ(2 * (N - 1), Out[N - 1]) << "every element";
  EXPECT_EQ(1, Sum.Calls) << "the host function ran once";
  EXPECT_EQ(static_cast<long long>(N) * (N - 1), Sum.Sum)
      << "after the copy out";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(In)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Out)) << "cleanup";
}

TEST_F(StreamCapture, CapturedGraphLaunchedOneHundredTimes) {
  int *Counter = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Counter, sizeof(int))) << "counter";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  ASSERT_CUDA(cudaSuccess, cudaMemsetAsync(Counter, 0, sizeof(int), S))
      << "zero, before the capture";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "begin";
  graphIncrement<<<1, 1, 0, S>>>(Counter);
  graphIncrement<<<1, 1, 0, S>>>(Counter);
  graphIncrement<<<1, 1, 0, S>>>(Counter);
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S, &G)) << "end";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  for (int I = 0; I < 100; ++I)
    ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S)) << "launch " << I;
  int Got = 0;
  ASSERT_CUDA(cudaSuccess, cudaMemcpyAsync(&Got, Counter, sizeof(int),
                                           cudaMemcpyDeviceToHost, S))
      << "read, in stream order";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "wait";
  EXPECT_EQ(300, Got) << "100 launches of three increments, none lost";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Counter)) << "cleanup";
}

TEST_F(StreamCapture, CrossStreamForkAndJoinWithEvents) {
  int *X = nullptr, *Y = nullptr, *Z = nullptr, *Out = nullptr;
  for (int **P : {&X, &Y, &Z, &Out})
    ASSERT_CUDA(cudaSuccess, cudaMalloc(P, N * sizeof(int))) << "device";
  cudaStream_t S1 = nullptr, S2 = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S1, cudaStreamNonBlocking))
      << "the origin stream";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S2, cudaStreamNonBlocking))
      << "another";
  cudaEvent_t Fork = nullptr, Join = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaEventCreateWithFlags(&Fork, cudaEventDisableTiming))
      << "an event";
  ASSERT_CUDA(cudaSuccess,
              cudaEventCreateWithFlags(&Join, cudaEventDisableTiming))
      << "an event";

  // The guide's example (3.2.5.6.3.1): A; fork; B on S1 and C on S2; join; D.
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S1, cudaStreamCaptureModeGlobal))
      << "begin on the origin stream";
  graphFill<<<Blocks, Threads, 0, S1>>>(X, 7, N);
  ASSERT_CUDA(cudaSuccess, cudaEventRecord(Fork, S1)) << "a captured event";
  ASSERT_CUDA(cudaSuccess, cudaStreamWaitEvent(S2, Fork, 0))
      << "S2 joins the capture";
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S2, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusActive, Status)
      << "waiting on a captured event puts S2 in capture mode";
  unsigned long long Id1 = 0, Id2 = 0;
  cudaGraph_t G1 = nullptr, G2 = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaStreamGetCaptureInfo(S1, &Status, &Id1, &G1,
                                                    nullptr, nullptr, nullptr))
      << "S1's capture";
  EXPECT_CUDA(cudaSuccess, cudaStreamGetCaptureInfo(S2, &Status, &Id2, &G2,
                                                    nullptr, nullptr, nullptr))
      << "S2's capture";
  // Observed on an H200 (CUDA 13.0, driver 580): both streams report one
  // capture sequence id.
  EXPECT_EQ(Id1, Id2) << "one capture sequence";
  EXPECT_EQ(G1, G2) << "both streams capture into the same graph";
  graphAxpb<<<Blocks, Threads, 0, S1>>>(X, Y, 2, 0, N);
  graphAxpb<<<Blocks, Threads, 0, S2>>>(X, Z, 1, 10, N);
  ASSERT_CUDA(cudaSuccess, cudaEventRecord(Join, S2)) << "S2's last work";
  ASSERT_CUDA(cudaSuccess, cudaStreamWaitEvent(S1, Join, 0))
      << "join S2 back to the origin";
  graphSum<<<Blocks, Threads, 0, S1>>>(Y, Z, Out, N);
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S1, &G))
      << "end in the origin stream";
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S2, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusNone, Status)
      << "every stream of the capture leaves capture mode";

  // The guide's Figure 12: a diamond of four kernels.
  EXPECT_EQ(std::vector<cudaGraphNodeType>(4, cudaGraphNodeTypeKernel),
            typesOf(G))
      << "four kernel nodes; the events became edges";
  EXPECT_EQ(1u, rootsOf(G).size()) << "A";
  EXPECT_EQ(4u, edgesOf(G).size()) << "A->B, A->C, B->D, C->D";
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0)) << "instantiate";
  ASSERT_CUDA(cudaSuccess, cudaGraphLaunch(E, S2)) << "launch, on any stream";
  ASSERT_CUDA(cudaSuccess, cudaStreamSynchronize(S2)) << "wait";
  EXPECT_TRUE(allEqual(Out, 2 * 7 + (7 + 10))) << "D = B + C";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  for (cudaEvent_t Ev : {Fork, Join})
    EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Ev)) << "cleanup";
  for (cudaStream_t S : {S1, S2})
    EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  for (int *P : {X, Y, Z, Out})
    EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(StreamCapture, UnjoinedForkFailsTheCapture) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaStream_t S1 = nullptr, S2 = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S1, cudaStreamNonBlocking))
      << "the origin stream";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S2, cudaStreamNonBlocking))
      << "another";
  cudaEvent_t Fork = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaEventCreateWithFlags(&Fork, cudaEventDisableTiming))
      << "an event";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S1, cudaStreamCaptureModeGlobal))
      << "begin";
  graphFill<<<Blocks, Threads, 0, S1>>>(Dev, 1, N);
  ASSERT_CUDA(cudaSuccess, cudaEventRecord(Fork, S1)) << "fork";
  ASSERT_CUDA(cudaSuccess, cudaStreamWaitEvent(S2, Fork, 0)) << "S2 joins";
  graphAddOne<<<Blocks, Threads, 0, S2>>>(Dev, N);
  cudaGraph_t G = nullptr;
  // "Failure to rejoin to the origin stream will result in failure of the
  // overall capture operation" (3.2.5.6.3.1).
  EXPECT_CUDA(cudaErrorStreamCaptureUnjoined, cudaStreamEndCapture(S1, &G))
      << "S2 was never joined back";
  EXPECT_EQ(nullptr, G) << "no graph";
  (void)cudaGetLastError();
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusActive;
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S2, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusNone, Status)
      << "S2 left capture mode with the origin";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S2)) << "S2 is usable";
  EXPECT_CUDA(cudaSuccess, cudaEventDestroy(Fork)) << "cleanup";
  for (cudaStream_t S : {S1, S2})
    EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(StreamCapture, SynchronizingACapturingStreamInvalidatesTheCapture) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int))) << "device";
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "begin";
  graphFill<<<Blocks, Threads, 0, S>>>(Dev, 1, N);
  // "It is invalid to synchronize or query the execution status of a
  // stream which is being captured" (3.2.5.6.3.2).
  EXPECT_CUDA(cudaErrorStreamCaptureUnsupported, cudaStreamSynchronize(S))
      << "captured work is not scheduled: there is nothing to wait for";
  (void)cudaGetLastError();
  cudaStreamCaptureStatus Status = cudaStreamCaptureStatusNone;
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusInvalidated, Status)
      << "3.2.5.6.3.3: the invalid operation invalidated the capture";
  cudaGraph_t G = nullptr;
  EXPECT_CUDA(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(S, &G))
      << "ending an invalidated capture fails";
  EXPECT_EQ(nullptr, G) << "\"an error value and a NULL graph\"";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaStreamIsCapturing(S, &Status)) << "query";
  EXPECT_EQ(cudaStreamCaptureStatusNone, Status) << "out of capture mode";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S)) << "usable again";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "cleanup";
}

TEST_F(StreamCapture, CaptureStateErrors) {
  // "Stream capture can be used on any CUDA stream except cudaStreamLegacy"
  // (3.2.5.6.3).
  EXPECT_CUDA(cudaErrorStreamCaptureUnsupported,
              cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal))
      << "the legacy default stream cannot be captured";
  (void)cudaGetLastError();
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  cudaGraph_t G = nullptr;
  // Observed on an H200 (CUDA 13.0, driver 580): ending a capture that never
  // began, or beginning one twice, is cudaErrorIllegalState.
  EXPECT_CUDA(cudaErrorIllegalState, cudaStreamEndCapture(S, &G))
      << "S is not capturing";
  (void)cudaGetLastError();
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "begin";
  EXPECT_CUDA(cudaErrorIllegalState,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "S is capturing already";
  (void)cudaGetLastError();
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S, &G))
      << "the first capture is intact";
  ASSERT_NE(nullptr, G) << "an empty graph";
  EXPECT_EQ(0u, nodesOf(G).size()) << "nothing was captured";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(StreamCapture, UnsafeCallsFailInGlobalModeOnly) {
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking))
      << "a stream";
  void *P = nullptr;
  // Observed on an H200 (CUDA 13.0, driver 580): cudaMalloc is a
  // "potentially unsafe API call", refused with
  // cudaErrorStreamCaptureUnsupported, and the refusal invalidates the
  // capture.
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal))
      << "begin, global mode";
  EXPECT_CUDA(cudaErrorStreamCaptureUnsupported, cudaMalloc(&P, 256))
      << "a thread capturing in global mode may not allocate";
  (void)cudaGetLastError();
  cudaGraph_t G = nullptr;
  EXPECT_CUDA(cudaErrorStreamCaptureInvalidated, cudaStreamEndCapture(S, &G))
      << "the unsafe call invalidated the capture";
  (void)cudaGetLastError();

  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeRelaxed))
      << "begin, relaxed mode";
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 256))
      << "relaxed mode allows potentially unsafe calls";
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S, &G)) << "end";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G)) << "cleanup";
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S)) << "cleanup";
}

TEST_F(StreamCapture, ThreadExchangeCaptureModeSwaps) {
  cudaStreamCaptureMode Mode = cudaStreamCaptureModeRelaxed;
  ASSERT_CUDA(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&Mode))
      << "exchange";
  EXPECT_EQ(cudaStreamCaptureModeGlobal, Mode) << "a thread starts in global";
  Mode = cudaStreamCaptureModeThreadLocal;
  ASSERT_CUDA(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&Mode))
      << "exchange";
  EXPECT_EQ(cudaStreamCaptureModeRelaxed, Mode) << "the mode set before";
  Mode = cudaStreamCaptureModeGlobal;
  ASSERT_CUDA(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&Mode))
      << "back to global";
  EXPECT_EQ(cudaStreamCaptureModeThreadLocal, Mode) << "the mode set before";
  // No case passes a null mode: NVIDIA's runtime dereferences it (a
  // segmentation fault on an H200, CUDA 13.0); cucpu's answers
  // cudaErrorInvalidValue.
}

TEST_F(Graph, KernelNodeAttributesReadBackWhatWasSet) {
  int *Dev = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int)));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  int Factor = 3, Count = N;
  void *Args[] = {&Dev, &Factor, &Count};
  cudaKernelNodeParams K = kernelParams((const void *)graphScale, Args);
  cudaGraphNode_t A = nullptr, B = nullptr, Set = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&A, G, nullptr, 0, &K));
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&B, G, &A, 1, &K));
  cudaKernelNodeAttrValue V{};
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeGetAttribute(
                               A, cudaKernelNodeAttributePriority, &V));
  EXPECT_EQ(0, V.priority) << "the default priority";
  V = {};
  V.priority = -1;
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeSetAttribute(
                               A, cudaKernelNodeAttributePriority, &V));
  V = {};
  V.cooperative = 1;
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeSetAttribute(
                               A, cudaLaunchAttributeCooperative, &V));
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeCopyAttributes(B, A));
  V = {};
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeGetAttribute(
                               B, cudaKernelNodeAttributePriority, &V));
  EXPECT_EQ(-1, V.priority) << "copied";
  V = {};
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeGetAttribute(
                               B, cudaLaunchAttributeCooperative, &V));
  EXPECT_EQ(1, V.cooperative) << "copied";

  cudaKernelNodeParams K2 = K;
  Factor = 5;
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeSetParams(A, &K2));
  V = {};
  EXPECT_CUDA(cudaSuccess, cudaGraphKernelNodeGetAttribute(
                               A, cudaKernelNodeAttributePriority, &V));
  EXPECT_EQ(-1, V.priority) << "setting the parameters keeps the attributes";

  cudaMemsetParams M = {};
  M.dst = Dev;
  M.value = 1;
  M.elementSize = sizeof(int);
  M.width = N;
  M.height = 1;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemsetNode(&Set, G, nullptr, 0, &M));
  EXPECT_CUDA(
      cudaErrorInvalidValue,
      cudaGraphKernelNodeGetAttribute(Set, cudaKernelNodeAttributePriority, &V))
      << "a memset node has no kernel attributes";
  (void)cudaGetLastError();

  std::vector<int> Host(N, 0);
  EXPECT_CUDA(cudaSuccess, cudaMemset(Dev, 0, N * sizeof(int)));
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
}

TEST_F(Graph, DisabledNodesDoNothing) {
  int *Dev = nullptr, Host[N];
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int)));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  // memset (Dev = 1) -> Dev *= 3 -> Dev *= 5
  cudaMemsetParams M = {};
  M.dst = Dev;
  M.value = 1;
  M.elementSize = sizeof(int);
  M.width = N;
  M.height = 1;
  cudaGraphNode_t Set = nullptr, Three = nullptr, Five = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemsetNode(&Set, G, nullptr, 0, &M));
  int F3 = 3, F5 = 5, Count = N;
  void *Args3[] = {&Dev, &F3, &Count}, *Args5[] = {&Dev, &F5, &Count};
  cudaKernelNodeParams K3 = kernelParams((const void *)graphScale, Args3);
  cudaKernelNodeParams K5 = kernelParams((const void *)graphScale, Args5);
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Three, G, &Set, 1, &K3));
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Five, G, &Three, 1, &K5));
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  unsigned Enabled = 7;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetEnabled(E, Three, &Enabled));
  EXPECT_EQ(1u, Enabled) << "nodes start enabled";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Three, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetEnabled(E, Three, &Enabled));
  EXPECT_EQ(0u, Enabled);
  auto Run = [&] {
    EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
    EXPECT_CUDA(cudaSuccess,
                cudaMemcpy(Host, Dev, sizeof(Host), cudaMemcpyDeviceToHost));
    return Host[N - 1];
  };
  EXPECT_EQ(5, Run()) << "1 * 5: the disabled node did nothing";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Set, 0));
  EXPECT_CUDA(cudaSuccess, cudaMemset(Dev, 0, N * sizeof(int)));
  int Two = 2;
  for (int I = 0; I < N; ++I)
    EXPECT_CUDA(cudaSuccess,
                cudaMemcpy(Dev + I, &Two, sizeof(int), cudaMemcpyHostToDevice));
  EXPECT_EQ(10, Run()) << "2 * 5: the memset node is disabled too";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Set, 1));
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Three, 1));
  EXPECT_EQ(15, Run()) << "1 * 3 * 5 with both enabled again";
  F5 = 7;
  cudaKernelNodeParams K7 = kernelParams((const void *)graphScale, Args5);
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Five, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecKernelNodeSetParams(E, Five, &K7));
  EXPECT_EQ(3, Run()) << "new parameters leave the node disabled";
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetEnabled(E, Five, 1));
  EXPECT_EQ(21, Run()) << "and it runs them once enabled";

  cudaGraphNode_t EmptyNode = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddEmptyNode(&EmptyNode, G, nullptr, 0));
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphNodeSetEnabled(E, EmptyNode, 0))
      << "an empty node is not in the executable graph, nor switchable";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
}

TEST_F(Graph, GenericNodeParameters) {
  int *Dev = nullptr, *Host = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&Dev, N * sizeof(int)));
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Host, N * sizeof(int)));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  // memset (Dev = 4) -> Dev *= 3 -> Host = Dev, each made by cudaGraphAddNode.
  cudaGraphNodeParams P = {};
  P.type = cudaGraphNodeTypeMemset;
  P.memset.dst = Dev;
  P.memset.value = 4;
  P.memset.elementSize = sizeof(int);
  P.memset.width = N;
  P.memset.height = 1;
  cudaGraphNode_t Set = nullptr, Scale = nullptr, Copy = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddNode(&Set, G, nullptr, nullptr, 0, &P));
  int Factor = 3, Count = N;
  void *Args[] = {&Dev, &Factor, &Count};
  P = {};
  P.type = cudaGraphNodeTypeKernel;
  P.kernel.func = (void *)graphScale;
  P.kernel.gridDim = dim3((N + 127) / 128);
  P.kernel.blockDim = dim3(128);
  P.kernel.kernelParams = Args;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddNode(&Scale, G, &Set, nullptr, 1, &P));
  P = {};
  P.type = cudaGraphNodeTypeMemcpy;
  P.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(Dev, N * sizeof(int), N, 1);
  P.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(Host, N * sizeof(int), N, 1);
  P.memcpy.copyParams.extent = make_cudaExtent(N * sizeof(int), 1, 1);
  P.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddNode(&Copy, G, &Scale, nullptr, 1, &P));
  cudaGraphNodeType Type;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Scale, &Type));
  EXPECT_EQ(cudaGraphNodeTypeKernel, Type);

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_EQ(12, Host[N - 1]) << "4 * 3";

  // The executable graph's memset takes 5; the graph's kernel takes 7,
  // which only a new instantiation sees.
  P = {};
  P.type = cudaGraphNodeTypeMemset;
  P.memset.dst = Dev;
  P.memset.value = 5;
  P.memset.elementSize = sizeof(int);
  P.memset.width = N;
  P.memset.height = 1;
  EXPECT_CUDA(cudaSuccess, cudaGraphExecNodeSetParams(E, Set, &P));
  int Seven = 7;
  void *Args7[] = {&Dev, &Seven, &Count};
  P = {};
  P.type = cudaGraphNodeTypeKernel;
  P.kernel.func = (void *)graphScale;
  P.kernel.gridDim = dim3((N + 127) / 128);
  P.kernel.blockDim = dim3(128);
  P.kernel.kernelParams = Args7;
  EXPECT_CUDA(cudaSuccess, cudaGraphNodeSetParams(Scale, &P));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_EQ(15, Host[N - 1]) << "5 * 3: the executable graph's own copy";
  cudaGraphExec_t E2 = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E2, G, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E2, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_EQ(28, Host[N - 1]) << "4 * 7 in a new instantiation";

  P.type = cudaGraphNodeTypeHost;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphNodeSetParams(Scale, &P))
      << "a kernel node cannot become a host node";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E2));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Host));
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
}

/// Allocation node parameters for \p Bytes on device 0.
static cudaMemAllocNodeParams allocParams(size_t Bytes) {
  cudaMemAllocNodeParams P = {};
  P.poolProps.allocType = cudaMemAllocationTypePinned;
  P.poolProps.location.type = cudaMemLocationTypeDevice;
  P.poolProps.location.id = 0;
  P.bytesize = Bytes;
  return P;
}

TEST_F(Graph, MemoryNodesAllocateAndFree) {
  int *Host = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Host, N * sizeof(int)));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  // alloc -> fill with 7 -> copy to Host -> free
  cudaMemAllocNodeParams A = allocParams(N * sizeof(int));
  cudaGraphNode_t Alloc = nullptr, Fill = nullptr, Copy = nullptr,
                  Free = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemAllocNode(&Alloc, G, nullptr, 0, &A));
  ASSERT_NE(nullptr, A.dptr) << "the node reports its address at once";
  int *Dev = static_cast<int *>(A.dptr);
  int Value = 7, Count = N;
  void *Args[] = {&Dev, &Value, &Count};
  cudaKernelNodeParams K = kernelParams((const void *)graphFill, Args);
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Fill, G, &Alloc, 1, &K));
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemcpyNode1D(&Copy, G, &Fill, 1, Host,
                                                    Dev, N * sizeof(int),
                                                    cudaMemcpyDeviceToHost));
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemFreeNode(&Free, G, &Copy, 1, Dev));

  cudaMemAllocNodeParams Back = {};
  EXPECT_CUDA(cudaSuccess, cudaGraphMemAllocNodeGetParams(Alloc, &Back));
  EXPECT_EQ(A.dptr, Back.dptr);
  EXPECT_EQ(N * sizeof(int), Back.bytesize);
  EXPECT_EQ(cudaMemLocationTypeDevice, Back.poolProps.location.type);
  void *Freed = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaGraphMemFreeNodeGetParams(Free, &Freed));
  EXPECT_EQ(A.dptr, Freed);

  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  for (int Launch = 0; Launch < 3; ++Launch) {
    std::fill(Host, Host + N, -1);
    EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr))
        << "launch " << Launch << ": the graph frees what it allocates";
    EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
    EXPECT_EQ(7, Host[0]);
    EXPECT_EQ(7, Host[N - 1]);
  }
  unsigned long long High = 0;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetGraphMemAttribute(
                               0, cudaGraphMemAttrReservedMemHigh, &High));
  EXPECT_GE(High, N * sizeof(int)) << "the graph's memory was reserved";
  unsigned long long Zero = 0, One = 1;
  EXPECT_CUDA(cudaSuccess, cudaDeviceSetGraphMemAttribute(
                               0, cudaGraphMemAttrUsedMemHigh, &Zero))
      << "a high-water mark is reset with 0";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaDeviceSetGraphMemAttribute(
                                         0, cudaGraphMemAttrUsedMemHigh, &One))
      << "and only with 0";
  EXPECT_CUDA(
      cudaErrorInvalidValue,
      cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &Zero))
      << "the current use cannot be set";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaDeviceGraphMemTrim(0));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Host));
}

TEST_F(Graph, UnfreedAllocationMustBeFreedBeforeTheNextLaunch) {
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  cudaMemAllocNodeParams A = allocParams(N * sizeof(int));
  cudaGraphNode_t Alloc = nullptr, Fill = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddMemAllocNode(&Alloc, G, nullptr, 0, &A));
  int *Dev = static_cast<int *>(A.dptr);
  int Value = 3, Count = N;
  void *Args[] = {&Dev, &Value, &Count};
  cudaKernelNodeParams K = kernelParams((const void *)graphFill, Args);
  ASSERT_CUDA(cudaSuccess, cudaGraphAddKernelNode(&Fill, G, &Alloc, 1, &K));
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  int Back = 0;
  EXPECT_CUDA(cudaSuccess, cudaMemcpy(&Back, Dev + N - 1, sizeof(int),
                                      cudaMemcpyDeviceToHost))
      << "the memory outlives the launch";
  EXPECT_EQ(3, Back);
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGraphLaunch(E, nullptr))
      << "the allocation of the first launch was not freed";
  (void)cudaGetLastError();
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev)) << "freed outside the graph";
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr)) << "so it runs again";
  EXPECT_CUDA(cudaSuccess, cudaFreeAsync(Dev, nullptr))
      << "and stream-ordered frees work too";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));

  cudaGraphExec_t Auto = nullptr;
  ASSERT_CUDA(
      cudaSuccess,
      cudaGraphInstantiate(&Auto, G, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(Auto, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(Auto, nullptr))
      << "this instantiation frees the last launch's allocation itself";
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  EXPECT_CUDA(cudaSuccess, cudaFree(Dev));
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(Auto));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
}

TEST_F(StreamCapture, MallocAsyncAndFreeAsyncBecomeMemoryNodes) {
  int *Host = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMallocHost(&Host, N * sizeof(int)));
  cudaStream_t S = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  ASSERT_CUDA(cudaSuccess,
              cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal));
  int *Dev = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMallocAsync(&Dev, N * sizeof(int), S))
      << "captured, the allocation becomes a node";
  EXPECT_NE(nullptr, Dev) << "whose address the program gets now";
  graphFill<<<Blocks, Threads, 0, S>>>(Dev, 5, N);
  graphAddOne<<<Blocks, Threads, 0, S>>>(Dev, N);
  EXPECT_CUDA(cudaSuccess, cudaMemcpyAsync(Host, Dev, N * sizeof(int),
                                           cudaMemcpyDeviceToHost, S));
  EXPECT_CUDA(cudaSuccess, cudaFreeAsync(Dev, S));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaStreamEndCapture(S, &G));
  size_t Count = 0;
  EXPECT_CUDA(cudaSuccess, cudaGraphGetNodes(G, nullptr, &Count));
  std::vector<cudaGraphNode_t> Nodes(Count);
  EXPECT_CUDA(cudaSuccess, cudaGraphGetNodes(G, Nodes.data(), &Count));
  int Allocs = 0, Frees = 0;
  for (cudaGraphNode_t Node : Nodes) {
    cudaGraphNodeType Type;
    EXPECT_CUDA(cudaSuccess, cudaGraphNodeGetType(Node, &Type));
    Allocs += Type == cudaGraphNodeTypeMemAlloc;
    Frees += Type == cudaGraphNodeTypeMemFree;
  }
  EXPECT_EQ(1, Allocs);
  EXPECT_EQ(1, Frees);
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  for (int Launch = 0; Launch < 2; ++Launch) {
    std::fill(Host, Host + N, 0);
    EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, S));
    EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(S));
    EXPECT_EQ(6, Host[N / 2]) << "launch " << Launch;
  }
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaStreamDestroy(S));
  EXPECT_CUDA(cudaSuccess, cudaFreeHost(Host));
}

namespace {
/// Counts destructor calls of user objects.
std::atomic<int> UserObjectsDestroyed{0};
void CUDART_CB destroyUserObject(void *Resource) {
  delete static_cast<int *>(Resource);
  UserObjectsDestroyed.fetch_add(1);
}
/// Waits up to a few seconds for \p N destructor calls in all.
bool destroyedBy(int N) {
  for (int I = 0; I < 500 && UserObjectsDestroyed.load() < N; ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return UserObjectsDestroyed.load() >= N;
}
} // namespace

TEST_F(Graph, UserObjectsLiveAsLongAsTheirReferences) {
  int Before = UserObjectsDestroyed.load();
  cudaUserObject_t Object = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaUserObjectCreate(&Object, new int(5), destroyUserObject, 1,
                                   cudaUserObjectNoDestructorSync));
  cudaGraph_t G = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphCreate(&G, 0));
  cudaGraphNode_t Empty = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphAddEmptyNode(&Empty, G, nullptr, 0));
  // The program's reference moves to the graph; an executable graph
  // instantiated from it holds its own.
  ASSERT_CUDA(cudaSuccess,
              cudaGraphRetainUserObject(G, Object, 1, cudaGraphUserObjectMove));
  cudaGraphExec_t E = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaGraphInstantiate(&E, G, 0));
  EXPECT_CUDA(cudaSuccess, cudaGraphDestroy(G));
  EXPECT_CUDA(cudaSuccess, cudaGraphLaunch(E, nullptr));
  EXPECT_CUDA(cudaSuccess, cudaStreamSynchronize(nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(Before, UserObjectsDestroyed.load())
      << "the executable graph still holds the object";
  EXPECT_CUDA(cudaSuccess, cudaGraphExecDestroy(E));
  EXPECT_TRUE(destroyedBy(Before + 1))
      << "the last reference gone, the destructor ran";

  cudaUserObject_t Second = nullptr;
  ASSERT_CUDA(cudaSuccess,
              cudaUserObjectCreate(&Second, new int(6), destroyUserObject, 2,
                                   cudaUserObjectNoDestructorSync));
  EXPECT_CUDA(cudaSuccess, cudaUserObjectRetain(Second, 3));
  EXPECT_CUDA(cudaSuccess, cudaUserObjectRelease(Second, 4));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(Before + 1, UserObjectsDestroyed.load()) << "one reference left";
  EXPECT_CUDA(cudaSuccess, cudaUserObjectRelease(Second, 1));
  EXPECT_TRUE(destroyedBy(Before + 2));

  cudaUserObject_t Third = nullptr;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaUserObjectCreate(&Third, nullptr, destroyUserObject, 1, 0))
      << "the no-destructor-sync flag is required";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaUserObjectCreate(&Third, nullptr, destroyUserObject, 0,
                                   cudaUserObjectNoDestructorSync))
      << "at least one reference";
  (void)cudaGetLastError();
}

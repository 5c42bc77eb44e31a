//===- GraphNodeTest.cpp - cuGraph*: building and querying graphs ---------===//
//
// Node kinds and their parameters, dependencies, edges, clones and child
// graphs as the driver reports them, and the input it refuses when a graph is
// built. Running graphs is in GraphTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "GraphFixture.h"

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

using namespace cuapi;

namespace {

using Graph = GraphFixture;

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

TEST_F(Graph, NodeTypesAreReported) {
  CUdeviceptr D = buffer();
  int *Host = pinned();
  ASSERT_NE(nullptr, Host) << "setup: page-locked memory";
  CUevent Ev = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&Ev, CU_EVENT_DISABLE_TIMING));
  std::atomic<int> Calls{0};
  CUgraph G = nullptr, Child = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Child, 0));
  CUgraphNode K, Mc, Ms, H, C, Em, W, R;
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Mc, G, {}, deviceToHost(Host, D)));
  ASSERT_CU(CUDA_SUCCESS, addMemset(&Ms, G, {}, D, 0));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H, G, {}, countCall, &Calls));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddChildGraphNode(&C, G, nullptr, 0, Child));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Em, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventWaitNode(&W, G, nullptr, 0, Ev));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventRecordNode(&R, G, nullptr, 0, Ev));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_KERNEL, typeOf(K));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMCPY, typeOf(Mc));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMSET, typeOf(Ms));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_HOST, typeOf(H));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_GRAPH, typeOf(C));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_EMPTY, typeOf(Em));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_WAIT_EVENT, typeOf(W));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_EVENT_RECORD, typeOf(R));
  CUevent Got = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(W, &Got));
  EXPECT_EQ(Ev, Got) << "the wait node's event";
  Got = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(R, &Got));
  EXPECT_EQ(Ev, Got) << "the record node's event";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphEventRecordNodeGetEvent(W, &Got))
      << "observed on NVIDIA: a wait node is not a record node";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphEventWaitNodeGetEvent(K, &Got))
      << "observed on NVIDIA: a kernel node has no event";
  EXPECT_EQ(8u, nodesOf(G).size()) << "eight nodes, no edges";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Child));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(Ev));
}

TEST_F(Graph, NodeParamsReadBackAsSet) {
  CUdeviceptr D = buffer(), D2 = buffer();
  std::atomic<int> Calls{0};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode K, Ms, H, Mc;
  {
    KernelArgs Args;
    CUDA_KERNEL_NODE_PARAMS P = addValueParams(Args, D, 7);
    ASSERT_CU(CUDA_SUCCESS, addKernel(&K, G, {}, P));
    Args.Value = 99; // "The kernelParams ... are copied during this call."
  }
  ASSERT_CU(CUDA_SUCCESS, addMemset(&Ms, G, {}, D, 0x1234));
  ASSERT_CU(CUDA_SUCCESS, addHost(&H, G, {}, countCall, &Calls));
  ASSERT_CU(CUDA_SUCCESS, addMemcpy(&Mc, G, {}, deviceToDevice(D2, D)));

  CUDA_KERNEL_NODE_PARAMS KP = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeGetParams(K, &KP));
  EXPECT_EQ(AddValue, KP.func);
  EXPECT_EQ(Grid, KP.gridDimX);
  EXPECT_EQ(1u, KP.gridDimY);
  EXPECT_EQ(1u, KP.gridDimZ);
  EXPECT_EQ(Block, KP.blockDimX);
  EXPECT_EQ(1u, KP.blockDimY);
  EXPECT_EQ(1u, KP.blockDimZ);
  EXPECT_EQ(0u, KP.sharedMemBytes);
  EXPECT_EQ(nullptr, KP.extra) << "the node was given kernelParams";
  ASSERT_NE(nullptr, KP.kernelParams);
  EXPECT_EQ(D, *static_cast<CUdeviceptr *>(KP.kernelParams[0]));
  EXPECT_EQ(N, *static_cast<int *>(KP.kernelParams[1]));
  EXPECT_EQ(7, *static_cast<int *>(KP.kernelParams[2]))
      << "the node holds its own copy of the argument values";

  CUDA_MEMSET_NODE_PARAMS MP = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(Ms, &MP));
  EXPECT_EQ(D, MP.dst);
  EXPECT_EQ(0x1234u, MP.value);
  EXPECT_EQ(4u, MP.elementSize);
  EXPECT_EQ(size_t(N), MP.width);
  EXPECT_EQ(1u, MP.height);

  CUDA_HOST_NODE_PARAMS HP = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphHostNodeGetParams(H, &HP));
  EXPECT_EQ(&countCall, HP.fn);
  EXPECT_EQ(static_cast<void *>(&Calls), HP.userData);

  CUDA_MEMCPY3D CP = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(Mc, &CP));
  EXPECT_EQ(CU_MEMORYTYPE_DEVICE, CP.srcMemoryType);
  EXPECT_EQ(CU_MEMORYTYPE_DEVICE, CP.dstMemoryType);
  EXPECT_EQ(D, CP.srcDevice);
  EXPECT_EQ(D2, CP.dstDevice);
  EXPECT_EQ(N * sizeof(int), CP.WidthInBytes);
  EXPECT_EQ(1u, CP.Height);
  EXPECT_EQ(1u, CP.Depth);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, DependenciesAndDependentsAreReported) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  // R -> {A, B} -> C.
  CUgraphNode R, A, B, C;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&R, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&A, G, &R, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&B, G, &R, 1));
  CUgraphNode AB[] = {A, B};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&C, G, AB, 2));

  size_t Count = 99;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphNodeGetDependencies(C, nullptr, nullptr, &Count))
      << "a NULL array asks for the count";
  EXPECT_EQ(2u, Count);
  EXPECT_EQ(sorted({A, B}), dependenciesOf(C));
  EXPECT_TRUE(dependenciesOf(R).empty()) << "a root has no dependencies";
  Count = 99;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphNodeGetDependentNodes(R, nullptr, nullptr, &Count));
  EXPECT_EQ(2u, Count) << "A and B depend on R";
  Count = 99;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphNodeGetDependentNodes(C, nullptr, nullptr, &Count));
  EXPECT_EQ(0u, Count) << "nothing depends on C";

  // A larger array: the rest is set to NULL and the count says how many.
  CUgraphNode Out[4] = {R, R, R, R};
  Count = 4;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphNodeGetDependentNodes(R, Out, nullptr, &Count));
  EXPECT_EQ(2u, Count) << "the number actually obtained";
  EXPECT_EQ(sorted({A, B}), sorted({Out[0], Out[1]}));
  EXPECT_EQ(nullptr, Out[2]) << "the remaining entries are set to NULL";
  EXPECT_EQ(nullptr, Out[3]);
  Count = 3;
  CUgraphNode Deps[3] = {R, R, R};
  EXPECT_CU(CUDA_SUCCESS, cuGraphNodeGetDependencies(A, Deps, nullptr, &Count));
  EXPECT_EQ(1u, Count);
  EXPECT_EQ(R, Deps[0]);
  EXPECT_EQ(nullptr, Deps[1]);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, RootNodesAndEdgesAreReported) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  // R -> {A, B} -> C, and I alone.
  CUgraphNode R, A, B, C, I;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&R, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&A, G, &R, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&B, G, &R, 1));
  CUgraphNode AB[] = {A, B};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&C, G, AB, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&I, G, nullptr, 0));

  EXPECT_EQ(sorted({R, A, B, C, I}), nodesOf(G));
  size_t Count = 99;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(G, nullptr, &Count))
      << "a NULL array asks for the count";
  EXPECT_EQ(2u, Count);
  CUgraphNode Roots[3] = {A, A, A};
  Count = 3;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(G, Roots, &Count));
  EXPECT_EQ(2u, Count);
  EXPECT_EQ(sorted({R, I}), sorted({Roots[0], Roots[1]}));
  EXPECT_EQ(nullptr, Roots[2]) << "the remaining entry is set to NULL";

  Count = 99;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetEdges(G, nullptr, nullptr, nullptr, &Count))
      << "NULL from and to ask for the count";
  EXPECT_EQ(4u, Count);
  std::vector<std::pair<CUgraphNode, CUgraphNode>> Expected = {
      {R, A}, {R, B}, {A, C}, {B, C}};
  std::sort(Expected.begin(), Expected.end());
  EXPECT_EQ(Expected, edgesOf(G)) << "to[i] depends on from[i]";
  CUgraphNode From[5], To[5];
  std::fill(From, From + 5, I);
  std::fill(To, To + 5, I);
  Count = 5;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetEdges(G, From, To, nullptr, &Count));
  EXPECT_EQ(4u, Count);
  EXPECT_EQ(nullptr, From[4]) << "the remaining entries are set to NULL";
  EXPECT_EQ(nullptr, To[4]);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, AddAndRemoveDependencies) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode A, B;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&A, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&B, G, nullptr, 0));
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphAddDependencies(G, nullptr, nullptr, nullptr, 0))
      << "\"If numDependencies is 0, elements in from and to will be "
         "ignored\"";
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies(G, &A, &B, nullptr, 1));
  EXPECT_EQ(Deps{A}, dependenciesOf(B)) << "B now depends on A";
  size_t Roots = 0;
  EXPECT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(G, nullptr, &Roots));
  EXPECT_EQ(1u, Roots) << "B is no longer a root";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddDependencies(G, &A, &B, nullptr, 1))
      << "\"Specifying an existing dependency will return an error\"";
  EXPECT_EQ(1u, edgesOf(G).size()) << "and the edge is not doubled";
  ASSERT_CU(CUDA_SUCCESS, cuGraphRemoveDependencies(G, &A, &B, nullptr, 1));
  EXPECT_TRUE(edgesOf(G).empty()) << "the edge is gone";
  EXPECT_TRUE(dependenciesOf(B).empty());
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphRemoveDependencies(G, &A, &B, nullptr, 1))
      << "\"Specifying an edge that does not exist in the graph ... results "
         "in an error\"";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, DestroyNodeRemovesItsEdges) {
  std::atomic<int> CallsA{0}, CallsB{0}, CallsC{0};
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode A, B, C;
  ASSERT_CU(CUDA_SUCCESS, addHost(&A, G, {}, countCall, &CallsA));
  ASSERT_CU(CUDA_SUCCESS, addHost(&B, G, {A}, countCall, &CallsB));
  ASSERT_CU(CUDA_SUCCESS, addHost(&C, G, {B}, countCall, &CallsC));
  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroyNode(B));
  EXPECT_EQ(sorted({A, C}), nodesOf(G)) << "B is gone";
  EXPECT_TRUE(edgesOf(G).empty()) << "with both of its edges";
  EXPECT_TRUE(dependenciesOf(C).empty()) << "C is now a root";
  size_t Count = 99;
  EXPECT_CU(CUDA_SUCCESS,
            cuGraphNodeGetDependentNodes(A, nullptr, nullptr, &Count));
  EXPECT_EQ(0u, Count) << "nothing depends on A any more";
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  EXPECT_EQ(1, CallsA.load()) << "A ran";
  EXPECT_EQ(0, CallsB.load()) << "B is not in the graph any more";
  EXPECT_EQ(1, CallsC.load()) << "C ran";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, CloneCopiesNodesAndEdges) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr, Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K1, K2;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 4));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K1, G, {M}, D, 1));
  ASSERT_CU(CUDA_SUCCESS, addScaleBy(&K2, G, {K1}, D, 3));
  CUgraph Clone = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphClone(&Clone, G));
  ASSERT_NE(nullptr, Clone);
  EXPECT_NE(G, Clone) << "a new graph";
  EXPECT_EQ(3u, nodesOf(Clone).size());
  EXPECT_EQ(2u, edgesOf(Clone).size());

  CUgraphNode CM = nullptr, CK1 = nullptr, CK2 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeFindInClone(&CM, M, Clone));
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeFindInClone(&CK1, K1, Clone));
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeFindInClone(&CK2, K2, Clone));
  EXPECT_EQ(sorted({CM, CK1, CK2}), nodesOf(Clone))
      << "each original node has its own copy in the clone";
  EXPECT_NE(M, CM) << "the copies are new nodes";
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMSET, typeOf(CM));
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_KERNEL, typeOf(CK1));
  EXPECT_EQ(Deps{CM}, dependenciesOf(CK1)) << "the edges join the copies";
  EXPECT_EQ(Deps{CK1}, dependenciesOf(CK2));

  // The original changes; the clone does not.
  KernelArgs Args;
  CUDA_KERNEL_NODE_PARAMS P = addValueParams(Args, D, 100);
  ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeSetParams(K1, &P));
  CUgraphNode Late;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Late, G, &K2, 1));
  EXPECT_EQ(3u, nodesOf(Clone).size()) << "the clone has no new node";
  ASSERT_CU(CUDA_SUCCESS, runOnce(Clone, stream()));
  EXPECT_TRUE(holds(D, 15)) << "(4 + 1) * 3: the clone kept the old values";

  CUgraphNode Found = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphNodeFindInClone(&Found, Late, Clone))
      << "observed on NVIDIA: Late was not in the original when it was "
         "cloned";
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Other, 0));
  CUgraphNode Foreign;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Foreign, Other, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphNodeFindInClone(&Found, Foreign, Clone))
      << "Foreign is not a node of the clone's original";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeFindInClone(nullptr, M, Clone))
      << "observed on NVIDIA: the output pointer is required";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Clone));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Other));
}

TEST_F(Graph, ChildGraphNodeHoldsACopyOfTheGraph) {
  CUdeviceptr D = buffer();
  CUgraph Child = nullptr, Parent = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Child, 0));
  CUgraphNode CK;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&CK, Child, {}, D, 5));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Parent, 0));
  CUgraphNode C;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphAddChildGraphNode(&C, Parent, nullptr, 0, Child));
  CUgraph Embedded = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphChildGraphNodeGetGraph(C, &Embedded));
  ASSERT_NE(nullptr, Embedded);
  EXPECT_NE(Child, Embedded) << "\"The child graph is cloned in this call\"";
  std::vector<CUgraphNode> Inside = nodesOf(Embedded);
  ASSERT_EQ(1u, Inside.size()) << "the copy has the child's one node";
  EXPECT_EQ(CU_GRAPH_NODE_TYPE_MEMSET, typeOf(Inside[0]));

  CUgraphNode Late;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Late, Child, &CK, 1));
  EXPECT_EQ(1u, nodesOf(Embedded).size())
      << "a change to the original child does not reach the node";

  // "Changes to the graph will be reflected in the node".
  CUDA_MEMSET_NODE_PARAMS P = memsetParams(D, 9);
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeSetParams(Inside[0], &P));
  ASSERT_CU(CUDA_SUCCESS, runOnce(Parent, stream()));
  EXPECT_TRUE(holds(D, 9)) << "the parent ran the embedded graph as changed";

  CUgraph NotAChild = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphChildGraphNodeGetGraph(Late, &NotAChild))
      << "observed on NVIDIA: an empty node has no graph";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Parent));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Child));
}

//===----------------------------------------------------------------------===//
// Bad input
//===----------------------------------------------------------------------===//

TEST_F(Graph, CreateRejectsNullOutputAndFlags) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(nullptr, 0))
      << "the output pointer is required";
  CUgraph G = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(&G, 1))
      << "\"Graph creation flags, must be 0\"";
}

TEST_F(Graph, NullPointersRejected) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode Node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Node, G, nullptr, 0));
  CUgraphNode Out = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddEmptyNode(nullptr, G, nullptr, 0))
      << "the output node pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddKernelNode(&Out, G, nullptr, 0, nullptr))
      << "a kernel node needs its parameters";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemsetNode(&Out, G, nullptr, 0, nullptr, Ctx))
      << "a memset node needs its parameters";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemcpyNode(&Out, G, nullptr, 0, nullptr, Ctx))
      << "a memcpy node needs its parameters";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddHostNode(&Out, G, nullptr, 0, nullptr))
      << "a host node needs its parameters";
  CUDA_HOST_NODE_PARAMS NoFunction = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddHostNode(&Out, G, nullptr, 0, &NoFunction))
      << "observed on NVIDIA: a host node needs a function";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&Out, G, nullptr, 1))
      << "observed on NVIDIA: one dependency, but no array";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(G, nullptr, nullptr))
      << "the count pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphGetRootNodes(G, nullptr, nullptr))
      << "the count pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphGetEdges(G, nullptr, nullptr, nullptr, nullptr))
      << "the count pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(Node, nullptr))
      << "the type pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphNodeGetDependencies(Node, nullptr, nullptr, nullptr))
      << "the count pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(nullptr, G, 0))
      << "the output exec pointer is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphClone(nullptr, G))
      << "the output graph pointer is required";
  EXPECT_EQ(1u, nodesOf(G).size()) << "no failed call added a node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, NullHandlesRejected) {
  // Observed on NVIDIA's driver: every code in this case.
  CUgraphNode Out = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddEmptyNode(&Out, nullptr, nullptr, 0))
      << "a node needs a graph";
  CUgraphExec E = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&E, nullptr, 0))
      << "there is no graph to instantiate";
  CUgraphNodeType T;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(nullptr, &T))
      << "there is no node to query";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDestroyNode(nullptr))
      << "there is no node to destroy";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(nullptr))
      << "there is no graph to destroy";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(nullptr))
      << "there is no exec to destroy";
}

TEST_F(Graph, LaunchNullExecRejected) {
  CUstream S = stream();
  // Observed on NVIDIA's driver.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(nullptr, S))
      << "there is no executable graph to launch";
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(S))
      << "nothing was enqueued and the stream is fine";
}

TEST_F(Graph, DependencyOnAnotherGraphsNodeRejected) {
  CUgraph G = nullptr, Other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&Other, 0));
  CUgraphNode Mine, Foreign, Out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Mine, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Foreign, Other, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&Out, G, &Foreign, 1))
      << "a dependency must be a node of the same graph";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddDependencies(G, &Foreign, &Mine, nullptr, 1))
      << "\"Each node in from and to must belong to hGraph\"";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddDependencies(G, &Mine, &Foreign, nullptr, 1))
      << "to must belong to hGraph too";
  EXPECT_EQ(1u, nodesOf(G).size()) << "no node was added to G";
  EXPECT_TRUE(edgesOf(G).empty()) << "and no edge";
  EXPECT_TRUE(edgesOf(Other).empty());
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(Other));
}

TEST_F(Graph, DuplicateDependenciesRejected) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode A, Out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&A, G, nullptr, 0));
  CUgraphNode Twice[] = {A, A};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&Out, G, Twice, 2))
      << "\"dependencies may not have any duplicate entries\"";
  std::atomic<int> Calls{0};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            addHost(&Out, G, {A, A}, countCall, &Calls))
      << "the same rule for every kind of node";
  EXPECT_EQ(1u, nodesOf(G).size()) << "no node was added";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, DependencyOnADestroyedNodeRejected) {
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode A, Gone, Out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&A, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&Gone, G, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroyNode(Gone));
  // Observed on NVIDIA's driver: a destroyed node's handle is refused, not
  // a crash.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&Out, G, &Gone, 1))
      << "the node is no longer in the graph";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddDependencies(G, &A, &Gone, nullptr, 1))
      << "nor can an edge lead to it";
  EXPECT_EQ(Deps{A}, nodesOf(G)) << "only A is left";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, KernelNodeRejectsBothKernelParamsAndExtra) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  KernelArgs Args;
  CUDA_KERNEL_NODE_PARAMS P = addValueParams(Args, D, 1);
  struct {
    CUdeviceptr Data;
    int Count, Value;
  } Packed = {D, N, 1};
  size_t Size = sizeof(Packed);
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &Packed,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &Size, CU_LAUNCH_PARAM_END};
  P.extra = Extra;
  CUgraphNode K = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, addKernel(&K, G, {}, P))
      << "\"CUDA_ERROR_INVALID_VALUE will be returned if kernel parameters "
         "are specified with both kernelParams and extra\"";
  P.kernelParams = nullptr;
  EXPECT_CU(CUDA_SUCCESS, addKernel(&K, G, {}, P)) << "extra alone is fine";
  ASSERT_CU(CUDA_SUCCESS, runOnce(G, stream()));
  EXPECT_TRUE(holds(D, 0)) << "-1 + 1: the packed arguments were used";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, MemsetNodeRejectsBadElementSize) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M = nullptr;
  CUDA_MEMSET_NODE_PARAMS P = memsetParams(D, 0);
  P.elementSize = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemsetNode(&M, G, nullptr, 0, &P, Ctx))
      << "\"The element size must be 1, 2, or 4 bytes\"";
  for (unsigned Size : {1u, 2u, 4u}) {
    P.elementSize = Size;
    P.width = N * sizeof(int) / Size;
    EXPECT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&M, G, nullptr, 0, &P, Ctx))
        << "element size " << Size;
  }
  EXPECT_EQ(3u, nodesOf(G).size()) << "only the valid sizes added a node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

TEST_F(Graph, SetParamsOfAnotherNodeTypeRejected) {
  CUdeviceptr D = buffer();
  CUgraph G = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&G, 0));
  CUgraphNode M, K;
  ASSERT_CU(CUDA_SUCCESS, addMemset(&M, G, {}, D, 0));
  ASSERT_CU(CUDA_SUCCESS, addAddValue(&K, G, {M}, D, 1));
  // Observed on NVIDIA's driver: every code in this case.
  KernelArgs Args;
  CUDA_KERNEL_NODE_PARAMS KP = addValueParams(Args, D, 2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeSetParams(M, &KP))
      << "a memset node takes no kernel parameters";
  CUDA_MEMSET_NODE_PARAMS MP = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphMemsetNodeGetParams(K, &MP))
      << "a kernel node has no memset parameters";
  CUgraphExec E = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&E, G, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecKernelNodeSetParams(E, M, &KP))
      << "nor does the exec's copy of it";
  CUDA_HOST_NODE_PARAMS HP = {};
  HP.fn = countCall;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecHostNodeSetParams(E, K, &HP))
      << "a kernel node is not a host node";
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(E));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(G));
}

} // namespace

//===- Graph.cpp - Graph building and query entry points ------------------===//
//
// cuGraphCreate, the cuGraphAdd*Node family, node parameters, dependencies,
// queries, cloning and destruction (CUDA 11 guide §3.2.5.6). Parameters are
// checked when a node is added or set, with the checks a launch, copy or
// memset of the same parameters makes.
//
//===----------------------------------------------------------------------===//
#include "api/GraphNodes.h"
#include "api/Handles.h"
#include "api/Kernels.h"
#include "core/EntryPoint.h"
#include "core/GraphAllocation.h"
#include "core/MemoryPool.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// The nodes \p List names, all live nodes of \p G, without repeats.
llvm::Expected<std::vector<GraphNode *>>
nodesOf(const Graph &G, const CUgraphNode *List, size_t Count) {
  CU_INVALID_IF(Count && !List, CUDA_ERROR_INVALID_VALUE,
                "{0} dependencies were announced but the array is NULL.",
                Count);
  std::vector<GraphNode *> Nodes;
  for (size_t I = 0; I < Count; ++I) {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(List[I]));
    CU_INVALID_IF(!G.holds(*N), CUDA_ERROR_INVALID_VALUE,
                  "Node {0} (index {1}) belongs to another graph.",
                  static_cast<const void *>(List[I]), I);
    CU_INVALID_IF(std::find(Nodes.begin(), Nodes.end(), N.get()) != Nodes.end(),
                  CUDA_ERROR_INVALID_VALUE,
                  "Node {0} is listed twice among the dependencies.",
                  static_cast<const void *>(List[I]));
    Nodes.push_back(N.get());
  }
  return Nodes;
}

/// Checks that the \p Count edges' data (if any) are the default: cucpu's
/// graphs have plain dependencies.
llvm::Error checkDefaultEdges(const CUgraphEdgeData *EdgeData, size_t Count) {
  if (EdgeData)
    for (size_t I = 0; I < Count; ++I)
      CU_INVALID_IF(EdgeData[I].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT ||
                        EdgeData[I].from_port || EdgeData[I].to_port,
                    CUDA_ERROR_INVALID_VALUE,
                    "Edge {0} has data other than the default; cucpu's "
                    "graphs have plain dependencies.",
                    I);
  return llvm::Error::success();
}

/// Adds a node doing \p Make's parameters to graph \p H, after \p Count
/// dependencies \p Deps with edge data \p EdgeData (NULL: the default).
template <typename MakeFn>
llvm::Error addNode(CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps,
                    size_t Count, MakeFn Make,
                    const CUgraphEdgeData *EdgeData = nullptr) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The node pointer is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
  CU_TRY(checkDefaultEdges(EdgeData, Count));
  CU_TRY_ASSIGN(NodeParams P, Make());
  std::lock_guard<std::mutex> Lock(G->Mutex);
  CU_TRY_ASSIGN(std::vector<GraphNode *> Dependencies,
                nodesOf(*G, Deps, Count));
  *Out = toHandle(G->add(std::move(P), Dependencies));
  return llvm::Error::success();
}

/// A node of type \p Type, for a Get/Set of that type's parameters.
llvm::Expected<std::shared_ptr<GraphNode>> typedNode(CUgraphNode H,
                                                     CUgraphNodeType Type) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
  CU_INVALID_IF(N->Params.Type != Type, CUDA_ERROR_INVALID_VALUE,
                "The node is of type {0}, not {1}.",
                static_cast<int>(N->Params.Type), static_cast<int>(Type));
  return N;
}

/// Changes node \p N's parameters under its graph's lock.
template <typename Fn> llvm::Error changeNode(GraphNode &N, Fn Change) {
  std::shared_ptr<Graph> G = N.graph();
  CU_INVALID_IF(!G, CUDA_ERROR_INVALID_VALUE, "The node's graph is destroyed.");
  std::lock_guard<std::mutex> Lock(G->Mutex);
  Change();
  return llvm::Error::success();
}

/// Writes up to *Count of \p Nodes to \p Out (NULL: only the count), the
/// rest NULL, and how many were written to *Count, as NVIDIA does.
llvm::Error listNodes(const std::vector<GraphNode *> &Nodes, CUgraphNode *Out,
                      CUgraphEdgeData *EdgeData, size_t *Count) {
  CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE, "The count pointer is NULL.");
  if (!Out) {
    *Count = Nodes.size();
    return llvm::Error::success();
  }
  size_t N = std::min(*Count, Nodes.size());
  for (size_t I = 0; I < *Count; ++I) {
    Out[I] = I < N ? toHandle(*Nodes[I]) : nullptr;
    if (EdgeData)
      EdgeData[I] = CUgraphEdgeData{};
  }
  *Count = N;
  return llvm::Error::success();
}

llvm::Error nodeDependencies(CUgraphNode H, CUgraphNode *Out,
                             CUgraphEdgeData *EdgeData, size_t *Count,
                             bool Dependents) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
  std::shared_ptr<Graph> G = N->graph();
  CU_INVALID_IF(!G, CUDA_ERROR_INVALID_VALUE, "The node's graph is destroyed.");
  std::lock_guard<std::mutex> Lock(G->Mutex);
  return listNodes(Dependents ? N->Dependents : N->Dependencies, Out, EdgeData,
                   Count);
}

llvm::Error graphEdges(CUgraph H, CUgraphNode *From, CUgraphNode *To,
                       CUgraphEdgeData *EdgeData, size_t *Count) {
  CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE, "The count pointer is NULL.");
  CU_INVALID_IF(!From != !To, CUDA_ERROR_INVALID_VALUE,
                "from and to must both be NULL (for the count) or both given.");
  CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
  std::lock_guard<std::mutex> Lock(G->Mutex);
  std::vector<std::pair<GraphNode *, GraphNode *>> Edges;
  for (const auto &N : G->nodes())
    for (GraphNode *D : N->Dependencies)
      Edges.emplace_back(D, N.get());
  if (!From) {
    *Count = Edges.size();
    return llvm::Error::success();
  }
  size_t N = std::min(*Count, Edges.size());
  for (size_t I = 0; I < *Count; ++I) {
    From[I] = I < N ? toHandle(*Edges[I].first) : nullptr;
    To[I] = I < N ? toHandle(*Edges[I].second) : nullptr;
    if (EdgeData)
      EdgeData[I] = CUgraphEdgeData{};
  }
  *Count = N;
  return llvm::Error::success();
}

llvm::Error changeDependencies(CUgraph H, const CUgraphNode *From,
                               const CUgraphNode *To,
                               const CUgraphEdgeData *EdgeData, size_t Count,
                               bool Add) {
  CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
  CU_INVALID_IF(Count && (!From || !To), CUDA_ERROR_INVALID_VALUE,
                "{0} dependencies were announced but from or to is NULL.",
                Count);
  CU_TRY(checkDefaultEdges(EdgeData, Count));
  std::lock_guard<std::mutex> Lock(G->Mutex);
  for (size_t I = 0; I < Count; ++I) {
    CU_TRY_ASSIGN(std::vector<GraphNode *> Ends, nodesOf(*G, &From[I], 1));
    CU_TRY_ASSIGN(std::vector<GraphNode *> Target, nodesOf(*G, &To[I], 1));
    CU_INVALID_IF(Ends[0] == Target[0], CUDA_ERROR_INVALID_VALUE,
                  "Edge {0} goes from a node to itself.", I);
    bool Changed = Add ? G->addEdge(*Ends[0], *Target[0])
                       : G->removeEdge(*Ends[0], *Target[0]);
    CU_INVALID_IF(!Changed, CUDA_ERROR_INVALID_VALUE,
                  Add ? "Edge {0} exists already." : "Edge {0} does not exist.",
                  I);
  }
  return llvm::Error::success();
}

llvm::Expected<NodeParams> kernelNode(const CUDA_KERNEL_NODE_PARAMS *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                "The kernel node parameters are NULL.");
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_KERNEL;
  CU_TRY_ASSIGN(N.Kernel, kernelNodeParams(*P));
  return N;
}

/// The v2 form of v1 kernel node parameters.
CUDA_KERNEL_NODE_PARAMS fromV1(const CUDA_KERNEL_NODE_PARAMS_v1 &P) {
  CUDA_KERNEL_NODE_PARAMS V{};
  std::memcpy(&V, &P, sizeof(P));
  return V;
}

/// The kernel parameter pointers into node \p N's buffer.
void **paramPointers(GraphNode &N) {
  const KernelNodeParams &K = N.Params.Kernel;
  N.ParamPointers.clear();
  if (const loader::KernelInfo *Info = K.F->kernel().Info)
    for (const loader::KernelParam &P : Info->Params)
      N.ParamPointers.push_back(const_cast<char *>(K.Buffer.data()) + P.Offset);
  return N.ParamPointers.empty() ? nullptr : N.ParamPointers.data();
}

llvm::Error getKernelParams(CUgraphNode H, CUDA_KERNEL_NODE_PARAMS *Out) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                "The parameter pointer is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                typedNode(H, CU_GRAPH_NODE_TYPE_KERNEL));
  return changeNode(*N, [&] {
    const KernelNodeParams &K = N->Params.Kernel;
    *Out = CUDA_KERNEL_NODE_PARAMS{};
    Out->func = toHandle(*K.F);
    Out->gridDimX = K.Grid[0];
    Out->gridDimY = K.Grid[1];
    Out->gridDimZ = K.Grid[2];
    Out->blockDimX = K.Block[0];
    Out->blockDimY = K.Block[1];
    Out->blockDimZ = K.Block[2];
    Out->sharedMemBytes = K.SharedBytes;
    Out->kernelParams = paramPointers(*N);
    if (std::shared_ptr<Context> C = K.F->context())
      Out->ctx = toHandle(*C);
  });
}

llvm::Error setKernelParams(CUgraphNode H, const CUDA_KERNEL_NODE_PARAMS *P) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                typedNode(H, CU_GRAPH_NODE_TYPE_KERNEL));
  CU_TRY_ASSIGN(NodeParams New, kernelNode(P));
  return changeNode(*N, [&] { N->Params.Kernel = std::move(New.Kernel); });
}

llvm::Expected<NodeParams> copyNode(const CUDA_MEMCPY3D *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                "The memcpy node parameters are NULL.");
  CU_TRY(recordCopy(*P).takeError());
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_MEMCPY;
  N.Copy = *P;
  return N;
}

llvm::Expected<NodeParams> memsetNodeParams(const CUDA_MEMSET_NODE_PARAMS *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                "The memset node parameters are NULL.");
  CU_TRY(recordMemset(*P).takeError());
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_MEMSET;
  N.Memset = *P;
  return N;
}

llvm::Expected<NodeParams> hostNode(const CUDA_HOST_NODE_PARAMS *P) {
  CU_INVALID_IF(!P || !P->fn, CUDA_ERROR_INVALID_VALUE,
                "The host node needs a function.");
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_HOST;
  N.Host = *P;
  return N;
}

/// An allocation node's parameters, its memory allocated now in the current
/// context; \p P->dptr receives the address.
llvm::Expected<NodeParams> allocNode(CUDA_MEM_ALLOC_NODE_PARAMS *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                "The allocation node parameters are NULL.");
  const CUmemPoolProps &Props = P->poolProps;
  CU_INVALID_IF(Props.allocType != CU_MEM_ALLOCATION_TYPE_PINNED,
                CUDA_ERROR_INVALID_VALUE,
                "Graph allocations are CU_MEM_ALLOCATION_TYPE_PINNED (got "
                "type {0}).",
                static_cast<int>(Props.allocType));
  CU_INVALID_IF(Props.location.type != CU_MEM_LOCATION_TYPE_DEVICE,
                CUDA_ERROR_INVALID_VALUE,
                "Graph allocations are located on a device (got location "
                "type {0}).",
                static_cast<int>(Props.location.type));
  CU_INVALID_IF(Props.handleTypes != CU_MEM_HANDLE_TYPE_NONE,
                CUDA_ERROR_INVALID_VALUE,
                "Graph allocations cannot be exported (handle types {0:x}).",
                static_cast<unsigned>(Props.handleTypes));
  CU_INVALID_IF(P->bytesize == 0, CUDA_ERROR_INVALID_VALUE,
                "A graph allocation needs a size.");
  CU_INVALID_IF(P->accessDescCount && !P->accessDescs, CUDA_ERROR_INVALID_VALUE,
                "{0} access descriptors were announced but the array is NULL.",
                P->accessDescCount);
  CU_TRY(lookupDevice(Props.location.id).takeError());
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_INVALID_IF(Ctx->device().ordinal() != Props.location.id,
                CUDA_ERROR_NOT_SUPPORTED,
                "Graph allocations on device {0} from a context of device {1} "
                "are not supported.",
                Props.location.id, Ctx->device().ordinal());
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
  N.AllocProps = Props;
  N.AllocAccess.assign(P->accessDescs, P->accessDescs + P->accessDescCount);
  CU_TRY_ASSIGN(N.Allocation,
                GraphAllocation::create(
                    Ctx, *MemoryPool::defaultOf(Ctx->device()), P->bytesize));
  P->dptr = N.Allocation->address();
  return N;
}

/// A free node's parameters: the graph allocation at \p Address.
llvm::Expected<NodeParams> freeNode(CUdeviceptr Address) {
  NodeParams N;
  N.Type = CU_GRAPH_NODE_TYPE_MEM_FREE;
  N.Allocation = GraphAllocation::find(Address);
  CU_INVALID_IF(!N.Allocation, CUDA_ERROR_INVALID_VALUE,
                "{0:x} is not the address of a graph allocation (a memory "
                "allocation node's).",
                Address);
  return N;
}

llvm::Expected<NodeParams> eventNode(CUgraphNodeType Type, CUevent E) {
  CU_INVALID_IF(!E, CUDA_ERROR_INVALID_VALUE, "The event is NULL.");
  NodeParams N;
  N.Type = Type;
  CU_TRY_ASSIGN(N.Ev, lookupEvent(E));
  return N;
}

/// A node's parameters that captured work has no record of.
llvm::Error checkNotRecorded(const GraphNode &N) {
  CU_INVALID_IF(N.Params.Recorded, CUDA_ERROR_NOT_SUPPORTED,
                "The node was made by stream capture; cucpu keeps the work "
                "of captured copies and memsets, not their parameters.");
  return llvm::Error::success();
}
} // namespace

llvm::Expected<NodeParams> api::nodeParamsFrom(const CUgraphNodeParams *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE, "The node parameters are NULL.");
  switch (P->type) {
  case CU_GRAPH_NODE_TYPE_KERNEL: {
    // CUDA_KERNEL_NODE_PARAMS_v3 has the v2 layout.
    CUDA_KERNEL_NODE_PARAMS K;
    static_assert(sizeof(K) == sizeof(P->kernel));
    std::memcpy(&K, &P->kernel, sizeof(K));
    return kernelNode(&K);
  }
  case CU_GRAPH_NODE_TYPE_MEMCPY:
    return copyNode(&P->memcpy.copyParams);
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    const CUDA_MEMSET_NODE_PARAMS_v2 &M = P->memset;
    CUDA_MEMSET_NODE_PARAMS V{M.dst,         M.pitch, M.value,
                              M.elementSize, M.width, M.height};
    return memsetNodeParams(&V);
  }
  case CU_GRAPH_NODE_TYPE_HOST: {
    CUDA_HOST_NODE_PARAMS H{P->host.fn, P->host.userData};
    return hostNode(&H);
  }
  case CU_GRAPH_NODE_TYPE_GRAPH: {
    const CUDA_CHILD_GRAPH_NODE_PARAMS &C = P->graph;
    CU_INVALID_IF(C.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE,
                  CUDA_ERROR_NOT_SUPPORTED,
                  "Child graphs are cloned into their node; moving one in "
                  "(ownership {0}) is not supported.",
                  static_cast<int>(C.ownership));
    CU_TRY_ASSIGN(std::shared_ptr<Graph> Child, lookupGraph(C.graph));
    NodeParams N;
    N.Type = CU_GRAPH_NODE_TYPE_GRAPH;
    {
      std::lock_guard<std::mutex> Lock(Child->Mutex);
      N.Child = Child->clone();
    }
    HandleRegistry::get().add(N.Child);
    return N;
  }
  case CU_GRAPH_NODE_TYPE_EMPTY:
    return NodeParams{};
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    return eventNode(CU_GRAPH_NODE_TYPE_EVENT_RECORD, P->eventRecord.event);
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    return eventNode(CU_GRAPH_NODE_TYPE_WAIT_EVENT, P->eventWait.event);
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
    // The generic form writes the address back, as cuGraphAddMemAllocNode.
    CUDA_MEM_ALLOC_NODE_PARAMS A;
    static_assert(sizeof(A) == sizeof(P->alloc));
    std::memcpy(&A, &P->alloc, sizeof(A));
    CU_TRY_ASSIGN(NodeParams N, allocNode(&A));
    const_cast<CUgraphNodeParams *>(P)->alloc.dptr = A.dptr;
    return N;
  }
  case CU_GRAPH_NODE_TYPE_MEM_FREE:
    return freeNode(P->free.dptr);
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
  case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
  case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
  case CU_GRAPH_NODE_TYPE_CONDITIONAL:
    return makeError(CUDA_ERROR_NOT_SUPPORTED,
                     llvm::formatv("Graph nodes of type {0} are not "
                                   "supported yet.",
                                   static_cast<int>(P->type)));
  }
  return makeError(CUDA_ERROR_INVALID_VALUE,
                   llvm::formatv("{0} is not a CUgraphNodeType.",
                                 static_cast<int>(P->type)));
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphCreate(CUgraph *Out, unsigned int Flags) {
  return CU_ENTRY(Out, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The graph pointer is NULL.");
    CU_INVALID_IF(Flags != 0, CUDA_ERROR_INVALID_VALUE,
                  "cuGraphCreate flags must be 0 (got {0}).", Flags);
    auto G = std::make_shared<Graph>();
    HandleRegistry::get().add(G);
    *Out = toHandle(*G);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphDestroy(CUgraph H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
    std::lock_guard<std::mutex> Lock(G->Mutex);
    G->releaseHandles();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphClone(CUgraph *Out, CUgraph H) {
  return CU_ENTRY(Out, H).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The graph pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
    std::shared_ptr<Graph> Copy;
    {
      std::lock_guard<std::mutex> Lock(G->Mutex);
      Copy = G->clone();
    }
    HandleRegistry::get().add(Copy);
    *Out = toHandle(*Copy);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode *Out,
                                                     CUgraphNode Original,
                                                     CUgraph Clone) {
  return CU_ENTRY(Out, Original, Clone).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The node pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(Original));
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(Clone));
    std::lock_guard<std::mutex> Lock(G->Mutex);
    for (const auto &C : G->nodes())
      if (C->Origin == N.get()) {
        *Out = toHandle(*C);
        return llvm::Error::success();
      }
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     "The graph is not a clone holding a copy of the node.");
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphAddKernelNode_v2(CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps,
                        size_t Count, const CUDA_KERNEL_NODE_PARAMS *P) {
  return CU_ENTRY(Out, H, Deps, Count, P).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return kernelNode(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphAddKernelNode(CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps,
                     size_t Count, const CUDA_KERNEL_NODE_PARAMS_v1 *P) {
  return CU_ENTRY(Out, H, Deps, Count, P).run([&] {
    return addNode(Out, H, Deps, Count, [&]() -> llvm::Expected<NodeParams> {
      CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                    "The kernel node parameters are NULL.");
      CUDA_KERNEL_NODE_PARAMS V = fromV1(*P);
      return kernelNode(&V);
    });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphKernelNodeGetParams_v2(CUgraphNode H, CUDA_KERNEL_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&] { return getKernelParams(H, P); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphKernelNodeGetParams(CUgraphNode H, CUDA_KERNEL_NODE_PARAMS_v1 *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The parameter pointer is NULL.");
    CUDA_KERNEL_NODE_PARAMS V;
    CU_TRY(getKernelParams(H, &V));
    std::memcpy(P, &V, sizeof(*P));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphKernelNodeGetAttribute(
    CUgraphNode H, CUkernelNodeAttrID Id, CUkernelNodeAttrValue *Out) {
  return CU_ENTRY(H, Id, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_KERNEL));
    CU_TRY(checkAttributeId(AttributeHolder::KernelNode, Id));
    return changeNode(*N, [&] { *Out = N->Params.Attributes.get(Id); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphKernelNodeSetAttribute(
    CUgraphNode H, CUkernelNodeAttrID Id, const CUkernelNodeAttrValue *Value) {
  return CU_ENTRY(H, Id, Value).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_KERNEL));
    std::shared_ptr<Context> C = N->Params.Kernel.F->context();
    CU_INVALID_IF(!C, CUDA_ERROR_INVALID_CONTEXT,
                  "The kernel's context has been destroyed.");
    CU_TRY(
        checkAttribute(AttributeHolder::KernelNode, Id, *Value, C->device()));
    return changeNode(*N, [&] { N->Params.Attributes.set(Id, *Value); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode Dst,
                                                              CUgraphNode Src) {
  return CU_ENTRY(Dst, Src).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> To,
                  typedNode(Dst, CU_GRAPH_NODE_TYPE_KERNEL));
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> From,
                  typedNode(Src, CU_GRAPH_NODE_TYPE_KERNEL));
    LaunchAttributes Copy;
    CU_TRY(changeNode(*From, [&] { Copy = From->Params.Attributes; }));
    return changeNode(*To, [&] { To->Params.Attributes = std::move(Copy); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphKernelNodeSetParams_v2(CUgraphNode H, const CUDA_KERNEL_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&] { return setKernelParams(H, P); });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphKernelNodeSetParams(CUgraphNode H, const CUDA_KERNEL_NODE_PARAMS_v1 *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The kernel node parameters are NULL.");
    CUDA_KERNEL_NODE_PARAMS V = fromV1(*P);
    return setKernelParams(H, &V);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode *Out, CUgraph H,
                                                   const CUgraphNode *Deps,
                                                   size_t Count,
                                                   const CUDA_MEMCPY3D *P,
                                                   CUcontext Ctx) {
  return CU_ENTRY(Out, H, Deps, Count, P, Ctx).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return copyNode(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode H,
                                                         CUDA_MEMCPY3D *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The parameter pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEMCPY));
    CU_TRY(checkNotRecorded(*N));
    return changeNode(*N, [&] { *P = N->Params.Copy; });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphMemcpyNodeSetParams(CUgraphNode H, const CUDA_MEMCPY3D *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEMCPY));
    CU_TRY_ASSIGN(NodeParams New, copyNode(P));
    return changeNode(*N, [&] { N->Params = std::move(New); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddMemsetNode(
    CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps, size_t Count,
    const CUDA_MEMSET_NODE_PARAMS *P, CUcontext Ctx) {
  return CU_ENTRY(Out, H, Deps, Count, P, Ctx).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return memsetNodeParams(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphMemsetNodeGetParams(CUgraphNode H, CUDA_MEMSET_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The parameter pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEMSET));
    CU_TRY(checkNotRecorded(*N));
    return changeNode(*N, [&] { *P = N->Params.Memset; });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphMemsetNodeSetParams(CUgraphNode H, const CUDA_MEMSET_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEMSET));
    CU_TRY_ASSIGN(NodeParams New, memsetNodeParams(P));
    return changeNode(*N, [&] { N->Params = std::move(New); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphAddHostNode(CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps,
                   size_t Count, const CUDA_HOST_NODE_PARAMS *P) {
  return CU_ENTRY(Out, H, Deps, Count, P).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return hostNode(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphHostNodeGetParams(CUgraphNode H, CUDA_HOST_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The parameter pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_HOST));
    return changeNode(*N, [&] { *P = N->Params.Host; });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphHostNodeSetParams(CUgraphNode H, const CUDA_HOST_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_HOST));
    CU_TRY_ASSIGN(NodeParams New, hostNode(P));
    return changeNode(*N, [&] { N->Params.Host = New.Host; });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode *Out,
                                                       CUgraph H,
                                                       const CUgraphNode *Deps,
                                                       size_t Count,
                                                       CUgraph Child) {
  return CU_ENTRY(Out, H, Deps, Count, Child).run([&] {
    return addNode(Out, H, Deps, Count, [&]() -> llvm::Expected<NodeParams> {
      CU_TRY_ASSIGN(std::shared_ptr<Graph> C, lookupGraph(Child));
      CU_INVALID_IF(C.get() == reinterpret_cast<Graph *>(H),
                    CUDA_ERROR_INVALID_VALUE,
                    "A graph cannot be its own child.");
      NodeParams N;
      N.Type = CU_GRAPH_NODE_TYPE_GRAPH;
      {
        std::lock_guard<std::mutex> Lock(C->Mutex);
        N.Child = C->clone();
      }
      HandleRegistry::get().add(N.Child);
      return N;
    });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode H,
                                                            CUgraph *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The graph pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_GRAPH));
    *Out = toHandle(*N->Params.Child);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode *Out, CUgraph H,
                                                  const CUgraphNode *Deps,
                                                  size_t Count) {
  return CU_ENTRY(Out, H, Deps, Count).run([&] {
    return addNode(Out, H, Deps, Count,
                   []() -> llvm::Expected<NodeParams> { return NodeParams{}; });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode *Out,
                                                        CUgraph H,
                                                        const CUgraphNode *Deps,
                                                        size_t Count,
                                                        CUevent E) {
  return CU_ENTRY(Out, H, Deps, Count, E).run([&] {
    return addNode(Out, H, Deps, Count, [&] {
      return eventNode(CU_GRAPH_NODE_TYPE_EVENT_RECORD, E);
    });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode *Out,
                                                      CUgraph H,
                                                      const CUgraphNode *Deps,
                                                      size_t Count, CUevent E) {
  return CU_ENTRY(Out, H, Deps, Count, E).run([&] {
    return addNode(Out, H, Deps, Count,
                   [&] { return eventNode(CU_GRAPH_NODE_TYPE_WAIT_EVENT, E); });
  });
}

/// cuGraphEvent{Record,Wait}Node{Get,Set}Event.
static llvm::Error nodeEvent(CUgraphNode H, CUgraphNodeType Type, CUevent *Get,
                             CUevent Set) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, typedNode(H, Type));
  if (Get) {
    return changeNode(*N, [&] { *Get = toHandle(*N->Params.Ev); });
  }
  CU_TRY_ASSIGN(NodeParams New, eventNode(Type, Set));
  return changeNode(*N, [&] { N->Params.Ev = New.Ev; });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode H,
                                                             CUevent *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The event pointer is NULL.");
    return nodeEvent(H, CU_GRAPH_NODE_TYPE_EVENT_RECORD, Out, nullptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode H,
                                                             CUevent E) {
  return CU_ENTRY(H, E).run([&] {
    return nodeEvent(H, CU_GRAPH_NODE_TYPE_EVENT_RECORD, nullptr, E);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode H,
                                                           CUevent *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE, "The event pointer is NULL.");
    return nodeEvent(H, CU_GRAPH_NODE_TYPE_WAIT_EVENT, Out, nullptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode H,
                                                           CUevent E) {
  return CU_ENTRY(H, E).run(
      [&] { return nodeEvent(H, CU_GRAPH_NODE_TYPE_WAIT_EVENT, nullptr, E); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode H,
                                                 CUgraphNodeType *Type) {
  return CU_ENTRY(H, Type).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Type, CUDA_ERROR_INVALID_VALUE, "The type pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
    *Type = N->Params.Type;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphGetNodes(CUgraph H, CUgraphNode *Out,
                                              size_t *Count) {
  return CU_ENTRY(H, Out, Count).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
    std::lock_guard<std::mutex> Lock(G->Mutex);
    std::vector<GraphNode *> Nodes;
    for (const auto &N : G->nodes())
      Nodes.push_back(N.get());
    return listNodes(Nodes, Out, nullptr, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphGetRootNodes(CUgraph H, CUgraphNode *Out,
                                                  size_t *Count) {
  return CU_ENTRY(H, Out, Count).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
    std::lock_guard<std::mutex> Lock(G->Mutex);
    std::vector<GraphNode *> Roots;
    for (const auto &N : G->nodes())
      if (N->Dependencies.empty())
        Roots.push_back(N.get());
    return listNodes(Roots, Out, nullptr, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph H, CUgraphNode *From,
                                                 CUgraphNode *To,
                                                 CUgraphEdgeData *EdgeData,
                                                 size_t *Count) {
  return CU_ENTRY(H, From, To, EdgeData, Count).run([&] {
    return graphEdges(H, From, To, EdgeData, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphGetEdges(CUgraph H, CUgraphNode *From,
                                              CUgraphNode *To, size_t *Count) {
  return CU_ENTRY(H, From, To, Count).run([&] {
    return graphEdges(H, From, To, nullptr, Count);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetDependencies_v2(
    CUgraphNode H, CUgraphNode *Out, CUgraphEdgeData *EdgeData, size_t *Count) {
  return CU_ENTRY(H, Out, EdgeData, Count).run([&] {
    return nodeDependencies(H, Out, EdgeData, Count, false);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode H,
                                                         CUgraphNode *Out,
                                                         size_t *Count) {
  return CU_ENTRY(H, Out, Count).run([&] {
    return nodeDependencies(H, Out, nullptr, Count, false);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetDependentNodes_v2(
    CUgraphNode H, CUgraphNode *Out, CUgraphEdgeData *EdgeData, size_t *Count) {
  return CU_ENTRY(H, Out, EdgeData, Count).run([&] {
    return nodeDependencies(H, Out, EdgeData, Count, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode H,
                                                           CUgraphNode *Out,
                                                           size_t *Count) {
  return CU_ENTRY(H, Out, Count).run([&] {
    return nodeDependencies(H, Out, nullptr, Count, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddDependencies_v2(
    CUgraph H, const CUgraphNode *From, const CUgraphNode *To,
    const CUgraphEdgeData *EdgeData, size_t Count) {
  return CU_ENTRY(H, From, To, EdgeData, Count).run([&] {
    return changeDependencies(H, From, To, EdgeData, Count, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddDependencies(CUgraph H,
                                                     const CUgraphNode *From,
                                                     const CUgraphNode *To,
                                                     size_t Count) {
  return CU_ENTRY(H, From, To, Count).run([&] {
    return changeDependencies(H, From, To, nullptr, Count, true);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphRemoveDependencies_v2(
    CUgraph H, const CUgraphNode *From, const CUgraphNode *To,
    const CUgraphEdgeData *EdgeData, size_t Count) {
  return CU_ENTRY(H, From, To, EdgeData, Count).run([&] {
    return changeDependencies(H, From, To, EdgeData, Count, false);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph H,
                                                        const CUgraphNode *From,
                                                        const CUgraphNode *To,
                                                        size_t Count) {
  return CU_ENTRY(H, From, To, Count).run([&] {
    return changeDependencies(H, From, To, nullptr, Count, false);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode H) {
  return CU_ENTRY(H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
    std::shared_ptr<Graph> G = N->graph();
    CU_INVALID_IF(!G, CUDA_ERROR_INVALID_VALUE,
                  "The node's graph is destroyed.");
    std::lock_guard<std::mutex> Lock(G->Mutex);
    G->remove(*N);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph H, const char *Path,
                                                   unsigned int Flags) {
  return CU_ENTRY(H, Path, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Path, CUDA_ERROR_INVALID_VALUE, "The path is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
    std::FILE *File = std::fopen(Path, "w");
    CU_INVALID_IF(!File, CUDA_ERROR_OPERATING_SYSTEM, "Cannot write {0}.",
                  Path);
    std::lock_guard<std::mutex> Lock(G->Mutex);
    std::fprintf(File, "digraph cucpu_graph {\n");
    for (const auto &N : G->nodes())
      std::fprintf(File, "  n%u [label=\"%u: type %d\"];\n", N->Index, N->Index,
                   static_cast<int>(N->Params.Type));
    for (const auto &N : G->nodes())
      for (GraphNode *D : N->Dependencies)
        std::fprintf(File, "  n%u -> n%u;\n", D->Index, N->Index);
    std::fprintf(File, "}\n");
    std::fclose(File);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddNode(CUgraphNode *Out, CUgraph H,
                                             const CUgraphNode *Deps,
                                             size_t Count,
                                             CUgraphNodeParams *P) {
  return CU_ENTRY(Out, H, Deps, Count, P).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return nodeParamsFrom(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode *Out, CUgraph H,
                                                const CUgraphNode *Deps,
                                                const CUgraphEdgeData *Edges,
                                                size_t Count,
                                                CUgraphNodeParams *P) {
  return CU_ENTRY(Out, H, Deps, Edges, Count, P).run([&] {
    return addNode(
        Out, H, Deps, Count, [&] { return nodeParamsFrom(P); }, Edges);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode H,
                                                   CUgraphNodeParams *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The node parameters are NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, typedNode(H, P->type));
    CU_TRY_ASSIGN(NodeParams New, nodeParamsFrom(P));
    return changeNode(*N, [&] {
      // A kernel node keeps its attributes.
      New.Attributes = std::move(N->Params.Attributes);
      N->Params = std::move(New);
    });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphAddMemAllocNode(CUgraphNode *Out, CUgraph H, const CUgraphNode *Deps,
                       size_t Count, CUDA_MEM_ALLOC_NODE_PARAMS *P) {
  return CU_ENTRY(Out, H, Deps, Count, P).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return allocNode(P); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphMemAllocNodeGetParams(CUgraphNode H, CUDA_MEM_ALLOC_NODE_PARAMS *P) {
  return CU_ENTRY(H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The parameter pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEM_ALLOC));
    return changeNode(*N, [&] {
      P->poolProps = N->Params.AllocProps;
      P->accessDescs = N->Params.AllocAccess.data();
      P->accessDescCount = N->Params.AllocAccess.size();
      P->bytesize = N->Params.Allocation->size();
      P->dptr = N->Params.Allocation->address();
    });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode *Out, CUgraph H,
                                                    const CUgraphNode *Deps,
                                                    size_t Count,
                                                    CUdeviceptr Address) {
  return CU_ENTRY(Out, H, Deps, Count, Address).run([&] {
    return addNode(Out, H, Deps, Count, [&] { return freeNode(Address); });
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode H,
                                                          CUdeviceptr *Out) {
  return CU_ENTRY(H, Out).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The address pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N,
                  typedNode(H, CU_GRAPH_NODE_TYPE_MEM_FREE));
    *Out = N->Params.Allocation->address();
    return llvm::Error::success();
  });
}

//===- GraphExec.cpp - Executable graph entry points ----------------------===//
//
// cuGraphInstantiate*, cuGraphLaunch, cuGraphUpload, cuGraphExecDestroy, the
// cuGraphExec*SetParams family and cuGraphExecUpdate. An executable graph is
// bound to the context current when it was instantiated; node handles in
// the calls that change it are those of the graph it was made from.
//
//===----------------------------------------------------------------------===//
#include "api/GraphNodes.h"
#include "api/Handles.h"
#include "api/StreamCapture.h"
#include "api/StreamWork.h"
#include "core/EntryPoint.h"
#include "core/Launcher.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace cucpu;
using namespace cucpu::api;

namespace {
/// Flags cuGraphInstantiateWithFlags knows (CUgraphInstantiate_flags).
constexpr unsigned long long InstantiateFlags =
    CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH |
    CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
    CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH |
    CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;

llvm::Error instantiate(CUgraphExec *Out, CUgraph H, unsigned long long Flags) {
  CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                "The executable graph pointer is NULL.");
  CU_INVALID_IF(Flags & ~InstantiateFlags, CUDA_ERROR_INVALID_VALUE,
                "Instantiation flags {0:x} contain unknown bits.", Flags);
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
  std::shared_ptr<Graph> Snapshot;
  {
    std::lock_guard<std::mutex> Lock(G->Mutex);
    Snapshot = G->clone(/*Register=*/false);
  }
  CU_TRY_ASSIGN(GraphPlan Plan, planFor(*Snapshot));
  auto Exec = std::make_shared<GraphExec>(Ctx, std::move(Snapshot),
                                          std::move(Plan), Flags);
  HandleRegistry::get().add(Exec);
  *Out = toHandle(*Exec);
  return llvm::Error::success();
}

/// Checks what a launch of \p Plan does to graph memory and then does it:
/// an allocation still live from an earlier launch (not freed since) is an
/// error unless \p FreeOnLaunch, and so is a free node that frees memory
/// that is not live. A refused launch changes nothing.
llvm::Error applyMemoryEffects(const GraphPlan &Plan, bool FreeOnLaunch) {
  if (Plan.MemoryEffects.empty())
    return llvm::Error::success();
  static std::mutex Mutex; // Launches of graphs sharing memory, in turn.
  std::lock_guard<std::mutex> Lock(Mutex);
  std::map<GraphAllocation *, bool> Live;
  for (const GraphMemoryEffect &E : Plan.MemoryEffects) {
    GraphAllocation &A = *E.Allocation;
    bool &L = Live.try_emplace(&A, A.live()).first->second;
    if (E.Frees) {
      CU_INVALID_IF(!L, CUDA_ERROR_INVALID_VALUE,
                    "The graph frees the graph allocation at {0:x}, which is "
                    "not allocated then.",
                    A.address());
      L = false;
      continue;
    }
    CU_INVALID_IF(L && !FreeOnLaunch, CUDA_ERROR_INVALID_VALUE,
                  "The graph allocation at {0:x} of an earlier launch has not "
                  "been freed; free it first, or instantiate with "
                  "CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH.",
                  A.address());
    L = true;
  }
  for (auto &[A, L] : Live)
    L ? (void)A->allocate() : (void)A->free();
  return llvm::Error::success();
}

/// The node of \p Exec's graph that \p H names (a node of the graph it was
/// instantiated from), of type \p Type.
llvm::Expected<const GraphNode *> execNode(const GraphExec &Exec, CUgraphNode H,
                                           CUgraphNodeType Type) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
  std::shared_ptr<Graph> Snapshot = Exec.snapshot();
  for (const auto &S : Snapshot->nodes())
    if (S->Origin == N.get()) {
      CU_INVALID_IF(S->Params.Type != Type, CUDA_ERROR_INVALID_VALUE,
                    "The node is of type {0}, not {1}.",
                    static_cast<int>(S->Params.Type), static_cast<int>(Type));
      return N.get();
    }
  return makeError(CUDA_ERROR_INVALID_VALUE,
                   "The node is not part of the graph the executable graph "
                   "was instantiated from.");
}

/// The node of \p Exec's graph that \p H names, for enabling or disabling:
/// a kernel, memcpy or memset node.
llvm::Expected<const GraphNode *> switchableNode(const GraphExec &Exec,
                                                 CUgraphNode H) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphNode> N, lookupNode(H));
  CUgraphNodeType Type = N->Params.Type;
  CU_INVALID_IF(Type != CU_GRAPH_NODE_TYPE_KERNEL &&
                    Type != CU_GRAPH_NODE_TYPE_MEMCPY &&
                    Type != CU_GRAPH_NODE_TYPE_MEMSET,
                CUDA_ERROR_INVALID_VALUE,
                "Only kernel, memcpy and memset nodes can be disabled (the "
                "node is of type {0}).",
                static_cast<int>(Type));
  return execNode(Exec, H, Type);
}

/// Gives node \p H of executable graph \p E the parameters \p P (of node
/// type \p Type), from the next launch on.
llvm::Error setExecNode(CUgraphExec E, CUgraphNode H, CUgraphNodeType Type,
                        NodeParams P) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
  CU_TRY_ASSIGN(const GraphNode *Source, execNode(*Exec, H, Type));
  P.Type = Type;
  CU_TRY_ASSIGN(GraphStep Step, stepFor(P));
  Step.Source = Source;
  Exec->replace(Source, std::move(Step));
  return llvm::Error::success();
}

llvm::Error setExecKernel(CUgraphExec E, CUgraphNode H,
                          const CUDA_KERNEL_NODE_PARAMS *P) {
  CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                "The kernel node parameters are NULL.");
  NodeParams N;
  CU_TRY_ASSIGN(N.Kernel, kernelNodeParams(*P));
  return setExecNode(E, H, CU_GRAPH_NODE_TYPE_KERNEL, std::move(N));
}

/// Whether \p A and \p B have the same nodes, by type and creation order,
/// and the same edges; if not, the result and the node of \p B at fault.
struct UpdateCheck {
  CUgraphExecUpdateResult Result = CU_GRAPH_EXEC_UPDATE_SUCCESS;
  const GraphNode *Culprit = nullptr;
};
UpdateCheck compareTopology(const Graph &A, const Graph &B) {
  const auto &NA = A.nodes(), &NB = B.nodes();
  if (NA.size() != NB.size())
    return {CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr};
  std::unordered_map<const GraphNode *, size_t> PosA, PosB;
  for (size_t I = 0; I < NA.size(); ++I) {
    PosA[NA[I].get()] = I;
    PosB[NB[I].get()] = I;
  }
  for (size_t I = 0; I < NA.size(); ++I) {
    const GraphNode &X = *NA[I], &Y = *NB[I];
    if (X.Params.Type != Y.Params.Type)
      return {CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, &Y};
    // Memory nodes keep their memory: an update cannot change them.
    if ((Y.Params.Type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
         Y.Params.Type == CU_GRAPH_NODE_TYPE_MEM_FREE) &&
        X.Params.Allocation != Y.Params.Allocation)
      return {CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED, &Y};
    if (X.Dependencies.size() != Y.Dependencies.size())
      return {CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, &Y};
    std::vector<size_t> DA, DB;
    for (GraphNode *D : X.Dependencies)
      DA.push_back(PosA[D]);
    for (GraphNode *D : Y.Dependencies)
      DB.push_back(PosB[D]);
    std::sort(DA.begin(), DA.end());
    std::sort(DB.begin(), DB.end());
    if (DA != DB)
      return {CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, &Y};
  }
  return {};
}

llvm::Error updateExec(CUgraphExec E, CUgraph H, UpdateCheck &Check) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
  CU_TRY_ASSIGN(std::shared_ptr<Graph> G, lookupGraph(H));
  std::shared_ptr<Graph> Old = Exec->snapshot();
  std::shared_ptr<Graph> New;
  {
    std::lock_guard<std::mutex> Lock(G->Mutex);
    Check = compareTopology(*Old, *G);
    if (Check.Result == CU_GRAPH_EXEC_UPDATE_SUCCESS)
      New = G->clone(/*Register=*/false);
  }
  if (Check.Result != CU_GRAPH_EXEC_UPDATE_SUCCESS)
    return makeError(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                     "The graph's nodes or edges differ from the executable "
                     "graph's; it cannot be updated from it.");
  // The executable graph's nodes keep answering to the handles of the graph
  // it was instantiated from.
  for (size_t I = 0; I < New->nodes().size(); ++I)
    New->nodes()[I]->Origin = Old->nodes()[I]->Origin;
  CU_TRY_ASSIGN(GraphPlan Plan, planFor(*New));
  Exec->reset(std::move(New), std::move(Plan));
  return llvm::Error::success();
}
} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuGraphInstantiateWithFlags(
    CUgraphExec *Out, CUgraph H, unsigned long long Flags) {
  return CU_ENTRY(Out, H, Flags).run([&] {
    return instantiate(Out, H, Flags);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphInstantiateWithParams(
    CUgraphExec *Out, CUgraph H, CUDA_GRAPH_INSTANTIATE_PARAMS *P) {
  return CU_ENTRY(Out, H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The instantiation parameters are NULL.");
    CU_TRY(checkStream(P->hUploadStream));
    llvm::Error E = instantiate(Out, H, P->flags);
    P->result_out =
        E ? CUDA_GRAPH_INSTANTIATE_ERROR : CUDA_GRAPH_INSTANTIATE_SUCCESS;
    P->hErrNode_out = nullptr;
    return E;
  });
}

/// The pre-12.0 form, with an error node and a log buffer.
static llvm::Error instantiateWithLog(CUgraphExec *Out, CUgraph H,
                                      CUgraphNode *ErrorNode, char *Log,
                                      size_t LogBytes) {
  if (ErrorNode)
    *ErrorNode = nullptr;
  llvm::Error E = instantiate(Out, H, 0);
  if (Log && LogBytes) {
    std::string Text;
    if (E) {
      std::string Message;
      CUresult Code = toResult(std::move(E), Message);
      Text = Message;
      E = makeError(Code, Message);
    }
    // No more than the message: the buffer's claimed size is not trusted.
    size_t Bytes = std::min(Text.size(), LogBytes - 1);
    std::memcpy(Log, Text.data(), Bytes);
    Log[Bytes] = 0;
  }
  return E;
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec *Out, CUgraph H,
                                                    CUgraphNode *ErrorNode,
                                                    char *Log,
                                                    size_t LogBytes) {
  return CU_ENTRY(Out, H, ErrorNode, Log, LogBytes).run([&] {
    return instantiateWithLog(Out, H, ErrorNode, Log, LogBytes);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec E,
                                                  cuuint64_t *Flags) {
  return CU_ENTRY(E, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Flags, CUDA_ERROR_INVALID_VALUE,
                  "The flags pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
    // The upload flag does not change the executable graph: documented as
    // never returned.
    *Flags = Exec->flags() & ~cuuint64_t(CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphLaunch(CUgraphExec E, CUstream H) {
  return CU_ENTRY(E, H).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
    CU_TRY_ASSIGN(std::shared_ptr<Stream> S, lookupStream(H));
    std::shared_ptr<Context> Owner = S ? S->context() : Ctx;
    CU_INVALID_IF(Exec->context() != Owner, CUDA_ERROR_INVALID_VALUE,
                  "The graph was instantiated in another context than the "
                  "stream's.");
    if (capturing(S.get())) {
      // A launch into a capture becomes a child graph node.
      NodeParams P;
      P.Type = CU_GRAPH_NODE_TYPE_GRAPH;
      P.Child = Exec->snapshot()->clone();
      HandleRegistry::get().add(P.Child);
      return captureNode(*S, std::move(P));
    }
    CU_TRY_ASSIGN(WorkQueue & Q, queueFor(S.get(), *Ctx));
    CU_TRY(applyMemoryEffects(
        *Exec->plan(),
        Exec->flags() & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
    Exec->launch(Q);
    if (launchBlocking())
      CU_TRY(WorkQueue::wait(Q.tail()));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphUpload(CUgraphExec E, CUstream H) {
  return CU_ENTRY(E, H).run([&]() -> llvm::Error {
    CU_TRY(checkStream(H));
    // Everything a launch needs is made at instantiation.
    return lookupExec(E).takeError();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec E) {
  return CU_ENTRY(E).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
    // Launches already issued hold the plan they run.
    HandleRegistry::get().remove(Exec.get());
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(
    CUgraphExec E, CUgraphNode H, const CUDA_KERNEL_NODE_PARAMS *P) {
  return CU_ENTRY(E, H, P).run([&] { return setExecKernel(E, H, P); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecKernelNodeSetParams(
    CUgraphExec E, CUgraphNode H, const CUDA_KERNEL_NODE_PARAMS_v1 *P) {
  return CU_ENTRY(E, H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The kernel node parameters are NULL.");
    CUDA_KERNEL_NODE_PARAMS V{};
    std::memcpy(&V, P, sizeof(*P));
    return setExecKernel(E, H, &V);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(
    CUgraphExec E, CUgraphNode H, const CUDA_MEMCPY3D *P, CUcontext Ctx) {
  return CU_ENTRY(E, H, P, Ctx).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The memcpy node parameters are NULL.");
    NodeParams N;
    N.Copy = *P;
    return setExecNode(E, H, CU_GRAPH_NODE_TYPE_MEMCPY, std::move(N));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(
    CUgraphExec E, CUgraphNode H, const CUDA_MEMSET_NODE_PARAMS *P,
    CUcontext Ctx) {
  return CU_ENTRY(E, H, P, Ctx).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The memset node parameters are NULL.");
    NodeParams N;
    N.Memset = *P;
    return setExecNode(E, H, CU_GRAPH_NODE_TYPE_MEMSET, std::move(N));
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecHostNodeSetParams(
    CUgraphExec E, CUgraphNode H, const CUDA_HOST_NODE_PARAMS *P) {
  return CU_ENTRY(E, H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P || !P->fn, CUDA_ERROR_INVALID_VALUE,
                  "The host node needs a function.");
    NodeParams N;
    N.Host = *P;
    return setExecNode(E, H, CU_GRAPH_NODE_TYPE_HOST, std::move(N));
  });
}

/// cuGraphExecEvent{Record,Wait}NodeSetEvent.
static llvm::Error setExecEvent(CUgraphExec E, CUgraphNode H,
                                CUgraphNodeType Type, CUevent Ev) {
  NodeParams N;
  CU_TRY_ASSIGN(N.Ev, lookupEvent(Ev));
  return setExecNode(E, H, Type, std::move(N));
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec E,
                                                                 CUgraphNode H,
                                                                 CUevent Ev) {
  return CU_ENTRY(E, H, Ev).run(
      [&] { return setExecEvent(E, H, CU_GRAPH_NODE_TYPE_EVENT_RECORD, Ev); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec E,
                                                               CUgraphNode H,
                                                               CUevent Ev) {
  return CU_ENTRY(E, H, Ev).run(
      [&] { return setExecEvent(E, H, CU_GRAPH_NODE_TYPE_WAIT_EVENT, Ev); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecUpdate_v2(
    CUgraphExec E, CUgraph H, CUgraphExecUpdateResultInfo *Info) {
  return CU_ENTRY(E, H, Info).run([&]() -> llvm::Error {
    UpdateCheck Check;
    llvm::Error Err = updateExec(E, H, Check);
    if (Info) {
      Info->result = Check.Result;
      Info->errorNode = Check.Culprit
                            ? toHandle(const_cast<GraphNode &>(*Check.Culprit))
                            : nullptr;
      Info->errorFromNode = nullptr;
    }
    return Err;
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuGraphExecUpdate(CUgraphExec E, CUgraph H, CUgraphNode *ErrorNode,
                  CUgraphExecUpdateResult *Result) {
  return CU_ENTRY(E, H, ErrorNode, Result).run([&]() -> llvm::Error {
    UpdateCheck Check;
    llvm::Error Err = updateExec(E, H, Check);
    if (Result)
      *Result = Check.Result;
    if (ErrorNode)
      *ErrorNode = Check.Culprit
                       ? toHandle(const_cast<GraphNode &>(*Check.Culprit))
                       : nullptr;
    return Err;
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec E,
                                                    CUgraphNode H,
                                                    unsigned int IsEnabled) {
  return CU_ENTRY(E, H, IsEnabled).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
    CU_TRY_ASSIGN(const GraphNode *Source, switchableNode(*Exec, H));
    Exec->setEnabled(Source, IsEnabled != 0);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec E,
                                                    CUgraphNode H,
                                                    unsigned int *IsEnabled) {
  return CU_ENTRY(E, H, IsEnabled).run([&]() -> llvm::Error {
    CU_INVALID_IF(!IsEnabled, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
    CU_TRY_ASSIGN(const GraphNode *Source, switchableNode(*Exec, H));
    *IsEnabled = Exec->enabled(Source) ? 1 : 0;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec E,
                                                       CUgraphNode H,
                                                       CUgraphNodeParams *P) {
  return CU_ENTRY(E, H, P).run([&]() -> llvm::Error {
    CU_INVALID_IF(!P, CUDA_ERROR_INVALID_VALUE,
                  "The node parameters are NULL.");
    switch (P->type) {
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      return setExecEvent(E, H, P->type, P->eventRecord.event);
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
      return setExecEvent(E, H, P->type, P->eventWait.event);
    case CU_GRAPH_NODE_TYPE_GRAPH:
      return makeError(CUDA_ERROR_NOT_SUPPORTED,
                       "Updating a child graph node of an executable graph "
                       "is not supported yet.");
    default:
      break;
    }
    CU_TRY_ASSIGN(NodeParams N, nodeParamsFrom(P));
    if (P->type == CU_GRAPH_NODE_TYPE_EMPTY) {
      CU_TRY_ASSIGN(std::shared_ptr<GraphExec> Exec, lookupExec(E));
      return execNode(*Exec, H, CU_GRAPH_NODE_TYPE_EMPTY).takeError();
    }
    return setExecNode(E, H, P->type, std::move(N));
  });
}

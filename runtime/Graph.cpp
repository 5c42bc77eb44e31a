//===- Graph.cpp - CUDA graphs: nodes, edges, instantiation, launch -------===//
//
// cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t are the driver's CUgraph,
// CUgraphNode and CUgraphExec, and the runtime's node types, edge data,
// instantiation flags and update results have the driver's values, so most
// calls pass their handles through. The node parameters differ:
//
// - a kernel node names its kernel by host stub, as <<<>>> does; the
//   driver's node holds the CUfunction the registry finds for that stub in
//   the current context, and GetParams gives the stub back;
// - a memcpy node is a cudaMemcpy3DParms (or a 1D or symbol copy), the
//   driver's CUDA_MEMCPY3D, converted as cudaMemcpy3D converts it;
// - memcpy and memset nodes run in the context current when they are set.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Copy.h"
#include "Errors.h"
#include "Registry.h"

#include <cstddef>
#include <cstring>

using namespace cucpu;
using namespace cucpu::rt;

// The runtime's edge data is the driver's, field for field.
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));
static_assert(offsetof(cudaGraphEdgeData, from_port) ==
                  offsetof(CUgraphEdgeData, from_port) &&
              offsetof(cudaGraphEdgeData, to_port) ==
                  offsetof(CUgraphEdgeData, to_port) &&
              offsetof(cudaGraphEdgeData, type) ==
                  offsetof(CUgraphEdgeData, type));
// As are the update results and the node types the runtime names.
static_assert(int(cudaGraphExecUpdateErrorAttributesChanged) ==
              int(CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED));
static_assert(int(cudaGraphNodeTypeMemFree) ==
                  int(CU_GRAPH_NODE_TYPE_MEM_FREE) &&
              int(cudaGraphNodeTypeConditional) ==
                  int(CU_GRAPH_NODE_TYPE_CONDITIONAL));
// And the instantiation results and the DOT dump's flags.
static_assert(int(cudaGraphInstantiateConditionalHandleUnused) ==
              int(CUDA_GRAPH_INSTANTIATE_CONDITIONAL_HANDLE_UNUSED));
static_assert(int(cudaGraphDebugDotFlagsHandles) ==
                  int(CU_GRAPH_DEBUG_DOT_FLAGS_HANDLES) &&
              int(cudaGraphDebugDotFlagsConditionalNodeParams) ==
                  int(CU_GRAPH_DEBUG_DOT_FLAGS_CONDITIONAL_NODE_PARAMS));

namespace {

CUdeviceptr address(const void *P) { return reinterpret_cast<CUdeviceptr>(P); }

CUgraphEdgeData *driverEdges(cudaGraphEdgeData *E) {
  return reinterpret_cast<CUgraphEdgeData *>(E);
}
const CUgraphEdgeData *driverEdges(const cudaGraphEdgeData *E) {
  return reinterpret_cast<const CUgraphEdgeData *>(E);
}

/// The handle of the calling thread's current context, which memcpy and
/// memset nodes are given (the runtime has made sure there is one).
cudaError_t contextHandle(const char *Function, CUcontext &Out) {
  CUDART_DRIVER_FOR(Function, cuCtxGetCurrent(&Out));
  return cudaSuccess;
}

/// The driver's kernel node parameters of \p P: its host stub becomes the
/// kernel's CUfunction in \p Ctx, found as a <<<>>> launch finds it.
cudaError_t toDriverKernel(const char *Function, const cudaKernelNodeParams *P,
                           const CurrentContext &Ctx,
                           CUDA_KERNEL_NODE_PARAMS &Out) {
  CUDART_FAIL_IF_FOR(Function, !P, cudaErrorInvalidValue,
                     "The kernel node parameters are null.");
  CUfunction F;
  CUDART_TRY(findFunction(Function, P->func, Ctx, F));
  Out = {};
  Out.func = F;
  Out.gridDimX = P->gridDim.x;
  Out.gridDimY = P->gridDim.y;
  Out.gridDimZ = P->gridDim.z;
  Out.blockDimX = P->blockDim.x;
  Out.blockDimY = P->blockDim.y;
  Out.blockDimZ = P->blockDim.z;
  Out.sharedMemBytes = P->sharedMemBytes;
  Out.kernelParams = P->kernelParams;
  Out.extra = P->extra;
  return cudaSuccess;
}

/// The runtime's kernel node parameters of \p K: the kernel's host stub
/// where the program registered one, else the driver's function itself (a
/// node made through the driver API with a module's function).
cudaKernelNodeParams fromDriverKernel(const CUDA_KERNEL_NODE_PARAMS &K,
                                      const CurrentContext &Ctx) {
  cudaKernelNodeParams P = {};
  const void *Host = K.func ? findHostFunction(K.func, Ctx) : nullptr;
  if (Host)
    P.func = const_cast<void *>(Host);
  else if (K.func)
    P.func = reinterpret_cast<void *>(K.func);
  else
    P.func = reinterpret_cast<void *>(K.kern);
  P.gridDim = dim3(K.gridDimX, K.gridDimY, K.gridDimZ);
  P.blockDim = dim3(K.blockDimX, K.blockDimY, K.blockDimZ);
  P.sharedMemBytes = K.sharedMemBytes;
  P.kernelParams = K.kernelParams;
  P.extra = K.extra;
  return P;
}

/// The driver's memset node parameters of \p P (the same fields, the
/// destination as a device address).
cudaError_t toDriverMemset(const char *Function, const cudaMemsetParams *P,
                           CUDA_MEMSET_NODE_PARAMS &Out) {
  CUDART_FAIL_IF_FOR(Function, !P, cudaErrorInvalidValue,
                     "The memset node parameters are null.");
  Out = {};
  Out.dst = address(P->dst);
  Out.pitch = P->pitch;
  Out.value = P->value;
  Out.elementSize = P->elementSize;
  Out.width = P->width;
  Out.height = P->height;
  return cudaSuccess;
}

/// The driver's host node parameters of \p P (the same two fields).
cudaError_t toDriverHost(const char *Function, const cudaHostNodeParams *P,
                         CUDA_HOST_NODE_PARAMS &Out) {
  CUDART_FAIL_IF_FOR(Function, !P, cudaErrorInvalidValue,
                     "The host node parameters are null.");
  Out.fn = P->fn;
  Out.userData = P->userData;
  return cudaSuccess;
}

/// The driver's form of generic node parameters \p P: a kernel's host stub
/// becomes its function in \p Ctx, copies and memsets take the driver's
/// layouts; the other kinds have the same fields.
cudaError_t toDriverNode(const char *Function, const cudaGraphNodeParams *P,
                         const CurrentContext &Ctx, CUgraphNodeParams &Out) {
  CUDART_FAIL_IF_FOR(Function, !P, cudaErrorInvalidValue,
                     "The node parameters are null.");
  Out = {};
  Out.type = static_cast<CUgraphNodeType>(P->type);
  switch (P->type) {
  case cudaGraphNodeTypeKernel: {
    const cudaKernelNodeParamsV2 &K = P->kernel;
    cudaKernelNodeParams V1 = {};
    V1.func = K.func;
    V1.gridDim = dim3(K.gridDim.x, K.gridDim.y, K.gridDim.z);
    V1.blockDim = dim3(K.blockDim.x, K.blockDim.y, K.blockDim.z);
    V1.sharedMemBytes = K.sharedMemBytes;
    V1.kernelParams = K.kernelParams;
    V1.extra = K.extra;
    CUDA_KERNEL_NODE_PARAMS D;
    CUDART_TRY(toDriverKernel(Function, &V1, Ctx, D));
    std::memcpy(&Out.kernel, &D, sizeof(D));
    return cudaSuccess;
  }
  case cudaGraphNodeTypeMemcpy:
    Out.memcpy.flags = P->memcpy.flags;
    CUDART_TRY(contextHandle(Function, Out.memcpy.copyCtx));
    return toDriverCopy3D(Function, &P->memcpy.copyParams,
                          Out.memcpy.copyParams);
  case cudaGraphNodeTypeMemset: {
    const cudaMemsetParamsV2 &M = P->memset;
    Out.memset = {address(M.dst), M.pitch,  M.value, M.elementSize,
                  M.width,        M.height, nullptr};
    return contextHandle(Function, Out.memset.ctx);
  }
  case cudaGraphNodeTypeHost:
    Out.host.fn = P->host.fn;
    Out.host.userData = P->host.userData;
    return cudaSuccess;
  case cudaGraphNodeTypeGraph:
    Out.graph.graph = P->graph.graph;
    Out.graph.ownership =
        static_cast<CUgraphChildGraphNodeOwnership>(P->graph.ownership);
    return cudaSuccess;
  case cudaGraphNodeTypeEventRecord:
    Out.eventRecord.event = P->eventRecord.event;
    return cudaSuccess;
  case cudaGraphNodeTypeWaitEvent:
    Out.eventWait.event = P->eventWait.event;
    return cudaSuccess;
  case cudaGraphNodeTypeMemAlloc:
    // The runtime's allocation parameters have the driver's layout.
    std::memcpy(&Out.alloc, &P->alloc, sizeof(Out.alloc));
    return cudaSuccess;
  case cudaGraphNodeTypeMemFree:
    Out.free.dptr = address(P->free.dptr);
    return cudaSuccess;
  default:
    // Empty nodes need nothing; the driver answers the kinds it lacks.
    return cudaSuccess;
  }
}

/// Adds a memcpy node doing \p C in the current context.
cudaError_t addMemcpyNode(const char *Function, cudaGraphNode_t *Node,
                          cudaGraph_t Graph, const cudaGraphNode_t *Deps,
                          size_t NumDeps, const CUDA_MEMCPY3D &C) {
  CUcontext Handle;
  CUDART_TRY(contextHandle(Function, Handle));
  CUDART_DRIVER_FOR(
      Function, cuGraphAddMemcpyNode(Node, Graph, Deps, NumDeps, &C, Handle));
  return cudaSuccess;
}

/// Makes \p Exec's copy of \p Node do \p C in the current context.
cudaError_t setExecMemcpy(const char *Function, cudaGraphExec_t Exec,
                          cudaGraphNode_t Node, const CUDA_MEMCPY3D &C) {
  CUcontext Handle;
  CUDART_TRY(contextHandle(Function, Handle));
  CUDART_DRIVER_FOR(Function,
                    cuGraphExecMemcpyNodeSetParams(Exec, Node, &C, Handle));
  return cudaSuccess;
}

/// The driver's copy of \p Count bytes between unified addresses, its kind
/// checked first as cudaMemcpy checks it.
cudaError_t linearCopy(const char *Function, void *Dst, const void *Src,
                       size_t Count, cudaMemcpyKind Kind, CUDA_MEMCPY3D &Out) {
  CUDART_TRY(checkCopyKind(Function, Kind));
  Out = linearCopy3D(address(Dst), address(Src), Count);
  return cudaSuccess;
}

/// The driver's copy of \p Count bytes into (\p ToSymbol) or out of the
/// variable \p Symbol at \p Offset, from or to \p Memory.
cudaError_t symbolCopy(const char *Function, const void *Symbol, void *Memory,
                       size_t Count, size_t Offset, bool ToSymbol,
                       cudaMemcpyKind Kind, CUDA_MEMCPY3D &Out) {
  CUdeviceptr Variable = 0;
  CUDART_TRY(
      symbolAddress(Function, Symbol, Count, Offset, ToSymbol, Kind, Variable));
  Out = ToSymbol ? linearCopy3D(Variable, address(Memory), Count)
                 : linearCopy3D(address(Memory), Variable, Count);
  return cudaSuccess;
}

} // namespace

extern "C" {

// --- Graphs -----------------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphCreate(cudaGraph_t *Graph, unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphCreate(Graph, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphDestroy(cudaGraph_t Graph) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphDestroy(Graph));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphClone(cudaGraph_t *Clone, cudaGraph_t Original) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphClone(Clone, Original));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeFindInClone(cudaGraphNode_t *Node,
                                               cudaGraphNode_t Original,
                                               cudaGraph_t Clone) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphNodeFindInClone(Node, Original, Clone));
  return cudaSuccess;
}

// --- Kernel nodes -----------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphAddKernelNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaKernelNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_KERNEL_NODE_PARAMS K;
  CUDART_TRY(toDriverKernel(__func__, Params, Ctx, K));
  CUDART_DRIVER(cuGraphAddKernelNode(Node, Graph, Deps, NumDeps, &K));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeGetParams(
    cudaGraphNode_t Node, struct cudaKernelNodeParams *Params) {
  CUDART_FAIL_IF(!Params, cudaErrorInvalidValue,
                 "The kernel node parameters pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_KERNEL_NODE_PARAMS K = {};
  CUDART_DRIVER(cuGraphKernelNodeGetParams(Node, &K));
  *Params = fromDriverKernel(K, Ctx);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeSetParams(
    cudaGraphNode_t Node, const struct cudaKernelNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_KERNEL_NODE_PARAMS K;
  CUDART_TRY(toDriverKernel(__func__, Params, Ctx, K));
  CUDART_DRIVER(cuGraphKernelNodeSetParams(Node, &K));
  return cudaSuccess;
}

// --- Memcpy nodes -----------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaMemcpy3DParms *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_MEMCPY3D C;
  CUDART_TRY(toDriverCopy3D(__func__, Params, C));
  return addMemcpyNode(__func__, Node, Graph, Deps, NumDeps, C);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNode1D(cudaGraphNode_t *Node,
                                               cudaGraph_t Graph,
                                               const cudaGraphNode_t *Deps,
                                               size_t NumDeps, void *Dst,
                                               const void *Src, size_t Count,
                                               enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(linearCopy(__func__, Dst, Src, Count, Kind, C));
  CUDART_CONTEXT(Ctx);
  return addMemcpyNode(__func__, Node, Graph, Deps, NumDeps, C);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeToSymbol(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, const_cast<void *>(Src), Count,
                        Offset, /*ToSymbol=*/true, Kind, C));
  return addMemcpyNode(__func__, Node, Graph, Deps, NumDeps, C);
}

cudaError_t CUDARTAPI cudaGraphAddMemcpyNodeFromSymbol(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, void *Dst, const void *Symbol, size_t Count, size_t Offset,
    enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, Dst, Count, Offset,
                        /*ToSymbol=*/false, Kind, C));
  return addMemcpyNode(__func__, Node, Graph, Deps, NumDeps, C);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeGetParams(
    cudaGraphNode_t Node, struct cudaMemcpy3DParms *Params) {
  CUDART_FAIL_IF(!Params, cudaErrorInvalidValue,
                 "The memcpy node parameters pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_MEMCPY3D C = {};
  CUDART_DRIVER(cuGraphMemcpyNodeGetParams(Node, &C));
  return fromDriverCopy3D(__func__, C, *Params);
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams(
    cudaGraphNode_t Node, const struct cudaMemcpy3DParms *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_MEMCPY3D C;
  CUDART_TRY(toDriverCopy3D(__func__, Params, C));
  CUDART_DRIVER(cuGraphMemcpyNodeSetParams(Node, &C));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t Node,
                                                     void *Dst, const void *Src,
                                                     size_t Count,
                                                     enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(linearCopy(__func__, Dst, Src, Count, Kind, C));
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphMemcpyNodeSetParams(Node, &C));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsToSymbol(
    cudaGraphNode_t Node, const void *Symbol, const void *Src, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, const_cast<void *>(Src), Count,
                        Offset, /*ToSymbol=*/true, Kind, C));
  CUDART_DRIVER(cuGraphMemcpyNodeSetParams(Node, &C));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemcpyNodeSetParamsFromSymbol(
    cudaGraphNode_t Node, void *Dst, const void *Symbol, size_t Count,
    size_t Offset, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, Dst, Count, Offset,
                        /*ToSymbol=*/false, Kind, C));
  CUDART_DRIVER(cuGraphMemcpyNodeSetParams(Node, &C));
  return cudaSuccess;
}

// --- Memset, host, child graph, empty and event nodes -----------------------

cudaError_t CUDARTAPI cudaGraphAddMemsetNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaMemsetParams *Params) {
  CUDA_MEMSET_NODE_PARAMS M;
  CUDART_TRY(toDriverMemset(__func__, Params, M));
  CUDART_CONTEXT(Ctx);
  CUcontext Handle;
  CUDART_TRY(contextHandle(__func__, Handle));
  CUDART_DRIVER(cuGraphAddMemsetNode(Node, Graph, Deps, NumDeps, &M, Handle));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeGetParams(
    cudaGraphNode_t Node, struct cudaMemsetParams *Params) {
  CUDART_FAIL_IF(!Params, cudaErrorInvalidValue,
                 "The memset node parameters pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_MEMSET_NODE_PARAMS M = {};
  CUDART_DRIVER(cuGraphMemsetNodeGetParams(Node, &M));
  Params->dst = reinterpret_cast<void *>(M.dst);
  Params->pitch = M.pitch;
  Params->value = M.value;
  Params->elementSize = M.elementSize;
  Params->width = M.width;
  Params->height = M.height;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemsetNodeSetParams(
    cudaGraphNode_t Node, const struct cudaMemsetParams *Params) {
  CUDA_MEMSET_NODE_PARAMS M;
  CUDART_TRY(toDriverMemset(__func__, Params, M));
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphMemsetNodeSetParams(Node, &M));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddHostNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, const struct cudaHostNodeParams *Params) {
  CUDA_HOST_NODE_PARAMS H;
  CUDART_TRY(toDriverHost(__func__, Params, H));
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddHostNode(Node, Graph, Deps, NumDeps, &H));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphHostNodeGetParams(
    cudaGraphNode_t Node, struct cudaHostNodeParams *Params) {
  CUDART_FAIL_IF(!Params, cudaErrorInvalidValue,
                 "The host node parameters pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDA_HOST_NODE_PARAMS H = {};
  CUDART_DRIVER(cuGraphHostNodeGetParams(Node, &H));
  Params->fn = H.fn;
  Params->userData = H.userData;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphHostNodeSetParams(
    cudaGraphNode_t Node, const struct cudaHostNodeParams *Params) {
  CUDA_HOST_NODE_PARAMS H;
  CUDART_TRY(toDriverHost(__func__, Params, H));
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphHostNodeSetParams(Node, &H));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddChildGraphNode(cudaGraphNode_t *Node,
                                                 cudaGraph_t Graph,
                                                 const cudaGraphNode_t *Deps,
                                                 size_t NumDeps,
                                                 cudaGraph_t Child) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddChildGraphNode(Node, Graph, Deps, NumDeps, Child));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t Node,
                                                      cudaGraph_t *Graph) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphChildGraphNodeGetGraph(Node, Graph));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddEmptyNode(cudaGraphNode_t *Node,
                                            cudaGraph_t Graph,
                                            const cudaGraphNode_t *Deps,
                                            size_t NumDeps) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddEmptyNode(Node, Graph, Deps, NumDeps));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddEventRecordNode(cudaGraphNode_t *Node,
                                                  cudaGraph_t Graph,
                                                  const cudaGraphNode_t *Deps,
                                                  size_t NumDeps,
                                                  cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddEventRecordNode(Node, Graph, Deps, NumDeps, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t Node,
                                                       cudaEvent_t *Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphEventRecordNodeGetEvent(Node, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddEventWaitNode(cudaGraphNode_t *Node,
                                                cudaGraph_t Graph,
                                                const cudaGraphNode_t *Deps,
                                                size_t NumDeps,
                                                cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddEventWaitNode(Node, Graph, Deps, NumDeps, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t Node,
                                                     cudaEvent_t *Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphEventWaitNodeGetEvent(Node, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t Node,
                                                       cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphEventRecordNodeSetEvent(Node, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t Node,
                                                     cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphEventWaitNodeSetEvent(Node, Event));
  return cudaSuccess;
}

// --- Topology ---------------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphNodeGetType(cudaGraphNode_t Node,
                                           enum cudaGraphNodeType *Type) {
  CUDART_FAIL_IF(!Type, cudaErrorInvalidValue, "The type pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUgraphNodeType T;
  CUDART_DRIVER(cuGraphNodeGetType(Node, &T));
  *Type = static_cast<cudaGraphNodeType>(T);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphGetNodes(cudaGraph_t Graph,
                                        cudaGraphNode_t *Nodes,
                                        size_t *NumNodes) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphGetNodes(Graph, Nodes, NumNodes));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphGetRootNodes(cudaGraph_t Graph,
                                            cudaGraphNode_t *Roots,
                                            size_t *NumRoots) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphGetRootNodes(Graph, Roots, NumRoots));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphGetEdges(cudaGraph_t Graph,
                                        cudaGraphNode_t *From,
                                        cudaGraphNode_t *To,
                                        cudaGraphEdgeData *EdgeData,
                                        size_t *NumEdges) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGraphGetEdges(Graph, From, To, driverEdges(EdgeData), NumEdges));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependencies(cudaGraphNode_t Node,
                                                   cudaGraphNode_t *Deps,
                                                   cudaGraphEdgeData *EdgeData,
                                                   size_t *NumDeps) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGraphNodeGetDependencies(Node, Deps, driverEdges(EdgeData), NumDeps));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeGetDependentNodes(
    cudaGraphNode_t Node, cudaGraphNode_t *Dependents,
    cudaGraphEdgeData *EdgeData, size_t *NumDependents) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphNodeGetDependentNodes(
      Node, Dependents, driverEdges(EdgeData), NumDependents));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGraphAddDependencies(Graph, From, To, driverEdges(EdgeData), NumDeps));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphRemoveDependencies(
    cudaGraph_t Graph, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
    const cudaGraphEdgeData *EdgeData, size_t NumDeps) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphRemoveDependencies(Graph, From, To,
                                          driverEdges(EdgeData), NumDeps));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphDestroyNode(cudaGraphNode_t Node) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphDestroyNode(Node));
  return cudaSuccess;
}

// --- Executable graphs ------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphInstantiate(cudaGraphExec_t *Exec,
                                           cudaGraph_t Graph,
                                           unsigned long long Flags) {
  CUDART_CONTEXT(Ctx);
  // cudaGraphInstantiateFlags are the driver's CUgraphInstantiate_flags.
  CUDART_DRIVER(cuGraphInstantiate(Exec, Graph, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphInstantiateWithFlags(cudaGraphExec_t *Exec,
                                                    cudaGraph_t Graph,
                                                    unsigned long long Flags) {
  return cudaGraphInstantiate(Exec, Graph, Flags);
}

cudaError_t CUDARTAPI
cudaGraphInstantiateWithParams(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                               cudaGraphInstantiateParams *Params) {
  CUDART_FAIL_IF(!Params, cudaErrorInvalidValue,
                 "The instantiation parameters are null.");
  CUDART_CONTEXT(Ctx);
  // The result and the failing node say why an instantiation failed, so
  // they are filled in before the failure is returned.
  CUDA_GRAPH_INSTANTIATE_PARAMS P = {};
  P.flags = Params->flags;
  P.hUploadStream = Params->uploadStream;
  CUresult R = cuGraphInstantiateWithParams(Exec, Graph, &P);
  Params->errNode_out = P.hErrNode_out;
  Params->result_out = static_cast<cudaGraphInstantiateResult>(P.result_out);
  CUDART_DRIVER(R);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphUpload(cudaGraphExec_t Exec,
                                      cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphUpload(Exec, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecGetFlags(cudaGraphExec_t Exec,
                                            unsigned long long *Flags) {
  CUDART_CONTEXT(Ctx);
  cuuint64_t F = 0;
  CUDART_DRIVER(cuGraphExecGetFlags(Exec, Flags ? &F : nullptr));
  *Flags = F;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphLaunch(cudaGraphExec_t Exec,
                                      cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphLaunch(Exec, Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecDestroy(cudaGraphExec_t Exec) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphExecDestroy(Exec));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaKernelNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_KERNEL_NODE_PARAMS K;
  CUDART_TRY(toDriverKernel(__func__, Params, Ctx, K));
  CUDART_DRIVER(cuGraphExecKernelNodeSetParams(Exec, Node, &K));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaMemcpy3DParms *Params) {
  CUDART_CONTEXT(Ctx);
  CUDA_MEMCPY3D C;
  CUDART_TRY(toDriverCopy3D(__func__, Params, C));
  return setExecMemcpy(__func__, Exec, Node, C);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParams1D(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Src,
    size_t Count, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(linearCopy(__func__, Dst, Src, Count, Kind, C));
  CUDART_CONTEXT(Ctx);
  return setExecMemcpy(__func__, Exec, Node, C);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsToSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, const void *Symbol,
    const void *Src, size_t Count, size_t Offset, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, const_cast<void *>(Src), Count,
                        Offset, /*ToSymbol=*/true, Kind, C));
  return setExecMemcpy(__func__, Exec, Node, C);
}

cudaError_t CUDARTAPI cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    cudaGraphExec_t Exec, cudaGraphNode_t Node, void *Dst, const void *Symbol,
    size_t Count, size_t Offset, enum cudaMemcpyKind Kind) {
  CUDA_MEMCPY3D C;
  CUDART_TRY(symbolCopy(__func__, Symbol, Dst, Count, Offset,
                        /*ToSymbol=*/false, Kind, C));
  return setExecMemcpy(__func__, Exec, Node, C);
}

cudaError_t CUDARTAPI
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                                 const struct cudaMemsetParams *Params) {
  CUDA_MEMSET_NODE_PARAMS M;
  CUDART_TRY(toDriverMemset(__func__, Params, M));
  CUDART_CONTEXT(Ctx);
  CUcontext Handle;
  CUDART_TRY(contextHandle(__func__, Handle));
  CUDART_DRIVER(cuGraphExecMemsetNodeSetParams(Exec, Node, &M, Handle));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphExecHostNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                               const struct cudaHostNodeParams *Params) {
  CUDA_HOST_NODE_PARAMS H;
  CUDART_TRY(toDriverHost(__func__, Params, H));
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphExecHostNodeSetParams(Exec, Node, &H));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t Exec,
                                                           cudaGraphNode_t Node,
                                                           cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphExecEventRecordNodeSetEvent(Exec, Node, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t Exec,
                                                         cudaGraphNode_t Node,
                                                         cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphExecEventWaitNodeSetEvent(Exec, Node, Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphExecUpdate(cudaGraphExec_t Exec, cudaGraph_t Graph,
                    cudaGraphExecUpdateResultInfo *ResultInfo) {
  CUDART_CONTEXT(Ctx);
  // The result info says why an update failed, so it is filled in before
  // the failure is returned.
  CUgraphExecUpdateResultInfo Info = {};
  CUresult R = cuGraphExecUpdate(Exec, Graph, ResultInfo ? &Info : nullptr);
  if (ResultInfo) {
    ResultInfo->result = static_cast<cudaGraphExecUpdateResult>(Info.result);
    ResultInfo->errorNode = Info.errorNode;
    ResultInfo->errorFromNode = Info.errorFromNode;
  }
  CUDART_DRIVER(R);
  return cudaSuccess;
}

// --- Inspection -------------------------------------------------------------

cudaError_t CUDARTAPI cudaGraphDebugDotPrint(cudaGraph_t Graph,
                                             const char *Path,
                                             unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  // cudaGraphDebugDotFlags are the driver's CUgraphDebugDot_flags.
  CUDART_DRIVER(cuGraphDebugDotPrint(Graph, Path, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphKernelNodeGetAttribute(cudaGraphNode_t Node, cudaKernelNodeAttrID Id,
                                cudaKernelNodeAttrValue *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphKernelNodeGetAttribute(
      Node, static_cast<CUkernelNodeAttrID>(Id),
      reinterpret_cast<CUkernelNodeAttrValue *>(Value)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphKernelNodeSetAttribute(cudaGraphNode_t Node, cudaKernelNodeAttrID Id,
                                const cudaKernelNodeAttrValue *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphKernelNodeSetAttribute(
      Node, static_cast<CUkernelNodeAttrID>(Id),
      reinterpret_cast<const CUkernelNodeAttrValue *>(Value)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t Dst,
                                                        cudaGraphNode_t Src) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphKernelNodeCopyAttributes(Dst, Src));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeSetEnabled(cudaGraphExec_t Exec,
                                              cudaGraphNode_t Node,
                                              unsigned int IsEnabled) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphNodeSetEnabled(Exec, Node, IsEnabled));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeGetEnabled(cudaGraphExec_t Exec,
                                              cudaGraphNode_t Node,
                                              unsigned int *IsEnabled) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphNodeGetEnabled(Exec, Node, IsEnabled));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddNode(cudaGraphNode_t *Node, cudaGraph_t Graph,
                                       const cudaGraphNode_t *Deps,
                                       const cudaGraphEdgeData *Edges,
                                       size_t NumDeps,
                                       struct cudaGraphNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUgraphNodeParams D;
  CUDART_TRY(toDriverNode(__func__, Params, Ctx, D));
  CUDART_DRIVER(
      cuGraphAddNode_v2(Node, Graph, Deps, driverEdges(Edges), NumDeps, &D));
  if (Params->type == cudaGraphNodeTypeMemAlloc)
    Params->alloc.dptr = reinterpret_cast<void *>(D.alloc.dptr);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphNodeSetParams(
    cudaGraphNode_t Node, struct cudaGraphNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUgraphNodeParams D;
  CUDART_TRY(toDriverNode(__func__, Params, Ctx, D));
  CUDART_DRIVER(cuGraphNodeSetParams(Node, &D));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphExecNodeSetParams(cudaGraphExec_t Exec, cudaGraphNode_t Node,
                           struct cudaGraphNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUgraphNodeParams D;
  CUDART_TRY(toDriverNode(__func__, Params, Ctx, D));
  CUDART_DRIVER(cuGraphExecNodeSetParams(Exec, Node, &D));
  return cudaSuccess;
}

static_assert(sizeof(cudaMemAllocNodeParams) ==
              sizeof(CUDA_MEM_ALLOC_NODE_PARAMS));
static_assert(sizeof(cudaMemAllocNodeParamsV2) ==
              sizeof(CUDA_MEM_ALLOC_NODE_PARAMS_v2));

cudaError_t CUDARTAPI cudaGraphAddMemAllocNode(
    cudaGraphNode_t *Node, cudaGraph_t Graph, const cudaGraphNode_t *Deps,
    size_t NumDeps, struct cudaMemAllocNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphAddMemAllocNode(
      Node, Graph, Deps, NumDeps,
      reinterpret_cast<CUDA_MEM_ALLOC_NODE_PARAMS *>(Params)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemAllocNodeGetParams(
    cudaGraphNode_t Node, struct cudaMemAllocNodeParams *Params) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphMemAllocNodeGetParams(
      Node, reinterpret_cast<CUDA_MEM_ALLOC_NODE_PARAMS *>(Params)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphAddMemFreeNode(cudaGraphNode_t *Node,
                                              cudaGraph_t Graph,
                                              const cudaGraphNode_t *Deps,
                                              size_t NumDeps, void *Address) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGraphAddMemFreeNode(Node, Graph, Deps, NumDeps, address(Address)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphMemFreeNodeGetParams(cudaGraphNode_t Node,
                                                    void *Address) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGraphMemFreeNodeGetParams(Node, static_cast<CUdeviceptr *>(Address)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGraphMemTrim(int Device) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceGraphMemTrim(Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetGraphMemAttribute(
    int Device, enum cudaGraphMemAttributeType Attr, void *Value) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceGetGraphMemAttribute(
      Device, static_cast<CUgraphMem_attribute>(Attr), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetGraphMemAttribute(
    int Device, enum cudaGraphMemAttributeType Attr, void *Value) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceSetGraphMemAttribute(
      Device, static_cast<CUgraphMem_attribute>(Attr), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaUserObjectCreate(cudaUserObject_t *Object,
                                           void *Resource, cudaHostFn_t Destroy,
                                           unsigned int Refs,
                                           unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuUserObjectCreate(Object, Resource, Destroy, Refs, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaUserObjectRetain(cudaUserObject_t Object,
                                           unsigned int Count) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuUserObjectRetain(Object, Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaUserObjectRelease(cudaUserObject_t Object,
                                            unsigned int Count) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuUserObjectRelease(Object, Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphRetainUserObject(cudaGraph_t Graph,
                                                cudaUserObject_t Object,
                                                unsigned int Count,
                                                unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphRetainUserObject(Graph, Object, Count, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphReleaseUserObject(cudaGraph_t Graph,
                                                 cudaUserObject_t Object,
                                                 unsigned int Count) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphReleaseUserObject(Graph, Object, Count));
  return cudaSuccess;
}

} // extern "C"

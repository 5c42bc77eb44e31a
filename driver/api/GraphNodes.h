//===- GraphNodes.h - Graph handles and node parameters ---------*- C++ -*-===//
#ifndef CUCPU_DRIVER_API_GRAPHNODES_H
#define CUCPU_DRIVER_API_GRAPHNODES_H

#include "core/Graph.h"
#include "core/GraphExec.h"

#include <cuda.h>

#include "llvm/Support/Error.h"

#include <memory>

namespace cucpu::api {

inline CUgraph toHandle(Graph &G) { return reinterpret_cast<CUgraph>(&G); }
inline CUgraphNode toHandle(GraphNode &N) {
  return reinterpret_cast<CUgraphNode>(&N);
}
inline CUgraphExec toHandle(GraphExec &E) {
  return reinterpret_cast<CUgraphExec>(&E);
}

/// The live graph, node or executable graph a handle names:
/// CUDA_ERROR_INVALID_VALUE for a null, destroyed or foreign one.
llvm::Expected<std::shared_ptr<Graph>> lookupGraph(CUgraph H);
llvm::Expected<std::shared_ptr<GraphNode>> lookupNode(CUgraphNode H);
llvm::Expected<std::shared_ptr<GraphExec>> lookupExec(CUgraphExec H);

/// A kernel node's launch from the API's parameters: the function in the
/// current context, a copy of its parameters, checked as a launch is.
llvm::Expected<KernelNodeParams>
kernelNodeParams(const CUDA_KERNEL_NODE_PARAMS &P);

/// Checks a memcpy or memset node's parameters with the code the copy and
/// memset entry points run, and returns the work they would issue.
llvm::Expected<RecordedWork> recordCopy(const CUDA_MEMCPY3D &P);
llvm::Expected<RecordedWork> recordMemset(const CUDA_MEMSET_NODE_PARAMS &P);

/// The node parameters of the generic form (cuGraphAddNode,
/// cuGraphNodeSetParams), checked as the node kind's own entry point checks
/// them. Memory, conditional, external-semaphore and batch memory-operation
/// nodes are CUDA_ERROR_NOT_SUPPORTED.
llvm::Expected<NodeParams> nodeParamsFrom(const CUgraphNodeParams *P);

/// The step a node doing \p P runs as in an executable graph of the
/// current context (not for child graph nodes).
llvm::Expected<GraphStep> stepFor(const NodeParams &P);

/// The steps of \p G in dependency order, child graphs inlined; a step's
/// Source is its node's Origin.
llvm::Expected<GraphPlan> planFor(const Graph &G);

} // namespace cucpu::api

#endif // CUCPU_DRIVER_API_GRAPHNODES_H

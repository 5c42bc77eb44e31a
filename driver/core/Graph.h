//===- Graph.h - CUDA graphs: nodes and dependencies ------------*- C++ -*-===//
//
// A Graph is a set of nodes (kernel, memcpy, memset, host, child graph,
// event record, event wait, empty) and the dependency edges between them
// (CUDA 11 guide §3.2.5.6). Graphs and nodes are handles; the graph owns its
// nodes, which stay reachable until the node or the graph is destroyed.
// A graph is not thread-safe for the program (as NVIDIA's), but every
// operation on one takes its mutex, so misuse cannot corrupt the driver.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GRAPH_H
#define CUCPU_DRIVER_CORE_GRAPH_H

#include "core/LaunchAttributes.h"
#include "core/Object.h"
#include "core/UserObject.h"

#include <cuda.h>

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/Support/Error.h"

#include <array>
#include <memory>
#include <mutex>
#include <vector>

namespace cucpu {

class Event;
class Function;
class Graph;
class GraphAllocation;

/// Work a stream capture recorded for a copy or memset: validated when it
/// was issued, run at each launch of the graph.
using RecordedWork = std::shared_ptr<llvm::unique_function<void()>>;

/// A kernel node's launch: the function, its shape and its own copy of the
/// parameter buffer.
struct KernelNodeParams {
  std::shared_ptr<Function> F;
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  unsigned SharedBytes = 0;
  std::vector<char> Buffer;
};

/// What a node does; which member counts depends on its type.
struct NodeParams {
  CUgraphNodeType Type = CU_GRAPH_NODE_TYPE_EMPTY;
  KernelNodeParams Kernel;
  CUDA_MEMCPY3D Copy{};
  CUDA_MEMSET_NODE_PARAMS Memset{};
  CUDA_HOST_NODE_PARAMS Host{};
  std::shared_ptr<Graph> Child;
  std::shared_ptr<Event> Ev;
  /// The work of a captured copy or memset (whose parameters are not kept).
  RecordedWork Recorded;
  /// A kernel node's attributes (cuGraphKernelNodeSetAttribute), which
  /// setting its parameters leaves as they are.
  LaunchAttributes Attributes;
  /// A memory allocation node's memory, or the memory a free node frees.
  std::shared_ptr<GraphAllocation> Allocation;
  /// An allocation node's pool properties and access descriptors, as given
  /// (cuGraphMemAllocNodeGetParams).
  CUmemPoolProps AllocProps{};
  std::vector<CUmemAccessDesc> AllocAccess;
};

/// One node of a graph.
class GraphNode : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::GraphNode;

  GraphNode(std::weak_ptr<Graph> Owner, NodeParams P, unsigned Index)
      : Object(Kind), Owner(std::move(Owner)), Params(std::move(P)),
        Index(Index) {}

  /// The graph that holds the node (null once it was destroyed).
  std::shared_ptr<Graph> graph() const { return Owner.lock(); }

  std::weak_ptr<Graph> Owner;
  NodeParams Params;
  /// Creation order within the graph (the order queries list nodes in).
  unsigned Index;
  std::vector<GraphNode *> Dependencies;
  std::vector<GraphNode *> Dependents;
  /// The node this one was cloned from (cuGraphNodeFindInClone).
  const GraphNode *Origin = nullptr;
  /// The kernel parameter pointers cuGraphKernelNodeGetParams hands out,
  /// into Params.Kernel.Buffer.
  std::vector<void *> ParamPointers;
};

/// A graph of nodes.
class Graph : public Object, public std::enable_shared_from_this<Graph> {
public:
  static constexpr ObjectKind Kind = ObjectKind::Graph;

  Graph() : Object(Kind) {}
  ~Graph() override;

  /// Held by every operation on the graph or its nodes.
  std::mutex Mutex;

  /// Adds a node depending on \p Dependencies (nodes of this graph, checked
  /// by the caller); registers its handle when \p Register.
  GraphNode &add(NodeParams P, const std::vector<GraphNode *> &Dependencies,
                 bool Register = true);
  /// Removes \p N, its edges and its handle.
  void remove(GraphNode &N);
  /// Adds the edge From -> To; false if it exists.
  bool addEdge(GraphNode &From, GraphNode &To);
  /// Removes the edge From -> To; false if there is none.
  bool removeEdge(GraphNode &From, GraphNode &To);
  /// The user objects the graph holds references to
  /// (cuGraphRetainUserObject); under Mutex.
  UserObjectRefs UserObjects;

  /// The nodes in creation order.
  const std::vector<std::shared_ptr<GraphNode>> &nodes() const { return Nodes; }
  /// Whether \p N is a live node of this graph.
  bool holds(const GraphNode &N) const;
  /// The nodes in an order that puts every node after its dependencies
  /// (creation order among independent ones); CUDA_ERROR_INVALID_VALUE if
  /// the edges form a cycle.
  llvm::Expected<std::vector<GraphNode *>> topologicalOrder() const;
  /// A copy with the same nodes, parameters and edges (child graphs copied
  /// too); the copies' Origin points at this graph's nodes. \p Register
  /// makes its nodes and child graphs handles (not for a private snapshot).
  std::shared_ptr<Graph> clone(bool Register = true) const;
  /// Unregisters the handles of every node (the graph is destroyed).
  void releaseHandles();

private:
  std::vector<std::shared_ptr<GraphNode>> Nodes;
  unsigned NextIndex = 0;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_GRAPH_H

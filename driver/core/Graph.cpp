//===- Graph.cpp - CUDA graphs: nodes and dependencies --------------------===//
#include "core/Graph.h"

#include "core/Error.h"
#include "core/HandleRegistry.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

using namespace cucpu;

Graph::~Graph() = default;

GraphNode &Graph::add(NodeParams P,
                      const std::vector<GraphNode *> &Dependencies,
                      bool Register) {
  auto N =
      std::make_shared<GraphNode>(weak_from_this(), std::move(P), NextIndex++);
  for (GraphNode *D : Dependencies)
    addEdge(*D, *N);
  Nodes.push_back(N);
  if (Register)
    HandleRegistry::get().add(N);
  return *N;
}

void Graph::remove(GraphNode &N) {
  for (GraphNode *D : std::vector<GraphNode *>(N.Dependencies))
    removeEdge(*D, N);
  for (GraphNode *D : std::vector<GraphNode *>(N.Dependents))
    removeEdge(N, *D);
  if (N.Params.Child)
    N.Params.Child->releaseHandles();
  HandleRegistry::get().remove(&N);
  std::erase_if(Nodes, [&](const auto &P) { return P.get() == &N; });
}

bool Graph::addEdge(GraphNode &From, GraphNode &To) {
  if (std::find(To.Dependencies.begin(), To.Dependencies.end(), &From) !=
      To.Dependencies.end())
    return false;
  To.Dependencies.push_back(&From);
  From.Dependents.push_back(&To);
  return true;
}

bool Graph::removeEdge(GraphNode &From, GraphNode &To) {
  auto It = std::find(To.Dependencies.begin(), To.Dependencies.end(), &From);
  if (It == To.Dependencies.end())
    return false;
  To.Dependencies.erase(It);
  std::erase(From.Dependents, &To);
  return true;
}

bool Graph::holds(const GraphNode &N) const {
  return std::any_of(Nodes.begin(), Nodes.end(),
                     [&](const auto &P) { return P.get() == &N; });
}

llvm::Expected<std::vector<GraphNode *>> Graph::topologicalOrder() const {
  // Kahn's algorithm; the queue is ordered by creation index.
  auto Later = [](GraphNode *A, GraphNode *B) { return A->Index > B->Index; };
  std::priority_queue<GraphNode *, std::vector<GraphNode *>, decltype(Later)>
      Ready(Later);
  std::unordered_map<const GraphNode *, size_t> Waiting;
  for (const auto &N : Nodes) {
    Waiting[N.get()] = N->Dependencies.size();
    if (N->Dependencies.empty())
      Ready.push(N.get());
  }
  std::vector<GraphNode *> Order;
  while (!Ready.empty()) {
    GraphNode *N = Ready.top();
    Ready.pop();
    Order.push_back(N);
    for (GraphNode *D : N->Dependents)
      if (--Waiting[D] == 0)
        Ready.push(D);
  }
  CU_INVALID_IF(Order.size() != Nodes.size(), CUDA_ERROR_INVALID_VALUE,
                "The graph's dependencies form a cycle ({0} of its {1} nodes "
                "lie on or behind it).",
                Nodes.size() - Order.size(), Nodes.size());
  return Order;
}

std::shared_ptr<Graph> Graph::clone(bool Register) const {
  auto Copy = std::make_shared<Graph>();
  std::unordered_map<const GraphNode *, GraphNode *> Map;
  for (const auto &N : Nodes) {
    NodeParams P = N->Params;
    if (P.Child) {
      std::lock_guard<std::mutex> Lock(P.Child->Mutex);
      P.Child = P.Child->clone(Register);
      if (Register)
        HandleRegistry::get().add(P.Child);
    }
    GraphNode &C = Copy->add(std::move(P), {}, Register);
    C.Origin = N.get();
    Map[N.get()] = &C;
  }
  for (const auto &N : Nodes)
    for (GraphNode *D : N->Dependencies)
      Copy->addEdge(*Map[D], *Map[N.get()]);
  Copy->NextIndex = NextIndex;
  Copy->UserObjects = UserObjects.copy();
  return Copy;
}

void Graph::releaseHandles() {
  for (const auto &N : Nodes) {
    if (N->Params.Child)
      N->Params.Child->releaseHandles();
    HandleRegistry::get().remove(N.get());
  }
  HandleRegistry::get().remove(this);
}

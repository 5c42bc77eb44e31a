//===- GraphExec.h - Executable graphs ------------------------*- C++ -*-===//
//
// cuGraphInstantiate turns a graph into a plan: its nodes in an order that
// respects every dependency, each made ready to run (kernels validated and
// prepared, copies and memsets validated). A launch issues the plan to a
// stream: consecutive kernels, copies and memsets as one task, host
// functions as tasks of their own (on the stream's worker), event records
// and waits as the stream's own. Setting a node's parameters replaces the
// plan, so launches already issued keep the one they were issued with.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_GRAPHEXEC_H
#define CUCPU_DRIVER_CORE_GRAPHEXEC_H

#include "core/Graph.h"
#include "core/GraphAllocation.h"
#include "core/Object.h"
#include "core/WorkQueue.h"

#include <memory>
#include <mutex>
#include <vector>

namespace cucpu {

class Context;

/// One thing a launch of an executable graph does.
struct GraphStep {
  enum class StepKind {
    Work,   ///< A kernel, copy or memset: runs on any thread of the stream.
    Host,   ///< A host function: runs on the stream's worker.
    Record, ///< Records Ev in the stream.
    Wait    ///< Makes the stream wait for Ev's last record.
  };
  StepKind Kind = StepKind::Work;
  std::shared_ptr<llvm::unique_function<void()>> Run;
  std::shared_ptr<Event> Ev;
  /// The node of the instantiated graph the step comes from (null inside a
  /// child graph).
  const GraphNode *Source = nullptr;
  /// False while its node is disabled (cuGraphNodeSetEnabled): a launch
  /// then skips it, as if the node were empty.
  bool Enabled = true;
};

/// What a launch does to the memory of allocation nodes: an allocation
/// node makes it live, a free node ends that (GraphAllocation.h).
struct GraphMemoryEffect {
  std::shared_ptr<GraphAllocation> Allocation;
  bool Frees = false;
};

/// What one launch runs, in order.
struct GraphPlan {
  std::vector<GraphStep> Steps;
  /// The allocation and free nodes, in the order of Steps. Their memory
  /// stays while a launch that holds the plan may use it.
  std::vector<GraphMemoryEffect> MemoryEffects;
  /// References to the graph's user objects, kept while a launch that
  /// holds the plan may use them.
  std::shared_ptr<UserObjectRefs> UserObjects;
};

/// An instantiated graph (CUgraphExec).
class GraphExec : public Object {
public:
  static constexpr ObjectKind Kind = ObjectKind::GraphExec;

  GraphExec(std::shared_ptr<Context> Owner, std::shared_ptr<Graph> Snapshot,
            GraphPlan Plan, unsigned long long Flags);

  /// The context the graph was instantiated in (null once destroyed).
  std::shared_ptr<Context> context() const { return Owner.lock(); }
  unsigned long long flags() const { return Flags; }
  /// A copy of the graph as instantiated (or last updated); its nodes'
  /// Origin are the nodes of the graph the program holds.
  std::shared_ptr<Graph> snapshot() const;
  /// The plan the next launch runs.
  std::shared_ptr<const GraphPlan> plan() const;

  /// Issues one launch to \p Queue, after the previous launch of this
  /// graph, whichever stream it went to ("each launch is ordered behind ...
  /// any previous launches of hGraphExec", cuGraphLaunch).
  void launch(WorkQueue &Queue);
  /// Replaces the step that comes from node \p Source with \p Step.
  void replace(const GraphNode *Source, GraphStep Step);
  /// Enables or disables the steps that come from node \p Source, from the
  /// next launch on (cuGraphNodeSetEnabled).
  void setEnabled(const GraphNode *Source, bool Enabled);
  /// Whether the steps from node \p Source run (cuGraphNodeGetEnabled).
  bool enabled(const GraphNode *Source) const;
  /// Replaces the whole plan and snapshot (cuGraphExecUpdate).
  void reset(std::shared_ptr<Graph> Snapshot, GraphPlan Plan);

private:
  std::weak_ptr<Context> Owner;
  unsigned long long Flags;
  mutable std::mutex Mutex;
  std::shared_ptr<Graph> Snapshot;
  std::shared_ptr<const GraphPlan> Plan;
  /// Reached when the last launch issued has run.
  QueuePoint LastLaunch;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_GRAPHEXEC_H

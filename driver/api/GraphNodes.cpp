//===- GraphNodes.cpp - Graph handles and node parameters -----------------===//
#include "api/GraphNodes.h"

#include "api/CopyRegion.h"
#include "api/Handles.h"
#include "api/Kernels.h"
#include "api/StreamWork.h"
#include "core/Error.h"
#include "core/Launcher.h"

using namespace cucpu;
using namespace cucpu::api;

namespace {
template <typename T>
llvm::Expected<std::shared_ptr<T>> lookupGraphObject(const void *H,
                                                     const char *What) {
  return lookupHandle<T>(H, {What, CUDA_ERROR_INVALID_VALUE});
}

/// Wraps work that may be empty (an operation with nothing to do).
RecordedWork shareWork(WorkQueue::Task Work) {
  if (!Work)
    return std::make_shared<llvm::unique_function<void()>>([] {});
  return std::make_shared<llvm::unique_function<void()>>(std::move(Work));
}

RecordedWork noWork() { return shareWork(nullptr); }

LaunchRequest requestFor(const KernelNodeParams &K) {
  LaunchRequest R;
  R.Grid = K.Grid;
  R.Block = K.Block;
  R.DynamicShared = K.SharedBytes;
  R.Params.assign(K.Buffer.begin(), K.Buffer.end());
  return R;
}

llvm::Error appendSteps(const Graph &G, bool TopLevel, GraphPlan &Plan) {
  CU_TRY_ASSIGN(std::vector<GraphNode *> Order, G.topologicalOrder());
  for (GraphNode *N : Order) {
    CUgraphNodeType Type = N->Params.Type;
    if (Type == CU_GRAPH_NODE_TYPE_GRAPH) {
      std::lock_guard<std::mutex> Lock(N->Params.Child->Mutex);
      CU_TRY(appendSteps(*N->Params.Child, false, Plan));
      continue;
    }
    if (Type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
        Type == CU_GRAPH_NODE_TYPE_MEM_FREE) {
      CU_INVALID_IF(!TopLevel, CUDA_ERROR_NOT_SUPPORTED,
                    "Memory allocation and free nodes in child graphs are "
                    "not supported.");
      Plan.MemoryEffects.push_back(
          {N->Params.Allocation, Type == CU_GRAPH_NODE_TYPE_MEM_FREE});
    }
    CU_TRY_ASSIGN(GraphStep Step, stepFor(N->Params));
    Step.Source = TopLevel ? N->Origin : nullptr;
    Plan.Steps.push_back(std::move(Step));
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<std::shared_ptr<Graph>> api::lookupGraph(CUgraph H) {
  return lookupGraphObject<Graph>(H, "graph");
}

llvm::Expected<std::shared_ptr<GraphNode>> api::lookupNode(CUgraphNode H) {
  return lookupGraphObject<GraphNode>(H, "graph node");
}

llvm::Expected<std::shared_ptr<GraphExec>> api::lookupExec(CUgraphExec H) {
  return lookupGraphObject<GraphExec>(H, "executable graph");
}

llvm::Expected<KernelNodeParams>
api::kernelNodeParams(const CUDA_KERNEL_NODE_PARAMS &P) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
  CUfunction H = P.func ? P.func : reinterpret_cast<CUfunction>(P.kern);
  CU_INVALID_IF(!H, CUDA_ERROR_INVALID_VALUE,
                "The kernel node names no function (func and kern are "
                "NULL).");
  CU_TRY_ASSIGN(std::shared_ptr<Function> F, launchableFunction(H, Ctx));
  llvm::SmallVector<char, 128> Buffer;
  CU_TRY(gatherLaunchParams(*F, P.kernelParams, P.extra, Buffer));
  KernelNodeParams K;
  K.F = F;
  K.Grid = {P.gridDimX, P.gridDimY, P.gridDimZ};
  K.Block = {P.blockDimX, P.blockDimY, P.blockDimZ};
  K.SharedBytes = P.sharedMemBytes;
  K.Buffer.assign(Buffer.begin(), Buffer.end());
  CU_TRY(prepareLaunch(*F, Ctx, requestFor(K)).takeError());
  return K;
}

llvm::Expected<RecordedWork> api::recordCopy(const CUDA_MEMCPY3D &P) {
  WorkRecorder Recorder;
  CU_TRY(copy3D(&P));
  return shareWork(std::move(Recorder.Work));
}

llvm::Expected<RecordedWork>
api::recordMemset(const CUDA_MEMSET_NODE_PARAMS &P) {
  WorkRecorder Recorder;
  CU_TRY(memsetNode(P));
  return shareWork(std::move(Recorder.Work));
}

llvm::Expected<GraphStep> api::stepFor(const NodeParams &P) {
  using StepKind = GraphStep::StepKind;
  GraphStep Step;
  switch (P.Type) {
  case CU_GRAPH_NODE_TYPE_KERNEL: {
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    LaunchRequest R = requestFor(P.Kernel);
    R.Cooperative =
        P.Attributes.get(CU_LAUNCH_ATTRIBUTE_COOPERATIVE).cooperative != 0;
    if (R.Cooperative)
      CU_TRY(checkCooperativeFit(*P.Kernel.F, Ctx->device(), R));
    CU_TRY_ASSIGN(std::shared_ptr<PreparedLaunch> L,
                  prepareLaunch(*P.Kernel.F, Ctx, std::move(R)));
    // The module and context must outlive every launch of the plan.
    Step.Run = std::make_shared<llvm::unique_function<void()>>(
        [L, Mod = P.Kernel.F->module(), Ctx] { runPrepared(*L); });
    return Step;
  }
  case CU_GRAPH_NODE_TYPE_MEMCPY: {
    if (P.Recorded) {
      Step.Run = P.Recorded;
      return Step;
    }
    CU_TRY_ASSIGN(Step.Run, recordCopy(P.Copy));
    return Step;
  }
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    if (P.Recorded) {
      Step.Run = P.Recorded;
      return Step;
    }
    CU_TRY_ASSIGN(Step.Run, recordMemset(P.Memset));
    return Step;
  }
  case CU_GRAPH_NODE_TYPE_HOST: {
    CU_TRY_ASSIGN(std::shared_ptr<Context> Ctx, current::context());
    Step.Kind = StepKind::Host;
    // Host functions run with the graph's context current, as stream host
    // functions do.
    Step.Run = std::make_shared<llvm::unique_function<void()>>(
        [Host = P.Host, Owner = std::weak_ptr<Context>(Ctx)] {
          runWithContext(Owner, [&](const std::shared_ptr<Context> &) {
            Host.fn(Host.userData);
          });
        });
    return Step;
  }
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
    Step.Kind = StepKind::Record;
    Step.Ev = P.Ev;
    return Step;
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
    Step.Kind = StepKind::Wait;
    Step.Ev = P.Ev;
    return Step;
  case CU_GRAPH_NODE_TYPE_EMPTY:
  // An allocation's memory exists from the node's creation and a free
  // leaves it to the graph (GraphAllocation.h): launches only check and
  // change its state (cuGraphLaunch).
  case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
  case CU_GRAPH_NODE_TYPE_MEM_FREE:
    Step.Run = noWork();
    return Step;
  default:
    return makeError(CUDA_ERROR_NOT_SUPPORTED,
                     llvm::formatv("cucpu does not run graph nodes of type "
                                   "{0}.",
                                   static_cast<int>(P.Type))
                         .str());
  }
}

llvm::Expected<GraphPlan> api::planFor(const Graph &G) {
  GraphPlan Plan;
  CU_TRY(appendSteps(G, true, Plan));
  Plan.UserObjects = std::make_shared<UserObjectRefs>(G.UserObjects.copy());
  return Plan;
}

//===- GraphExec.cpp - Executable graphs
//------------------------------------===//
#include "core/GraphExec.h"

#include "core/Event.h"

using namespace cucpu;

GraphExec::GraphExec(std::shared_ptr<Context> Owner,
                     std::shared_ptr<Graph> Snapshot, GraphPlan Plan,
                     unsigned long long Flags)
    : Object(Kind), Owner(Owner), Flags(Flags), Snapshot(std::move(Snapshot)),
      Plan(std::make_shared<const GraphPlan>(std::move(Plan))) {}

std::shared_ptr<Graph> GraphExec::snapshot() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Snapshot;
}

std::shared_ptr<const GraphPlan> GraphExec::plan() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Plan;
}

void GraphExec::launch(WorkQueue &Queue) {
  // Held while issuing, so that launches from several threads are ordered
  // as they take it.
  std::lock_guard<std::mutex> Lock(Mutex);
  std::shared_ptr<const GraphPlan> P = Plan;
  if (LastLaunch.Queue.get() != &Queue && !LastLaunch.reached())
    Queue.enqueue([] {}, TaskRunner::Anyone, &LastLaunch);
  using StepKind = GraphStep::StepKind;
  const std::vector<GraphStep> &Steps = P->Steps;
  for (size_t I = 0; I < Steps.size();) {
    const GraphStep &S = Steps[I];
    switch (S.Kind) {
    case StepKind::Work: {
      size_t End = I + 1;
      while (End < Steps.size() && Steps[End].Kind == StepKind::Work)
        ++End;
      Queue.enqueue([P, I, End] {
        for (size_t K = I; K < End; ++K)
          if (P->Steps[K].Enabled)
            (*P->Steps[K].Run)();
      });
      I = End;
      continue;
    }
    case StepKind::Host:
      Queue.enqueue([P, I] { (*P->Steps[I].Run)(); }, TaskRunner::WorkerOnly);
      break;
    case StepKind::Record:
      Event::record(S.Ev, Queue);
      break;
    case StepKind::Wait:
      S.Ev->orderBefore(Queue);
      break;
    }
    ++I;
  }
  LastLaunch = Queue.tail();
}

void GraphExec::replace(const GraphNode *Source, GraphStep Step) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Next = std::make_shared<GraphPlan>(*Plan);
  for (GraphStep &S : Next->Steps)
    if (S.Source == Source) {
      bool Enabled = S.Enabled;
      S = Step;
      S.Enabled = Enabled;
    }
  Plan = std::move(Next);
}

void GraphExec::setEnabled(const GraphNode *Source, bool Enabled) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto Next = std::make_shared<GraphPlan>(*Plan);
  for (GraphStep &S : Next->Steps)
    if (S.Source == Source)
      S.Enabled = Enabled;
  Plan = std::move(Next);
}

bool GraphExec::enabled(const GraphNode *Source) const {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (const GraphStep &S : Plan->Steps)
    if (S.Source == Source)
      return S.Enabled;
  return true;
}

void GraphExec::reset(std::shared_ptr<Graph> NewSnapshot, GraphPlan NewPlan) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Snapshot = std::move(NewSnapshot);
  Plan = std::make_shared<const GraphPlan>(std::move(NewPlan));
}

//===- WorkQueue.cpp - In-order queues of asynchronous work ---------------===//
#include "core/WorkQueue.h"

#include "core/Error.h"
#include "core/WorkerThreads.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <thread>

using namespace cucpu;

namespace {
/// The state every queue shares: one mutex orders all queues, and Progress
/// wakes whoever waits for a task of any queue to complete.
struct Scheduler {
  AdaptiveMutex Mutex;
  std::condition_variable_any Progress;
  /// Threads blocked on Progress (changed under Mutex, read without it by
  /// a worker between the tasks of a batch).
  std::atomic<unsigned> Waiters{0};
};

/// Never destroyed: workers may still wait on it while the process runs its
/// static destructors.
Scheduler &scheduler() {
  static Scheduler *S = new Scheduler;
  return *S;
}

/// How long a worker with nothing to do stays before its thread ends.
constexpr auto WorkerLinger = std::chrono::milliseconds(100);
/// How long a worker that ran out of work, and a thread that waits for a
/// task, poll before they sleep: work issued back to back then costs no
/// wake-up (a futex round trip is several microseconds).
constexpr auto SpinBeforeSleep = std::chrono::microseconds(50);

/// How long after the last issue to a queue its worker leaves the queue's
/// tasks to the issuing thread: a host thread that synchronizes right after
/// issuing runs the work itself, without a hand-over between threads, and a
/// burst of issues is not slowed by a worker taking tasks from under it.
/// Once the worker holds the lock, a task waits at most MaxHoldBack that
/// way; a burst that never pauses for HandOverGrace fills the queue, and
/// then its issuer runs tasks itself (MaxPendingTasks).
constexpr auto HandOverGrace = std::chrono::microseconds(2);
constexpr auto MaxHoldBack = std::chrono::microseconds(1000);
/// Tasks a queue holds before the thread issuing more runs some itself (as
/// NVIDIA's driver blocks a launch when its queue is full): memory stays
/// bounded whatever a program issues without synchronizing.
constexpr uint64_t MaxPendingTasks = 1024;

/// Tells the core that this thread spins.
inline void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Polls \p Done until it holds or SpinBeforeSleep has passed.
template <typename Pred> bool spinUntil(Pred Done) {
  auto End = std::chrono::steady_clock::now() + SpinBeforeSleep;
  for (unsigned I = 0;; ++I) {
    if (Done())
      return true;
    if ((I & 63) == 63 && std::chrono::steady_clock::now() >= End)
      return false;
    spinPause();
  }
}

thread_local bool InHostFunction = false;

void waitForProgress(SchedulerLock &Lock) {
  Scheduler &S = scheduler();
  ++S.Waiters;
  S.Progress.wait(Lock);
  --S.Waiters;
}

bool allReached(const std::vector<QueuePoint> &Points) {
  return llvm::all_of(Points, [](const QueuePoint &P) { return P.reached(); });
}
} // namespace

bool QueuePoint::reached() const {
  return !Queue || Queue->Completed.load(std::memory_order_acquire) >= Ticket;
}

//===----------------------------------------------------------------------===//
// QueueGroup
//===----------------------------------------------------------------------===//

QueueGroup::QueueGroup()
    : Legacy(std::make_shared<WorkQueue>(*this, QueueKind::Legacy)) {}

QueueGroup::~QueueGroup() = default;

std::shared_ptr<WorkQueue> QueueGroup::create(QueueKind Kind) {
  auto Q = std::make_shared<WorkQueue>(*this, Kind);
  std::lock_guard Lock(scheduler().Mutex);
  llvm::erase_if(Streams, [](const auto &W) { return W.expired(); });
  Streams.push_back(Q);
  return Q;
}

template <typename Fn> void QueueGroup::forEachQueue(Fn Visit) const {
  Visit(Legacy);
  for (const std::weak_ptr<WorkQueue> &W : Streams)
    if (std::shared_ptr<WorkQueue> Q = W.lock())
      Visit(Q);
}

llvm::Error QueueGroup::drain() {
  CU_TRY(WorkQueue::checkMayWait());
  llvm::SmallVector<QueuePoint, 4> Tails;
  {
    std::lock_guard Lock(scheduler().Mutex);
    forEachQueue([&](const std::shared_ptr<WorkQueue> &Q) {
      if (Q->Completed.load() != Q->Issued)
        Tails.push_back({Q, Q->Issued});
    });
  }
  for (const QueuePoint &P : Tails)
    CU_TRY(WorkQueue::wait(P));
  return llvm::Error::success();
}

llvm::Error QueueGroup::waitForLegacy() {
  // An empty slot in the legacy stream waits for exactly what the legacy
  // stream's next operation would.
  return Legacy->runInOrder([] {});
}

bool QueueGroup::legacyIdle() const {
  std::lock_guard Lock(scheduler().Mutex);
  bool Idle = true;
  forEachQueue([&](const std::shared_ptr<WorkQueue> &Q) {
    Idle &=
        Q->Kind == QueueKind::NonBlocking || Q->Completed.load() == Q->Issued;
  });
  return Idle;
}

void QueueGroup::close() {
  std::lock_guard Lock(scheduler().Mutex);
  forEachQueue([](const std::shared_ptr<WorkQueue> &Q) {
    Q->Closed = true;
    if (Q->WorkerSleeping)
      Q->WorkerWake.notify_one();
  });
}

//===----------------------------------------------------------------------===//
// WorkQueue
//===----------------------------------------------------------------------===//

WorkQueue::WorkQueue(QueueGroup &Group, QueueKind Kind)
    : Group(Group), Kind(Kind) {}

WorkQueue::~WorkQueue() = default;

llvm::Error WorkQueue::checkMayWait() {
  CU_INVALID_IF(InHostFunction, CUDA_ERROR_NOT_PERMITTED,
                "A stream callback or host function cannot wait for stream "
                "work (it could be waiting for itself).");
  return llvm::Error::success();
}

uint64_t WorkQueue::issue(Pending P, const QueuePoint *After) {
  P.Ticket = ++Issued;
  P.IssuedAt = std::chrono::steady_clock::now();
  LastIssue.store(P.IssuedAt.time_since_epoch().count(),
                  std::memory_order_relaxed);
  auto WaitForTail = [&](const std::shared_ptr<WorkQueue> &Q) {
    if (Q->Completed.load() != Q->Issued)
      P.Waits.push_back({Q, Q->Issued});
  };
  if (Kind == QueueKind::Legacy) {
    for (const std::weak_ptr<WorkQueue> &W : Group.Streams)
      if (std::shared_ptr<WorkQueue> Q = W.lock())
        if (Q->Kind == QueueKind::Blocking)
          WaitForTail(Q);
  } else if (Kind == QueueKind::Blocking) {
    WaitForTail(Group.Legacy);
  }
  if (After && !After->reached())
    P.Waits.push_back(*After);
  uint64_t Ticket = P.Ticket;
  Tasks.push_back(std::move(P));
  HasTasks.store(true, std::memory_order_relaxed);
  return Ticket;
}

void WorkQueue::popFront() {
  Tasks.pop_front();
  HasTasks.store(!Tasks.empty(), std::memory_order_relaxed);
}

bool WorkQueue::frontRunnable() const {
  return !Running && !Tasks.empty() && allReached(Tasks.front().Waits);
}

void WorkQueue::runFront(SchedulerLock &Lock) {
  Pending P = std::move(Tasks.front());
  popFront();
  Running = true;
  Lock.unlock();
  runTask(P);
  Lock.lock();
  complete(P.Ticket);
}

void WorkQueue::runTask(Pending &P) {
  if (P.Runner == TaskRunner::WorkerOnly) {
    InHostFunction = true;
    P.Fn();
    InHostFunction = false;
  } else {
    P.Fn();
  }
  // What the task held goes before the lock is taken again.
  P.Fn = nullptr;
  P.Waits.clear();
}

void WorkQueue::runBatch(SchedulerLock &Lock) {
  // Runnable tasks at the front, taken in one go: a worker draining a long
  // queue takes the lock once per batch, not twice per task.
  constexpr size_t MaxBatch = 32;
  llvm::SmallVector<Pending, 8> Batch;
  while (!Tasks.empty() && Batch.size() < MaxBatch && Tasks.front().Fn &&
         allReached(Tasks.front().Waits)) {
    Batch.push_back(std::move(Tasks.front()));
    popFront();
  }
  Running = true;
  Lock.unlock();
  Scheduler &S = scheduler();
  for (Pending &P : Batch) {
    runTask(P);
    if (&P == &Batch.back())
      break;
    Completed.store(P.Ticket, std::memory_order_release);
    // Spinning waiters see the store; sleeping ones need the lock.
    if (S.Waiters.load()) {
      Lock.lock();
      S.Progress.notify_all();
      Lock.unlock();
    }
  }
  Lock.lock();
  complete(Batch.back().Ticket);
}

void WorkQueue::complete(uint64_t Ticket) {
  Completed.store(Ticket, std::memory_order_release);
  Running = false;
  Scheduler &S = scheduler();
  if (S.Waiters)
    S.Progress.notify_all();
}

QueuePoint WorkQueue::enqueue(Task Fn, TaskRunner Runner,
                              const QueuePoint *After) {
  SchedulerLock Lock(scheduler().Mutex);
  uint64_t Ticket = issue(Pending{0, {}, std::move(Fn), Runner, {}}, After);
  bool Full = Ticket - Completed.load() > MaxPendingTasks;
  wakeWorker(Lock);
  QueuePoint Issued{shared_from_this(), Ticket};
  if (Full && !InHostFunction)
    llvm::consumeError(wait({Issued.Queue, Ticket - MaxPendingTasks}));
  return Issued;
}

QueuePoint WorkQueue::enqueueOrRun(Task Fn) {
  SchedulerLock Lock(scheduler().Mutex);
  uint64_t Ticket =
      issue(Pending{0, {}, std::move(Fn), TaskRunner::Anyone, {}}, nullptr);
  if (Tasks.size() == 1 && frontRunnable())
    runFront(Lock);
  else
    wakeWorker(Lock);
  return {shared_from_this(), Ticket};
}

void WorkQueue::wakeWorker(SchedulerLock &Lock) {
  bool Start = !WorkerAlive;
  WorkerAlive = true;
  if (!Start && WorkerSleeping)
    WorkerWake.notify_one();
  Lock.unlock();
  if (Start)
    startWorkerThread(
        [Self = shared_from_this()]() mutable { workerMain(std::move(Self)); });
}

llvm::Error WorkQueue::runInOrder(llvm::function_ref<void()> Fn) {
  CU_TRY(checkMayWait());
  SchedulerLock Lock(scheduler().Mutex);
  uint64_t Mine = issue(Pending{}, nullptr);
  bool GaveUpSpinning = false;
  for (;;) {
    const Pending &Front = Tasks.front();
    if (Front.Ticket == Mine && frontRunnable()) {
      popFront();
      Running = true;
      Lock.unlock();
      Fn();
      Lock.lock();
      complete(Mine);
      return llvm::Error::success();
    }
    // Work issued before this slot that no worker has taken yet runs here.
    if (frontRunnable() && Front.Fn && Front.Runner == TaskRunner::Anyone) {
      runFront(Lock);
      continue;
    }
    awaitProgress(Lock, GaveUpSpinning);
  }
}

void WorkQueue::awaitProgress(SchedulerLock &Lock, bool &GaveUpSpinning) {
  // A task of this queue is running elsewhere: it is often about to finish.
  if (Running && !GaveUpSpinning) {
    uint64_t Seen = Completed.load();
    Lock.unlock();
    GaveUpSpinning = !spinUntil(
        [&] { return Completed.load(std::memory_order_acquire) != Seen; });
    Lock.lock();
    // Whatever happened while the lock was free, the caller looks again
    // before it sleeps.
    return;
  }
  waitForProgress(Lock);
}

QueuePoint WorkQueue::tail() {
  std::lock_guard Lock(scheduler().Mutex);
  return {shared_from_this(), Issued};
}

bool WorkQueue::idle() const {
  std::lock_guard Lock(scheduler().Mutex);
  return Completed.load() == Issued;
}

llvm::Error WorkQueue::wait(const QueuePoint &P) {
  if (P.reached())
    return llvm::Error::success();
  CU_TRY(checkMayWait());
  SchedulerLock Lock(scheduler().Mutex);
  WorkQueue &Q = *P.Queue;
  bool GaveUpSpinning = false;
  while (!P.reached()) {
    if (Q.frontRunnable() && Q.Tasks.front().Fn &&
        Q.Tasks.front().Runner == TaskRunner::Anyone &&
        Q.Tasks.front().Ticket <= P.Ticket) {
      Q.runFront(Lock);
      continue;
    }
    Q.awaitProgress(Lock, GaveUpSpinning);
  }
  return llvm::Error::success();
}

void WorkQueue::close() {
  std::lock_guard Lock(scheduler().Mutex);
  Closed = true;
  if (WorkerSleeping)
    WorkerWake.notify_one();
}

bool WorkQueue::spinForWork() const {
  using Clock = std::chrono::steady_clock;
  Clock::time_point IdleSince = Clock::now();
  for (unsigned I = 0;; ++I) {
    Clock::time_point Now = Clock::now();
    if (HasTasks.load(std::memory_order_relaxed)) {
      // Work left to its issuer for a moment (HandOverGrace) is often done
      // by then, and this worker never touches the lock.
      Clock::time_point LastIssue(
          Clock::duration(this->LastIssue.load(std::memory_order_relaxed)));
      if (Now >= LastIssue + HandOverGrace)
        return true;
      IdleSince = Now;
    } else if (Now - IdleSince >= SpinBeforeSleep) {
      return false;
    }
    spinPause();
  }
}

void WorkQueue::workerMain(std::shared_ptr<WorkQueue> Self) {
  SchedulerLock Lock(scheduler().Mutex);
  for (;;) {
    if (Self->frontRunnable() && Self->Tasks.front().Fn) {
      using Clock = std::chrono::steady_clock;
      Clock::time_point Latest = Self->Tasks.front().IssuedAt + MaxHoldBack;
      auto ReadyAt = [&] {
        Clock::time_point LastIssue(
            Clock::duration(Self->LastIssue.load(std::memory_order_relaxed)));
        return std::min(LastIssue + HandOverGrace, Latest);
      };
      if (Clock::now() < ReadyAt()) {
        uint64_t Ticket = Self->Tasks.front().Ticket;
        Lock.unlock();
        while (Clock::now() < ReadyAt() &&
               Self->Completed.load(std::memory_order_relaxed) < Ticket)
          spinPause();
        Lock.lock();
        continue;
      }
      Self->runBatch(Lock);
      continue;
    }
    if (Self->Tasks.empty()) {
      if (Self->Closed)
        break;
      Lock.unlock();
      bool WorkArrived = Self->spinForWork();
      Lock.lock();
      if (WorkArrived || !Self->Tasks.empty() || Self->Closed)
        continue;
      Self->WorkerSleeping = true;
      bool Woken = Self->WorkerWake.wait_for(Lock, WorkerLinger, [&] {
        return !Self->Tasks.empty() || Self->Closed;
      });
      Self->WorkerSleeping = false;
      if (!Woken)
        break;
      continue;
    }
    // The next task waits for another queue, a runInOrder() slot or a
    // helping thread.
    waitForProgress(Lock);
  }
  Self->WorkerAlive = false;
  Lock.unlock();
}

//===- WorkQueue.h - In-order queues of asynchronous work -------*- C++ -*-===//
//
// Every stream, and every context's legacy default stream, is a WorkQueue:
// tasks run one after another in issue order, on a worker thread the queue
// starts when work arrives (and that ends once the queue has been idle for a
// while). Queues of a context form a QueueGroup, which adds the legacy
// stream's rules: work issued to the legacy stream waits for everything
// issued before it to the group's blocking streams, and work issued to a
// blocking stream waits for everything issued before it to the legacy stream.
// Non-blocking streams wait for neither.
//
// A thread that waits for a queue runs the queue's next tasks itself when no
// worker has taken them yet (host functions excepted), so a launch followed
// by a synchronization costs no thread switch.
//
// Tickets number the tasks of a queue from 1; a QueuePoint (queue, ticket) is
// reached once that task has completed. One process-wide mutex orders all
// queues, which makes the legacy stream's cross-queue waits exact.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_WORKQUEUE_H
#define CUCPU_DRIVER_CORE_WORKQUEUE_H

#include "core/AdaptiveMutex.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace cucpu {

class WorkQueue;
/// The lock of the mutex that orders all queues.
using SchedulerLock = std::unique_lock<AdaptiveMutex>;

/// A position in a queue: reached once its task \p Ticket has completed.
/// Ticket 0 is always reached.
struct QueuePoint {
  std::shared_ptr<WorkQueue> Queue;
  uint64_t Ticket = 0;

  bool reached() const;
};

/// How a queue is ordered against the other queues of its group.
enum class QueueKind {
  Legacy,     ///< The context's legacy default stream (stream 0).
  Blocking,   ///< A stream created with CU_STREAM_DEFAULT.
  NonBlocking ///< A stream created with CU_STREAM_NON_BLOCKING.
};

/// Who may run a task.
enum class TaskRunner {
  Anyone,    ///< The worker, or a thread waiting for the queue.
  WorkerOnly ///< Only the queue's worker (host functions, callbacks).
};

/// The queues of one context.
class QueueGroup {
public:
  QueueGroup();
  ~QueueGroup();
  QueueGroup(const QueueGroup &) = delete;
  QueueGroup &operator=(const QueueGroup &) = delete;

  /// The legacy default stream.
  const std::shared_ptr<WorkQueue> &legacy() const { return Legacy; }
  /// A new stream's queue.
  std::shared_ptr<WorkQueue> create(QueueKind Kind);

  /// Waits until every task issued so far to any queue of the group has
  /// completed, helping where it can (see WorkQueue::checkMayWait).
  llvm::Error drain();
  /// Waits for the legacy stream as cuStreamSynchronize(0) does: its own
  /// tasks and those issued before now to the blocking streams.
  llvm::Error waitForLegacy();
  /// Whether waitForLegacy() would return at once.
  bool legacyIdle() const;
  /// Lets the group's workers end once their queues are drained (the
  /// context is destroyed; the caller has drained it).
  void close();

private:
  friend class WorkQueue;
  /// Calls \p Visit for every queue of the group, the legacy one first
  /// (under the scheduler's mutex); destroyed streams' queues drop out once
  /// they have drained.
  template <typename Fn> void forEachQueue(Fn Visit) const;

  std::shared_ptr<WorkQueue> Legacy;
  std::vector<std::weak_ptr<WorkQueue>> Streams;
};

/// One in-order queue of tasks.
class WorkQueue : public std::enable_shared_from_this<WorkQueue> {
public:
  using Task = llvm::unique_function<void()>;

  WorkQueue(QueueGroup &Group, QueueKind Kind);
  ~WorkQueue();
  WorkQueue(const WorkQueue &) = delete;
  WorkQueue &operator=(const WorkQueue &) = delete;

  QueueKind kind() const { return Kind; }

  /// Appends \p Fn: it runs after every task issued before it to this queue,
  /// after what the queue's kind implies, and after \p After (when given).
  /// Returns at once; the returned point is reached when \p Fn has run.
  QueuePoint enqueue(Task Fn, TaskRunner Runner = TaskRunner::Anyone,
                     const QueuePoint *After = nullptr);
  /// Runs \p Fn at once on the calling thread if the queue is idle and free
  /// to run it, else enqueues it (markers such as event records).
  QueuePoint enqueueOrRun(Task Fn);
  /// Runs \p Fn on the calling thread in this queue's order: once everything
  /// issued before it is done, and before anything issued after it starts.
  llvm::Error runInOrder(llvm::function_ref<void()> Fn);

  /// The point after every task issued to this queue so far.
  QueuePoint tail();
  /// Whether every task issued to this queue so far has completed.
  bool idle() const;
  /// Blocks until \p P is reached, running P's queue's tasks meanwhile when
  /// they are free to run.
  static llvm::Error wait(const QueuePoint &P);

  /// CUDA_ERROR_NOT_PERMITTED on a thread that runs a host function: waiting
  /// there for stream work could wait for the host function itself. Every
  /// waiting operation checks this first.
  static llvm::Error checkMayWait();

  /// Lets the worker end once the queue is drained (stream destroyed).
  void close();

private:
  friend struct QueuePoint;
  friend class QueueGroup;
  /// A task not yet started.
  struct Pending {
    uint64_t Ticket = 0;
    std::vector<QueuePoint> Waits; ///< Points that must be reached first.
    Task Fn;                       ///< Empty for a runInOrder() slot.
    TaskRunner Runner = TaskRunner::Anyone;
    std::chrono::steady_clock::time_point IssuedAt;
  };

  uint64_t issue(Pending P, const QueuePoint *After);
  bool frontRunnable() const;
  void popFront();
  /// Waits until a task of any queue completes; spins first while a task of
  /// this queue runs on another thread (until a spin once times out).
  void awaitProgress(SchedulerLock &Lock, bool &GaveUpSpinning);
  /// Runs the front task on this thread (it is runnable).
  void runFront(SchedulerLock &Lock);
  /// Runs the runnable tasks at the front on this thread (the worker).
  void runBatch(SchedulerLock &Lock);
  /// Runs \p P's function and releases what it holds.
  static void runTask(Pending &P);
  void complete(uint64_t Ticket);
  /// Starts the worker, or wakes it; releases \p Lock.
  void wakeWorker(SchedulerLock &Lock);
  static void workerMain(std::shared_ptr<WorkQueue> Self);
  /// A worker without tasks polls, without the lock, for SpinBeforeSleep:
  /// true once there are tasks it should look at, false if none came.
  bool spinForWork() const;

  QueueGroup &Group;
  const QueueKind Kind;
  /// The last ticket handed out and the last one completed.
  uint64_t Issued = 0;
  /// Polled by spinning threads: each on a cache line of its own.
  alignas(64) std::atomic<uint64_t> Completed{0};
  std::deque<Pending> Tasks; ///< Not yet started, in ticket order.
  /// !Tasks.empty(), readable without the mutex (a spinning worker).
  alignas(64) std::atomic<bool> HasTasks{false};
  /// When work was last issued (steady_clock ticks).
  std::atomic<int64_t> LastIssue{0};
  alignas(64) bool Running = false; ///< A task of this queue is running.
  bool WorkerAlive = false;
  bool WorkerSleeping = false;
  bool Closed = false;
  std::condition_variable_any WorkerWake;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_WORKQUEUE_H

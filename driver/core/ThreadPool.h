//===- ThreadPool.h - The workers that run thread blocks --------*- C++ -*-===//
//
// One pool per device, created at the first launch and kept for the life of
// the process: a launch wakes the workers instead of creating threads. The
// calling thread works too, so a pool of W workers has W - 1 threads.
// Launches from several threads (kernels of different streams) run at the
// same time: an idle pool thread joins the running job with the fewest
// threads.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_THREADPOOL_H
#define CUCPU_DRIVER_CORE_THREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace cucpu {

/// A fixed set of threads shared by the jobs that run at the same time.
class ThreadPool {
public:
  /// Starts \p Workers - 1 threads (the caller of run() is the last worker).
  explicit ThreadPool(unsigned Workers);
  /// Stops and joins the threads.
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Workers, counting the caller.
  unsigned size() const { return static_cast<unsigned>(Threads.size()) + 1; }

  /// Runs \p Job on the calling thread and on each pool thread that is free
  /// to join it, and returns once every call has returned. \p Job hands out
  /// its work itself: once one call returns, no work is left for a call that
  /// would start later.
  void run(llvm::function_ref<void()> Job);

  /// The pool of \p Workers workers for device \p Ordinal (created once,
  /// never destroyed: stream workers may still use it during static
  /// destruction).
  static ThreadPool &forDevice(int Ordinal, unsigned Workers);

private:
  /// A job that has started and the pool threads inside it.
  struct ActiveJob {
    llvm::function_ref<void()> Fn;
    unsigned Inside = 0;    ///< Pool threads running Fn.
    bool Exhausted = false; ///< A call returned: nothing left to join.
  };

  void workerMain();
  /// Marks \p J exhausted and stops offering it (under Mutex).
  void retire(ActiveJob &J);

  std::vector<std::thread> Threads;
  std::mutex Mutex;
  std::condition_variable Wake;
  std::condition_variable Left;
  std::vector<ActiveJob *> Offered; ///< Jobs pool threads may join.
  bool Stopping = false;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_THREADPOOL_H

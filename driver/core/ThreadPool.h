//===- ThreadPool.h - The persistent workers that run thread blocks -*- C++
//-*-===//
//
// One pool per device, created at the first launch and kept for the life of
// the process: a launch wakes the workers instead of creating threads. The
// calling thread works too, so a pool of W workers has W - 1 threads.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_THREADPOOL_H
#define CUCPU_DRIVER_CORE_THREADPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace cucpu {

/// A fixed set of threads that run one job at a time, all together.
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

  /// Runs \p Job on every worker and on the calling thread, and returns once
  /// every call has returned. Jobs from several threads run one after the
  /// other.
  void run(llvm::function_ref<void()> Job);

  /// The pool of \p Workers workers for device \p Ordinal (created once).
  static ThreadPool &forDevice(int Ordinal, unsigned Workers);

private:
  void workerMain();

  std::vector<std::thread> Threads;
  std::mutex RunMutex; ///< One job at a time.
  std::mutex Mutex;
  std::condition_variable Wake;
  std::condition_variable Done;
  llvm::function_ref<void()> Current;
  uint64_t Generation = 0;
  unsigned Pending = 0;
  bool Stopping = false;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_THREADPOOL_H

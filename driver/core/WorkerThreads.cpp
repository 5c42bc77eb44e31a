//===- WorkerThreads.cpp - The threads of stream workers ------------------===//
#include "core/WorkerThreads.h"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using namespace cucpu;

namespace {
struct WorkerThread {
  std::thread Thread;
  /// Set as the thread's body returns: joining it then waits only for its
  /// exit.
  std::shared_ptr<std::atomic<bool>> Ended;
};

struct WorkerThreads {
  std::mutex Mutex;
  std::vector<WorkerThread> Running;

  /// Moves the threads that have ended out of Running (under Mutex).
  std::vector<std::thread> takeEnded() {
    std::vector<std::thread> Ended;
    for (auto It = Running.begin(); It != Running.end();) {
      if (It->Ended->load(std::memory_order_acquire)) {
        Ended.push_back(std::move(It->Thread));
        It = Running.erase(It);
      } else {
        ++It;
      }
    }
    return Ended;
  }
};

/// Never destroyed: workers may still run while the process runs its static
/// destructors (a joinable std::thread destroyed would terminate it).
WorkerThreads &workerThreads() {
  static WorkerThreads *W = [] {
    auto *Threads = new WorkerThreads;
    // At exit the threads left are detached rather than waited for: a
    // worker may still linger for work, and one never joined nor detached
    // is a leaked thread (ThreadSanitizer reports it).
    std::atexit([] {
      WorkerThreads &W = workerThreads();
      std::lock_guard Lock(W.Mutex);
      for (WorkerThread &T : W.Running)
        T.Thread.detach();
      W.Running.clear();
    });
    return Threads;
  }();
  return *W;
}

void join(std::vector<std::thread> &Threads) {
  for (std::thread &T : Threads)
    T.join();
}
} // namespace

void cucpu::startWorkerThread(llvm::unique_function<void()> Body) {
  WorkerThreads &W = workerThreads();
  auto Ended = std::make_shared<std::atomic<bool>>(false);
  std::vector<std::thread> Finished;
  {
    std::lock_guard Lock(W.Mutex);
    Finished = W.takeEnded();
    W.Running.push_back(
        {std::thread([Body = std::move(Body), Ended]() mutable {
           Body();
           Body = nullptr; // What it holds goes before the thread is ended.
           Ended->store(true, std::memory_order_release);
         }),
         Ended});
  }
  join(Finished);
}

bool cucpu::joinWorkerThreads(std::chrono::milliseconds Timeout) {
  WorkerThreads &W = workerThreads();
  auto Deadline = std::chrono::steady_clock::now() + Timeout;
  for (;;) {
    std::vector<std::thread> Finished;
    bool AllEnded;
    {
      std::lock_guard Lock(W.Mutex);
      Finished = W.takeEnded();
      AllEnded = W.Running.empty();
    }
    join(Finished);
    if (AllEnded)
      return true;
    if (std::chrono::steady_clock::now() >= Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

//===- ThreadPool.cpp - The persistent workers that run thread blocks -----===//
#include "core/ThreadPool.h"

#include <map>
#include <memory>

using namespace cucpu;

ThreadPool::ThreadPool(unsigned Workers) {
  for (unsigned I = 1; I < Workers; ++I)
    Threads.emplace_back([this] { workerMain(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard Lock(Mutex);
    Stopping = true;
  }
  Wake.notify_all();
  for (std::thread &T : Threads)
    T.join();
}

void ThreadPool::workerMain() {
  uint64_t Seen = 0;
  for (;;) {
    llvm::function_ref<void()> Job;
    {
      std::unique_lock Lock(Mutex);
      Wake.wait(Lock, [&] { return Stopping || Generation != Seen; });
      if (Stopping)
        return;
      Seen = Generation;
      Job = Current;
    }
    Job();
    std::lock_guard Lock(Mutex);
    if (--Pending == 0)
      Done.notify_one();
  }
}

void ThreadPool::run(llvm::function_ref<void()> Job) {
  std::lock_guard RunLock(RunMutex);
  if (Threads.empty()) {
    Job();
    return;
  }
  {
    std::lock_guard Lock(Mutex);
    Current = Job;
    Pending = static_cast<unsigned>(Threads.size());
    ++Generation;
  }
  Wake.notify_all();
  Job();
  std::unique_lock Lock(Mutex);
  Done.wait(Lock, [&] { return Pending == 0; });
}

ThreadPool &ThreadPool::forDevice(int Ordinal, unsigned Workers) {
  static std::mutex PoolsMutex;
  static std::map<int, std::unique_ptr<ThreadPool>> Pools;
  std::lock_guard Lock(PoolsMutex);
  std::unique_ptr<ThreadPool> &P = Pools[Ordinal];
  if (!P)
    P = std::make_unique<ThreadPool>(Workers == 0 ? 1 : Workers);
  return *P;
}

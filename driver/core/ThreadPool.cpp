//===- ThreadPool.cpp - The persistent workers that run thread blocks -----===//
#include "core/ThreadPool.h"

#include "llvm/ADT/STLExtras.h"

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

void ThreadPool::retire(ActiveJob &J) {
  if (J.Exhausted)
    return;
  J.Exhausted = true;
  llvm::erase(Offered, &J);
}

void ThreadPool::workerMain() {
  std::unique_lock Lock(Mutex);
  for (;;) {
    Wake.wait(Lock, [&] { return Stopping || !Offered.empty(); });
    if (Stopping)
      return;
    ActiveJob *J = *llvm::min_element(Offered, [](ActiveJob *A, ActiveJob *B) {
      return A->Inside < B->Inside;
    });
    ++J->Inside;
    Lock.unlock();
    J->Fn();
    Lock.lock();
    retire(*J);
    if (--J->Inside == 0)
      Left.notify_all();
  }
}

void ThreadPool::run(llvm::function_ref<void()> Job) {
  if (Threads.empty()) {
    Job();
    return;
  }
  ActiveJob J;
  J.Fn = Job;
  {
    std::lock_guard Lock(Mutex);
    Offered.push_back(&J);
  }
  Wake.notify_all();
  Job();
  std::unique_lock Lock(Mutex);
  retire(J);
  Left.wait(Lock, [&] { return J.Inside == 0; });
}

ThreadPool &ThreadPool::forDevice(int Ordinal, unsigned Workers) {
  static std::mutex PoolsMutex;
  static auto *Pools = new std::map<int, std::unique_ptr<ThreadPool>>;
  std::lock_guard Lock(PoolsMutex);
  std::unique_ptr<ThreadPool> &P = (*Pools)[Ordinal];
  if (!P)
    P = std::make_unique<ThreadPool>(Workers == 0 ? 1 : Workers);
  return *P;
}

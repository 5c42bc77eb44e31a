//===- WorkerThreads.h - The threads of stream workers ----------*- C++ -*-===//
//
// A stream's worker (WorkQueue) runs on a thread of its own that ends after a
// while without work. The threads are joinable, not detached: each one that
// has ended is joined when the next starts, joinWorkerThreads() waits until
// none runs, and those left at exit are detached. So a thread that a worker
// leaves behind is gone, stack, thread-locals and all, by the time anyone
// looks: a test's leak check, or a program that counts its threads after
// destroying its contexts.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_WORKERTHREADS_H
#define CUCPU_DRIVER_CORE_WORKERTHREADS_H

#include "llvm/ADT/FunctionExtras.h"

#include <chrono>

namespace cucpu {

/// Runs \p Body on a new worker thread.
void startWorkerThread(llvm::unique_function<void()> Body);

/// Waits until every worker thread has ended, up to \p Timeout, and joins
/// them; false if some still run then.
bool joinWorkerThreads(std::chrono::milliseconds Timeout);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_WORKERTHREADS_H

//===- AdaptiveMutex.h - A mutex that spins before it sleeps ----*- C++ -*-===//
//
// glibc's adaptive mutex: a thread that finds it locked spins for a short
// while before it sleeps in the kernel. For locks held a few hundred
// nanoseconds and taken by threads handing work to each other (the work
// queues), that saves the futex round trip a plain std::mutex pays under
// contention. Use with std::condition_variable_any.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_ADAPTIVEMUTEX_H
#define CUCPU_DRIVER_CORE_ADAPTIVEMUTEX_H

#include <pthread.h>

namespace cucpu {

/// A BasicLockable mutex that spins before it blocks.
class AdaptiveMutex {
public:
  AdaptiveMutex() {
    pthread_mutexattr_t Attr;
    pthread_mutexattr_init(&Attr);
    pthread_mutexattr_settype(&Attr, PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(&M, &Attr);
    pthread_mutexattr_destroy(&Attr);
  }
  ~AdaptiveMutex() { pthread_mutex_destroy(&M); }
  AdaptiveMutex(const AdaptiveMutex &) = delete;
  AdaptiveMutex &operator=(const AdaptiveMutex &) = delete;

  void lock() { pthread_mutex_lock(&M); }
  bool try_lock() { return pthread_mutex_trylock(&M) == 0; }
  void unlock() { pthread_mutex_unlock(&M); }

private:
  pthread_mutex_t M;
};

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_ADAPTIVEMUTEX_H

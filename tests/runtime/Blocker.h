//===- Blocker.h - Holding a stream busy -----------------------*- CUDA -*-===//
//
// Stream, event and default-stream cases need work that is certain to be
// pending: a one-thread kernel that spins on a flag in mapped pinned host
// memory until the host sets it (or a time limit passes, so a broken runtime
// fails the case instead of hanging it).
//
//===----------------------------------------------------------------------===//

#ifndef CUCPU_TESTS_RUNTIME_BLOCKER_H
#define CUCPU_TESTS_RUNTIME_BLOCKER_H

#include <cuda_runtime.h>

#include <chrono>
#include <thread>

namespace curt {

/// Spins until *Flag is nonzero or about \p Limit clock ticks have passed;
/// then stores 1 in *Done (when given).
static __global__ void spinUntilSet(volatile int *Flag, int *Done,
                                    long long Limit) {
  long long Start = clock64();
  while (*Flag == 0 && clock64() - Start < Limit) {
  }
  if (Done)
    *Done = 1;
}

/// Stores \p Value into *Out (one thread).
static __global__ void storeValue(int *Out, int Value) { *Out = Value; }

/// A flag in mapped pinned memory and the kernel that waits on it.
class Blocker {
public:
  Blocker() {
    void *P = nullptr;
    if (cudaHostAlloc(&P, sizeof(int), cudaHostAllocMapped) != cudaSuccess)
      return;
    Flag = static_cast<volatile int *>(P);
    // Launch both kernels once, so that no first launch (which may load
    // code, see EagerModuleLoading in RuntimeTest.h) waits behind a spin.
    *Flag = 1;
    spinUntilSet<<<1, 1>>>(Flag, nullptr, 0);
    storeValue<<<1, 1>>>(static_cast<int *>(P), 0);
    cudaDeviceSynchronize();
    *Flag = 0;
  }
  ~Blocker() {
    release();
    cudaDeviceSynchronize();
    if (Flag)
      cudaFreeHost(const_cast<int *>(Flag));
  }
  Blocker(const Blocker &) = delete;
  Blocker &operator=(const Blocker &) = delete;

  /// Whether the flag was allocated.
  bool valid() const { return Flag != nullptr; }
  /// Queues the spinning kernel on \p S; it writes 1 to *Done when it ends.
  cudaError_t block(cudaStream_t S, int *Done = nullptr) {
    *Flag = 0;
    // About 20 seconds at 2 GHz: far beyond any case's need.
    spinUntilSet<<<1, 1, 0, S>>>(Flag, Done, 40000000000LL);
    return cudaGetLastError();
  }
  /// Lets the spinning kernel end.
  void release() {
    if (Flag)
      *Flag = 1;
  }

private:
  volatile int *Flag = nullptr;
};

/// Polls cudaStreamQuery(\p S) for up to \p Seconds; its last answer.
inline cudaError_t waitForStream(cudaStream_t S, double Seconds = 10) {
  auto End =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(Seconds);
  cudaError_t E = cudaStreamQuery(S);
  while (E == cudaErrorNotReady && std::chrono::steady_clock::now() < End) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    E = cudaStreamQuery(S);
  }
  return E;
}

} // namespace curt

#endif // CUCPU_TESTS_RUNTIME_BLOCKER_H

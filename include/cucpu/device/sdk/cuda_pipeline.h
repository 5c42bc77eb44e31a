//===- sdk/cuda_pipeline.h - nvcuda::experimental::pipeline ----*- C++ -*-===//
//
// The toolkit's C++ pipeline over the primitives of
// cuda_pipeline_primitives.h: memcpy_async of an object or of an array
// segment into a pipeline, commit() returning the batch number, and waits
// for a batch or for all but the last N. Copies are done when memcpy_async
// returns (see cuda_pipeline_primitives.h), so the waits return at once.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CUDA_PIPELINE_H
#define CUCPU_DEVICE_SDK_CUDA_PIPELINE_H

#include "cuda_pipeline_primitives.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace nvcuda {
namespace experimental {

/// \p Pointer seen as an array of \p N elements (memcpy_async's segments).
template <size_t N, typename T> __device__ inline auto segment(T *Pointer) {
  return reinterpret_cast<T(*)[N]>(Pointer);
}

/// One thread's sequence of copy batches.
class pipeline {
public:
  __device__ pipeline() : Batch(0) {}
  pipeline(const pipeline &) = delete;
  pipeline(pipeline &&) = delete;
  pipeline &operator=(const pipeline &) = delete;
  pipeline &operator=(pipeline &&) = delete;

  /// Closes the current batch; returns its number.
  __device__ size_t commit() {
    __pipeline_commit();
    return Batch++;
  }
  __device__ void commit_and_wait() {
    (void)commit();
    __pipeline_wait_prior(0);
  }
  /// Waits for batch \p Number and those before it.
  __device__ void wait(size_t Number) { (void)Number; }
  /// Waits for all but the last \p N committed batches.
  template <unsigned N> __device__ void wait_prior() {
    __pipeline_wait_prior(N);
  }

private:
  size_t Batch;
};

/// Copies \p Source into \p Destination as part of \p Pipe's current batch.
template <class T>
__device__ void memcpy_async(T &Destination, const T &Source, pipeline &Pipe) {
  (void)Pipe;
  auto *To = reinterpret_cast<unsigned char *>(&Destination);
  auto *From = reinterpret_cast<const unsigned char *>(&Source);
  for (size_t I = 0; I < sizeof(T); ++I)
    To[I] = From[I];
}

/// Copies min(DstN, SrcN) elements of a segment.
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T (*Destination)[DstN], const T (*Source)[SrcN],
                             pipeline &Pipe) {
  (void)Pipe;
  constexpr size_t N = DstN < SrcN ? DstN : SrcN;
  for (size_t I = 0; I < N; ++I)
    (*Destination)[I] = (*Source)[I];
}

} // namespace experimental
} // namespace nvcuda

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_CUDA_PIPELINE_H

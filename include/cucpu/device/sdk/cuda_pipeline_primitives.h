//===- sdk/cuda_pipeline_primitives.h - Asynchronous copies ----*- C++ -*-===//
//
// The toolkit's pipeline primitives: a thread queues copies from global to
// shared memory (__pipeline_memcpy_async), closes a batch of them
// (__pipeline_commit) and waits until all but the last N batches are done
// (__pipeline_wait_prior). On the CPU a copy is done when
// __pipeline_memcpy_async returns, so committing and waiting have nothing
// left to do; as on a GPU, other threads see the data after a barrier.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_CUDA_PIPELINE_PRIMITIVES_H
#define CUCPU_DEVICE_SDK_CUDA_PIPELINE_PRIMITIVES_H

#if defined(__cplusplus) && defined(__CUDA__)

#include <stddef.h>

/// Copies \p SizeAndAlign bytes (4, 8 or 16, the alignment of both
/// addresses) from \p Global to \p Shared, the last \p ZeroFill of them
/// zeros instead of the source's bytes.
static __device__ inline void
__pipeline_memcpy_async(void *__restrict__ Shared,
                        const void *__restrict__ Global, size_t SizeAndAlign,
                        size_t ZeroFill = 0) {
  auto *To = static_cast<unsigned char *>(Shared);
  auto *From = static_cast<const unsigned char *>(Global);
  size_t Copied = ZeroFill < SizeAndAlign ? SizeAndAlign - ZeroFill : 0;
  for (size_t I = 0; I < Copied; ++I)
    To[I] = From[I];
  for (size_t I = Copied; I < SizeAndAlign; ++I)
    To[I] = 0;
}

/// Closes the batch of copies queued since the last commit.
static __device__ inline void __pipeline_commit() {}

/// Waits until at most \p Prior committed batches are still in flight.
static __device__ inline void __pipeline_wait_prior(size_t Prior) {
  (void)Prior;
}

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_CUDA_PIPELINE_PRIMITIVES_H

//===- sdk/cooperative_groups/memcpy_async.h - Group copies ----*- C++ -*-===//
//
// cooperative_groups::memcpy_async, wait and wait_prior: the threads of a
// group copy a range together. On the CPU the copy is done when
// memcpy_async returns to each thread; wait() is the group's barrier, after
// which every thread sees all of it, as the toolkit promises.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

#if defined(__cplusplus) && defined(__CUDA__)

#include <stddef.h>

namespace cooperative_groups {

/// The group's threads copy \p Bytes bytes from \p Source to \p Destination,
/// each a strided share.
template <class Group>
__device__ void memcpy_async(const Group &G, void *Destination,
                             const void *Source, size_t Bytes) {
  auto *To = static_cast<char *>(Destination);
  auto *From = static_cast<const char *>(Source);
  for (size_t I = G.thread_rank(); I < Bytes; I += G.size())
    To[I] = From[I];
}

/// The element-count form: \p DstCount elements from \p SrcCount.
template <class Group, class T>
__device__ void memcpy_async(const Group &G, T *Destination, size_t DstCount,
                             const T *Source, size_t SrcCount) {
  size_t Count = DstCount < SrcCount ? DstCount : SrcCount;
  for (size_t I = G.thread_rank(); I < Count; I += G.size())
    Destination[I] = Source[I];
}

/// Waits until the group's copies are complete and visible to all of it.
template <class Group> __device__ void wait(const Group &G) { G.sync(); }

/// As wait: with every copy complete at memcpy_async's return, no more than
/// \p Pending copies are ever outstanding.
template <unsigned Pending, class Group>
__device__ void wait_prior(const Group &G) {
  G.sync();
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

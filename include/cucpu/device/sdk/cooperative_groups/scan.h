//===- sdk/cooperative_groups/scan.h - Group prefix scans ------*- C++ -*-===//
//
// cooperative_groups::inclusive_scan and exclusive_scan over a tile or
// coalesced group, in rank order (default operator: plus).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_SCAN_H
#define CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_SCAN_H

#include "reduce.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace cooperative_groups {

/// Op over the values of ranks 0 .. the caller's own.
template <class Group, class T, class Op = plus<T>>
__device__ T inclusive_scan(const Group &G, T Value, Op Operation = Op()) {
  unsigned Size = static_cast<unsigned>(G.size());
  unsigned Rank = static_cast<unsigned>(G.thread_rank());
  for (unsigned D = 1; D < Size; D <<= 1) {
    T Other = G.shfl_up(Value, D);
    if (Rank >= D)
      Value = Operation(Other, Value);
  }
  return Value;
}

/// Op over the values of the ranks below the caller's; rank 0 gets T().
template <class Group, class T, class Op = plus<T>>
__device__ T exclusive_scan(const Group &G, T Value, Op Operation = Op()) {
  T Inclusive = inclusive_scan(G, Value, Operation);
  T Below = G.shfl_up(Inclusive, 1);
  return G.thread_rank() == 0 ? T() : Below;
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_SCAN_H

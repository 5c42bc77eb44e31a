//===- sdk/cooperative_groups/reduce.h - Group reductions ------*- C++ -*-===//
//
// cooperative_groups::reduce over a tile or coalesced group, with the
// toolkit's operators plus, less, greater, bit_and, bit_or and bit_xor.
// Every thread of the group gets the result.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_REDUCE_H
#define CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"

#if defined(__cplusplus) && defined(__CUDA__)

namespace cooperative_groups {

template <class T> struct plus {
  __device__ T operator()(T A, T B) const { return A + B; }
};
template <class T> struct less {
  __device__ T operator()(T A, T B) const { return B < A ? B : A; }
};
template <class T> struct greater {
  __device__ T operator()(T A, T B) const { return A < B ? B : A; }
};
template <class T> struct bit_and {
  __device__ T operator()(T A, T B) const { return A & B; }
};
template <class T> struct bit_or {
  __device__ T operator()(T A, T B) const { return A | B; }
};
template <class T> struct bit_xor {
  __device__ T operator()(T A, T B) const { return A ^ B; }
};

/// \p Op over the \p Value of every thread of \p Group, in rank order
/// pairwise; each thread gets the result.
template <class Group, class T, class Op>
__device__ T reduce(const Group &G, T Value, Op Operation) {
  unsigned Size = static_cast<unsigned>(G.size());
  unsigned Rank = static_cast<unsigned>(G.thread_rank());
  // After the step of distance D, a thread holds Op over its rank and the
  // 2D - 1 above it (as far as the group goes): rank 0 ends with all.
  for (unsigned D = 1; D < Size; D <<= 1) {
    T Other = G.shfl_down(Value, D);
    if (Rank + D < Size)
      Value = Operation(Value, Other);
  }
  return G.shfl(Value, 0);
}

} // namespace cooperative_groups

#endif // __cplusplus && __CUDA__

#endif // CUCPU_DEVICE_SDK_COOPERATIVE_GROUPS_REDUCE_H

//===- WarpResult.cpp - What one lane of a warp operation gets ------------===//
#include "core/WarpResult.h"

using namespace cucpu;

namespace {
uint32_t laneBit(unsigned Lane) { return 1u << Lane; }

/// PTX ISA, shfl.sync: c packs the segment mask (bits 12:8) and the clamp
/// lane (bits 4:0).
WarpLaneResult shuffle(int32_t Mode, unsigned Lane, const WarpLaneOperands &Own,
                       uint32_t Present,
                       llvm::function_ref<uint64_t(unsigned)> ValueOf) {
  int32_t B = static_cast<int32_t>(Own.LaneOrDelta & 0x1f);
  int32_t SegMask = static_cast<int32_t>((Own.Clamp >> 8) & 0x1f);
  int32_t MaxLane = static_cast<int32_t>(Own.Clamp & 0x1f);
  int32_t L = static_cast<int32_t>(Lane);
  int32_t MinLane = L & SegMask;
  MaxLane = MinLane | (MaxLane & ~SegMask);
  int32_t J = L;
  bool InRange = false;
  switch (Mode) {
  case 0: // idx
    J = MinLane | (B & ~SegMask);
    InRange = J <= MaxLane;
    break;
  case 1: // up
    J = L - B;
    InRange = J >= MaxLane;
    break;
  case 2: // down
    J = L + B;
    InRange = J <= MaxLane;
    break;
  default: // bfly
    J = L ^ B;
    InRange = J <= MaxLane;
    break;
  }
  WarpLaneResult R;
  R.Pred = InRange;
  if (!InRange || J < 0 || J >= static_cast<int32_t>(WarpSize)) {
    R.Result = Own.Value; // Out of the segment: the lane's own value.
    return R;
  }
  // Reading a lane that does not take part (inactive, exited, past the
  // block's end) is undefined in CUDA; the GPU reads 0 (measured on an H200,
  // SASS and JIT-compiled PTX alike), and real code depends on it: the last
  // warp step of cuda-samples' reduce7 shuffles from lanes its mask leaves
  // out.
  R.Result = (Present & laneBit(static_cast<unsigned>(J)))
                 ? ValueOf(static_cast<unsigned>(J))
                 : 0;
  return R;
}
} // namespace

WarpLaneResult
cucpu::warpLaneResult(WarpOp Op, int32_t Mode, unsigned Lane,
                      const WarpLaneOperands &Own, uint32_t Present,
                      llvm::function_ref<uint64_t(unsigned)> ValueOf) {
  uint32_t Members = (Own.Mask | laneBit(Lane)) & Present;
  WarpLaneResult R;
  switch (Op) {
  case WarpOp::Sync:
  case WarpOp::ActiveMask:
    break;
  case WarpOp::Vote: {
    uint32_t Ballot = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((Members & laneBit(L)) && ValueOf(L))
        Ballot |= laneBit(L);
    switch (Mode) {
    case 0: // all
      R.Result = Ballot == Members;
      break;
    case 1: // any
      R.Result = Ballot != 0;
      break;
    case 2: // uni
      R.Result = Ballot == 0 || Ballot == Members;
      break;
    default: // ballot
      R.Result = Ballot;
      break;
    }
    break;
  }
  case WarpOp::Shuffle:
    return shuffle(Mode, Lane, Own, Present, ValueOf);
  case WarpOp::Match: {
    uint32_t Same = 0;
    for (unsigned L = 0; L < WarpSize; ++L)
      if ((Members & laneBit(L)) && ValueOf(L) == Own.Value)
        Same |= laneBit(L);
    if (Mode == 0) { // any
      R.Result = Same;
    } else { // all
      R.Pred = Same == Members;
      R.Result = R.Pred ? Members : 0;
    }
    break;
  }
  }
  return R;
}

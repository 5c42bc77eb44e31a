//===- WarpResult.h - What one lane of a warp operation gets ----*- C++ -*-===//
//
// Shared by both ways of running a block: the fiber engine (BlockRunner) and
// block functions (__cucpu_warp_exchange).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DRIVER_CORE_WARPRESULT_H
#define CUCPU_DRIVER_CORE_WARPRESULT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace cucpu {

/// Threads per warp.
inline constexpr unsigned WarpSize = 32;

/// What a warp operation is, for the engine's bookkeeping.
enum class WarpOp : uint8_t { Sync, Vote, Shuffle, Match, ActiveMask };

/// One lane's part in a warp operation.
struct WarpLaneOperands {
  uint32_t Mask = 0;
  uint64_t Value = 0;
  uint32_t LaneOrDelta = 0;
  uint32_t Clamp = 0;
};

/// What one lane gets back.
struct WarpLaneResult {
  uint64_t Result = 0;
  int32_t Pred = 0;
};

/// The result of warp operation \p Op (\p Mode as the __cucpu_warp_*
/// services take it) for lane \p Lane with operands \p Own, when the lanes
/// \p Present (a bit per lane) execute it together and \p ValueOf gives
/// each present lane's value. Not for WarpOp::ActiveMask.
WarpLaneResult warpLaneResult(WarpOp Op, int32_t Mode, unsigned Lane,
                              const WarpLaneOperands &Own, uint32_t Present,
                              llvm::function_ref<uint64_t(unsigned)> ValueOf);

} // namespace cucpu

#endif // CUCPU_DRIVER_CORE_WARPRESULT_H

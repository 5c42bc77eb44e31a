//===- SyncCalls.h - The calls where threads meet ---------------*- C++ -*-===//
//
// After cucpu-sync and cucpu-warp-lockstep, every point where the threads
// of a block or a warp meet is a call of an engine service: a barrier, a
// warp operation or a lockstep point. Block-function formation cuts the
// work function at these calls ("sync points").
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_SYNCCALLS_H
#define CUCPU_MODULES_PASSES_SYNCCALLS_H

#include <optional>

namespace llvm {
class CallInst;
} // namespace llvm

namespace cucpu::modules {

/// What kind of meeting a sync call is.
enum class SyncKind {
  LoopBarrier, ///< Put at a loop's header by cucpu-loop-barriers.
  Barrier,
  BarrierReduce,
  WarpSync,
  Vote,
  Shuffle,
  Match,
  Lockstep ///< Before a volatile access (cucpu-warp-lockstep).
};

/// Whether the lanes of a warp meet at a call of kind \p Kind (not the
/// whole block).
inline bool isWarpScope(SyncKind Kind) { return Kind >= SyncKind::WarpSync; }

/// The kind of sync call \p CI is, or std::nullopt if it is no sync call.
std::optional<SyncKind> syncKindOf(const llvm::CallInst &CI);

/// Operand of a sync call of kind \p Kind that holds its mode (vote,
/// shuffle or match mode, reduction op, lockstep number), 0 if none.
unsigned syncModeOperand(SyncKind Kind);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_SYNCCALLS_H

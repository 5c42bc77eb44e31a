//===- BlockFunctionPass.h - cucpu-block-functions --------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H
#define CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cucpu::modules {

/// Turns every work function (cucpu-work-functions) into a block function
/// (JitAbi.h, CucpuBlockEntry), ARCHITECTURE.md §5: the code is split at
/// every barrier and warp operation into regions; each region becomes a
/// loop over the block's threads (over the lanes of one warp at a time when
/// the kernel has warp operations); values that live across a split are
/// recomputed when they only depend on the block, and kept in per-thread
/// arrays of the frame otherwise. Barriers inside loops and branches that
/// are uniform across the block need nothing special: a region ends where
/// each thread reaches its next barrier, and the block goes on once every
/// thread that has not exited reached the same one.
struct BlockFunctionPass : llvm::PassInfoMixin<BlockFunctionPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-block-functions";
  /// The pipeline name of the pass that also prints each work function
  /// after each stage of its formation (CUCPU_DEBUG=dump-ir).
  static constexpr const char *PrintStagesName =
      "cucpu-block-functions<print-stages>";

  /// With \p StageLog, prints each work function there after each stage:
  /// split at its sync points, values across the splits, private memory in
  /// the frame.
  explicit BlockFunctionPass(llvm::raw_ostream *StageLog = nullptr)
      : StageLog(StageLog) {}

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  llvm::raw_ostream *StageLog;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H

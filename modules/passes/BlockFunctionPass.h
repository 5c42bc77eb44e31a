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

  /// The pipeline name's prefix that sets the instruction limit:
  /// cucpu-block-functions<max-instructions=N>.
  static constexpr const char *MaxInstructionsPrefix =
      "cucpu-block-functions<max-instructions=";

  /// The most instructions a block function may have; a kernel whose block
  /// function would have more runs on the fiber engine, and the reason is
  /// recorded. A block function grows with the kernel's sync points, by
  /// about 1,100 instructions per warp operation: a generated kernel with
  /// 85 warp operations has 89,849, which LLVM's optimizer takes about 95 s
  /// to compile on one core; the largest of the kernel tests and benchmarks
  /// has about 7,000.
  static constexpr unsigned DefaultMaxInstructions = 40000;

  /// With \p StageLog, prints each work function there after each stage:
  /// split at its sync points, values across the splits, private memory in
  /// the frame.
  explicit BlockFunctionPass(llvm::raw_ostream *StageLog = nullptr,
                             unsigned MaxInstructions = DefaultMaxInstructions)
      : StageLog(StageLog), MaxInstructions(MaxInstructions) {}

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  llvm::raw_ostream *StageLog;
  unsigned MaxInstructions;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H

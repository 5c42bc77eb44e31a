//===- BlockFunctionPass.h - cucpu-emit-block-functions ---------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H
#define CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Turns every work function in region form (cucpu-form-regions) into a
/// block function (JitAbi.h, CucpuBlockEntry), ARCHITECTURE.md §5, and
/// removes the work function: each region becomes a loop over the block's
/// threads (over the lanes of one warp at a time when the kernel has warp
/// operations, "warp loops"). Barriers inside loops and branches that are
/// uniform across the block need nothing special: a region ends where each
/// thread reaches its next barrier, and the block goes on once every thread
/// that has not exited reached the same one. The frame each block needs is
/// recorded (LoweringMetadata.h); a block function too large to compile in
/// reasonable time is dropped and the kernel runs on the fiber engine.
struct BlockFunctionPass : llvm::PassInfoMixin<BlockFunctionPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-emit-block-functions";
  /// The pipeline name's prefix that sets the instruction limit:
  /// cucpu-emit-block-functions<max-instructions=N>.
  static constexpr const char *MaxInstructionsPrefix =
      "cucpu-emit-block-functions<max-instructions=";

  /// The name of both passes, cucpu-form-regions then this one; it takes
  /// both passes' options: cucpu-block-functions<print-stages>,
  /// cucpu-block-functions<max-instructions=N>.
  static constexpr const char *FormAndEmitName = "cucpu-block-functions";

  /// The most instructions a block function may have; a kernel whose block
  /// function would have more runs on the fiber engine, and the reason is
  /// recorded. A block function grows with the kernel's sync points, by
  /// about 1,100 instructions per warp operation: a generated kernel with
  /// 85 warp operations has 89,849, which LLVM's optimizer takes about 95 s
  /// to compile on one core; the largest of the kernel tests and benchmarks
  /// has about 7,000.
  static constexpr unsigned DefaultMaxInstructions = 40000;

  explicit BlockFunctionPass(unsigned MaxInstructions = DefaultMaxInstructions)
      : MaxInstructions(MaxInstructions) {}

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  unsigned MaxInstructions;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONPASS_H

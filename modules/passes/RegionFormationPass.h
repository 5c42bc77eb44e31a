//===- RegionFormationPass.h - cucpu-form-regions ---------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_REGIONFORMATIONPASS_H
#define CUCPU_MODULES_PASSES_REGIONFORMATIONPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cucpu::modules {

/// Puts every work function (cucpu-work-functions) in region form
/// (RegionForm.h, ARCHITECTURE.md §5): the code is split at every barrier
/// and warp operation into regions; values that live across a split are
/// recomputed when they only depend on the block, kept once per block when
/// uniform, and kept in per-thread arrays of the frame otherwise; so is the
/// threads' private memory. A kernel whose work function cannot be cut
/// (a warp operation with a partial mask, memory of variable size, ...)
/// loses its work function and runs on the fiber engine; the reason is
/// recorded (LoweringMetadata.h). cucpu-emit-block-functions goes on.
struct RegionFormationPass : llvm::PassInfoMixin<RegionFormationPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-form-regions";
  /// The pipeline name of the pass that also prints each work function
  /// after each stage (CUCPU_DEBUG=dump-ir): split at its sync points,
  /// values across the splits, private memory in the frame.
  static constexpr const char *PrintStagesName =
      "cucpu-form-regions<print-stages>";

  /// With \p StageLog, prints each work function there after each stage.
  explicit RegionFormationPass(llvm::raw_ostream *StageLog = nullptr)
      : StageLog(StageLog) {}

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  llvm::raw_ostream *StageLog;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_REGIONFORMATIONPASS_H

//===- WarpLockstepPass.h - cucpu-warp-lockstep -----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_WARPLOCKSTEPPASS_H
#define CUCPU_MODULES_PASSES_WARPLOCKSTEPPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Puts a lockstep point (a call of __cucpu_lockstep) before the volatile
/// accesses of shared and global memory that a converged warp must make
/// together: before the first of a basic block, and between two of them
/// when either writes. Lanes of a warp that wait at lockstep points go on
/// together (docs/execution-model.md, "Lockstep warps"), so legacy
/// warp-synchronous code without __syncwarp gets the GPU's answers.
struct WarpLockstepPass : llvm::PassInfoMixin<WarpLockstepPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-warp-lockstep";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_WARPLOCKSTEPPASS_H

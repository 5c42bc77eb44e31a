//===- SyncPass.h - cucpu-sync ----------------------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_SYNCPASS_H
#define CUCPU_MODULES_PASSES_SYNCPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Lowers barriers, warp votes, shuffles, match, activemask and nanosleep
/// to calls of the execution engine's __cucpu_* services.
struct SyncPass : llvm::PassInfoMixin<SyncPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-sync";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_SYNCPASS_H

//===- CheckLoweredPass.h - cucpu-check-lowered -----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_CHECKLOWEREDPASS_H
#define CUCPU_MODULES_PASSES_CHECKLOWEREDPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Rejects what the CPU cannot run (leftover NVVM intrinsics, inline PTX,
/// unresolvable externals) and internalizes all but the thread entries.
struct CheckLoweredPass : llvm::PassInfoMixin<CheckLoweredPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-check-lowered";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_CHECKLOWEREDPASS_H

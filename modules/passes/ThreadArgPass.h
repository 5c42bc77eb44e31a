//===- ThreadArgPass.h - cucpu-thread-arg -----------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_THREADARGPASS_H
#define CUCPU_MODULES_PASSES_THREADARGPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Gives every defined function a hidden first parameter, the CucpuThread*,
/// and passes it along at every direct and indirect call.
struct ThreadArgPass : llvm::PassInfoMixin<ThreadArgPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-thread-arg";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_THREADARGPASS_H

//===- ThreadEntryPass.h - cucpu-thread-entries -----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_THREADENTRYPASS_H
#define CUCPU_MODULES_PASSES_THREADENTRYPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Creates the thread entry void(CucpuThread*) of every kernel, which
/// unpacks the parameters from Block->Params and calls the kernel.
struct ThreadEntryPass : llvm::PassInfoMixin<ThreadEntryPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-thread-entries";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_THREADENTRYPASS_H

//===- KernelEntryPass.h - cucpu-kernel-entries -----------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_KERNELENTRYPASS_H
#define CUCPU_MODULES_PASSES_KERNELENTRYPASS_H

#include "LoweringState.h"

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Creates the thread entry void(CucpuThread*) of every kernel, which
/// unpacks the parameters from Block->Params and calls the kernel.
struct KernelEntryPass : llvm::PassInfoMixin<KernelEntryPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-kernel-entries";

  explicit KernelEntryPass(LoweringState &State) : State(State) {}
  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  LoweringState &State;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_KERNELENTRYPASS_H

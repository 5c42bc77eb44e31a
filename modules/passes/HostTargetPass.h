//===- HostTargetPass.h - cucpu-host-target ---------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_HOSTTARGETPASS_H
#define CUCPU_MODULES_PASSES_HOSTTARGETPASS_H

#include "LoweringState.h"

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Retargets the module to the host: triple, data layout, C calling
/// convention, no NVPTX target-cpu / target-features attributes.
struct HostTargetPass : llvm::PassInfoMixin<HostTargetPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-host-target";

  explicit HostTargetPass(LoweringState &State) : State(State) {}
  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  LoweringState &State;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_HOSTTARGETPASS_H

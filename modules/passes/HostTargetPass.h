//===- HostTargetPass.h - cucpu-host-target ---------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_HOSTTARGETPASS_H
#define CUCPU_MODULES_PASSES_HOSTTARGETPASS_H

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/PassManager.h"
#include "llvm/TargetParser/Triple.h"

namespace cucpu::modules {

/// Retargets the module to the host: triple, data layout, C calling
/// convention, no NVPTX target-cpu / target-features attributes.
struct HostTargetPass : llvm::PassInfoMixin<HostTargetPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-host-target";

  /// Retargets to \p TargetTriple with \p Layout (the JIT's target
  /// machine's).
  HostTargetPass(llvm::Triple TargetTriple, llvm::DataLayout Layout)
      : TargetTriple(std::move(TargetTriple)), Layout(std::move(Layout)) {}

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);

private:
  llvm::Triple TargetTriple;
  llvm::DataLayout Layout;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_HOSTTARGETPASS_H

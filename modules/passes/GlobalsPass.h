//===- GlobalsPass.h - cucpu-globals ----------------------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_GLOBALSPASS_H
#define CUCPU_MODULES_PASSES_GLOBALSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Moves __device__ / __constant__ variables to the default address space
/// as ordinary globals of the module instance and records their sizes.
struct GlobalsPass : llvm::PassInfoMixin<GlobalsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-globals";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_GLOBALSPASS_H

//===- ExportGlobalsPass.h - cucpu-export-globals ---------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_EXPORTGLOBALSPASS_H
#define CUCPU_MODULES_PASSES_EXPORTGLOBALSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Gives every variable the module's code may write external linkage (a
/// name, kept if it had one), so that block functions specialized later for
/// a launch's shape, compiled into objects of their own, share the module's
/// one instance of each (Specialization.h). Read-only data stays local: the
/// specialized objects get their own copies.
struct ExportGlobalsPass : llvm::PassInfoMixin<ExportGlobalsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-export-globals";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_EXPORTGLOBALSPASS_H

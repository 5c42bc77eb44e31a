//===- ExternalSymbols.h - What the JIT resolves outside --------*- C++ -*-===//
//
// The names a lowered module may leave undefined: the runtime library's
// functions and the execution engine's services. Whoever runs the passes
// registers the analysis with its set (modules/Lowering.cpp: the driver's
// JIT; tools/cucpu-opt: the runtime library and JitServices.def).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_EXTERNALSYMBOLS_H
#define CUCPU_MODULES_PASSES_EXTERNALSYMBOLS_H

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// A module analysis whose result is the set of names the JIT resolves.
class ExternalSymbolsAnalysis
    : public llvm::AnalysisInfoMixin<ExternalSymbolsAnalysis> {
public:
  struct Result {
    const llvm::StringSet<> *Names;
    bool contains(llvm::StringRef Name) const { return Names->contains(Name); }
    /// The set outlives every pipeline; nothing a pass does changes it.
    bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &,
                    llvm::ModuleAnalysisManager::Invalidator &) {
      return false;
    }
  };

  /// \p Names must outlive the analysis manager.
  explicit ExternalSymbolsAnalysis(const llvm::StringSet<> &Names)
      : Names(&Names) {}
  Result run(llvm::Module &, llvm::ModuleAnalysisManager &) {
    return Result{Names};
  }

private:
  friend llvm::AnalysisInfoMixin<ExternalSymbolsAnalysis>;
  static inline llvm::AnalysisKey Key;
  const llvm::StringSet<> *Names;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_EXTERNALSYMBOLS_H

//===- ThreadDivergence.h - Values that differ between threads --*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_THREADDIVERGENCE_H
#define CUCPU_MODULES_PASSES_THREADDIVERGENCE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class LoadInst;
class Value;
} // namespace llvm

namespace cucpu::modules {

/// Which values of a work function may differ between the threads of a
/// block. A value is uniform when every thread that computes it gets the
/// same: computed from uniform values only, and not read from memory other
/// threads may write (only loads that \p IsUniformLoad accepts are
/// uniform). Phis where the paths of a divergent branch meet again are
/// divergent, and so are the values a loop that threads leave at different
/// iterations passes out. Where such a loop holds a sync point (a block
/// in \p SyncBlocks), threads meet there at different iterations, so every
/// value the loop computes is divergent. Conservative: "divergent" may be
/// wrong, "uniform" may not.
class ThreadDivergence {
public:
  ThreadDivergence(
      llvm::Function &F, llvm::ArrayRef<llvm::Value *> Sources,
      llvm::function_ref<bool(llvm::LoadInst &)> IsUniformLoad,
      llvm::function_ref<bool(const llvm::BasicBlock &)> IsSyncBlock);

  /// Whether \p V is the same for every thread that computes it.
  bool isUniform(const llvm::Value *V) const { return !Divergent.count(V); }
  /// Whether threads may leave terminator \p Term by different successors
  /// (a conditional branch or switch on a divergent value).
  bool isDivergentBranch(const llvm::Instruction &Term) const;

private:
  llvm::DenseSet<const llvm::Value *> Divergent;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_THREADDIVERGENCE_H

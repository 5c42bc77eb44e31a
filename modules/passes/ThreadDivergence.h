//===- ThreadDivergence.h - Values that differ between threads --*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_THREADDIVERGENCE_H
#define CUCPU_MODULES_PASSES_THREADDIVERGENCE_H

#include "SyncCalls.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class LoadInst;
class Value;
class raw_ostream;
} // namespace llvm

namespace cucpu::modules {

/// Which values of a work function may differ between the threads of a
/// block. A value is uniform when every thread that computes it gets the
/// same: computed from uniform values only, and not read from memory other
/// threads may write (only loads that \p IsUniformLoad accepts are
/// uniform). Phis where the paths of a divergent branch meet again are
/// divergent, and so are the values a loop that threads leave at different
/// iterations passes out. Where such a loop holds a sync point (a block
/// in \p Meetings, with the kind of its meeting), threads meet there at
/// different iterations, so every value the loop computes is divergent. So is
/// every value of a loop whose threads can drift apart by whole iterations: one
/// with a divergent branch that sends some threads to a loop barrier
/// before its paths meet again, from where a thread can go round the loop
/// without passing a block-wide barrier (threads that left an inner loop
/// early run on into the next iteration while others still run the inner
/// loop's rounds). Conservative: "divergent" may be wrong, "uniform" may
/// not.
class ThreadDivergence {
public:
  ThreadDivergence(
      llvm::Function &F, llvm::ArrayRef<llvm::Value *> Sources,
      llvm::function_ref<bool(llvm::LoadInst &)> IsUniformLoad,
      const llvm::DenseMap<const llvm::BasicBlock *, SyncKind> &Meetings);

  /// Whether \p V is the same for every thread that computes it.
  bool isUniform(const llvm::Value *V) const { return !Divergent.count(V); }
  /// Whether threads may leave terminator \p Term by different successors
  /// (a conditional branch or switch on a divergent value).
  bool isDivergentBranch(const llvm::Instruction &Term) const;

private:
  llvm::DenseSet<const llvm::Value *> Divergent;
};

/// The divergence of a function as it stands. In a work function
/// (cucpu-work-functions) the thread's pointer and coordinates differ
/// between threads, loads of the block's fields and of kernel parameters
/// are uniform, and threads meet at the blocks that hold a sync call
/// (SyncCalls.h; a block-wide barrier's kind where a block holds several). In
/// any other function every argument may differ. Block-function formation asks
/// the same question again after it split the work function at its sync points,
/// where threads meet at the resume blocks.
class ThreadDivergenceAnalysis
    : public llvm::AnalysisInfoMixin<ThreadDivergenceAnalysis> {
public:
  using Result = ThreadDivergence;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &);

private:
  friend llvm::AnalysisInfoMixin<ThreadDivergenceAnalysis>;
  static inline llvm::AnalysisKey Key;
};

/// Prints which values and branches of each function are divergent
/// (print<cucpu-divergence>): the analysis' test.
class ThreadDivergencePrinterPass
    : public llvm::PassInfoMixin<ThreadDivergencePrinterPass> {
public:
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "print<cucpu-divergence>";

  explicit ThreadDivergencePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_THREADDIVERGENCE_H

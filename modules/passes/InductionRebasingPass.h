//===- InductionRebasingPass.h - Induction variables from one counter -*- C++
//-*-===//
#ifndef CUCPU_MODULES_PASSES_INDUCTIONREBASINGPASS_H
#define CUCPU_MODULES_PASSES_INDUCTIONREBASINGPASS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class LoopInfo;
} // namespace llvm

namespace cucpu::modules {

class ThreadDivergence;

/// Rewrites each induction variable of a loop of work function \p W that
/// holds a sync point as its start plus a counter of the loop's iterations
/// times its step: P = phi [S, preheader], [P + D, latch] becomes
/// S + i * D (an integer P; P - D gives S - i * D) or S advanced by i * D
/// elements (a pointer P advanced by a getelementptr with one index).
///
/// Only where it pays: P differs between threads (\p Divergence), every
/// thread leaves the loop at the same iteration (its exit branches are
/// uniform), and D is the same in every iteration. The counter is then the
/// same for every thread, and block-function formation keeps it once per
/// block; S is usually recomputed from the thread's coordinates. Without
/// this, a thread's P is carried across each sync point in the frame, and
/// what the threads load through it is a gather (PTX from nvcc steps its
/// pointers so). Returns how many it rewrote.
unsigned rebaseInductions(llvm::Function &W, llvm::LoopInfo &Loops,
                          const ThreadDivergence &Divergence);

/// rebaseInductions on every work function (cucpu-work-functions); runs
/// after cucpu-loop-barriers, before cucpu-form-regions.
struct InductionRebasingPass : llvm::PassInfoMixin<InductionRebasingPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-rebase-inductions";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_INDUCTIONREBASINGPASS_H

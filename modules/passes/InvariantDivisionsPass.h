//===- InvariantDivisionsPass.h - cucpu-invariant-divisions ---------------===//
#ifndef CUCPU_MODULES_PASSES_INVARIANTDIVISIONSPASS_H
#define CUCPU_MODULES_PASSES_INVARIANTDIVISIONSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Keeps LLVM 19's loop vectorizer away from a division it miscompiles: one
/// whose operands are loop-invariant but which the loop computes only under
/// a condition (a block-uniform `blockIdx.x % m` inside a per-thread `if`,
/// in a thread loop). The vectorizer predicates such a division (its
/// divisor may be zero), computes it for the first lane only, under that
/// lane's condition, and gives its result to every lane: where the first
/// lane's condition is false, the others use poison (docs/reliability.md).
///
/// Each such division of an innermost loop is hoisted to the loop's
/// preheader where it cannot trap (an unsigned divisor known non-zero, a
/// signed one known positive); otherwise the loop is marked not to be
/// vectorized. Runs right before the vectorizer.
struct InvariantDivisionsPass : llvm::PassInfoMixin<InvariantDivisionsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-invariant-divisions";

  /// Runs the pass on \p F.
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_INVARIANTDIVISIONSPASS_H

//===- ThreadLoopVersioningPass.h - cucpu-thread-loop-versioning ----------===//
#ifndef CUCPU_MODULES_PASSES_THREADLOOPVERSIONINGPASS_H
#define CUCPU_MODULES_PASSES_THREADLOOPVERSIONINGPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Gives each thread loop (an innermost loop over a block's threads, marked
/// parallel) whose branches test the thread index against block-uniform
/// bounds a second version, entered when every thread of the loop goes the
/// same way at each such test, in which the tests are constants. Bounds
/// checks that the whole block passes then cost nothing, and the vectorizer
/// needs no masks for the accesses they guard. Runs before the vectorizer.
struct ThreadLoopVersioningPass
    : llvm::PassInfoMixin<ThreadLoopVersioningPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-thread-loop-versioning";

  /// Runs the pass on \p F.
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_THREADLOOPVERSIONINGPASS_H

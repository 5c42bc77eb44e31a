//===- SharedAtomicsPass.h - cucpu-shared-atomics ---------------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_SHAREDATOMICSPASS_H
#define CUCPU_MODULES_PASSES_SHAREDATOMICSPASS_H

#include "llvm/IR/PassManager.h"

namespace cucpu::modules {

/// Metadata on the plain loads and stores that replace an atomic operation
/// on shared memory.
inline constexpr const char *SharedAtomicMark = "cucpu.shared.atomic";

/// In every work function (cucpu-work-functions), turns the atomic
/// operations on the block's shared memory into plain loads and stores,
/// marked with SharedAtomicMark: a block function runs the threads of a
/// block one after the other on one core, so nothing else sees the memory
/// in between. The marks keep the thread loops from running those accesses
/// side by side (and cucpu-loop-barriers from splitting their loops for
/// vectorization).
struct SharedAtomicsPass : llvm::PassInfoMixin<SharedAtomicsPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-shared-atomics";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_SHAREDATOMICSPASS_H

//===- LoopBarriers.h - Barriers at innermost loop headers ------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_LOOPBARRIERS_H
#define CUCPU_MODULES_PASSES_LOOPBARRIERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class BasicBlock;
class Function;
class Value;
} // namespace llvm

namespace cucpu::modules {

/// Metadata kind that marks the barriers insertLoopBarriers() puts.
inline constexpr const char *LoopBarrierMetadata = "cucpu.loop.barrier";

/// Puts a loop barrier (__cucpu_barrier(\p Thread), marked with
/// LoopBarrierMetadata) at the start of every innermost loop of the work
/// function \p W that holds no barrier or warp operation (\p SyncBlocks)
/// and enough work. Each iteration then is a region: the loop over the
/// block's threads sits inside the kernel's loop, where LLVM vectorizes it,
/// and the threads walk memory together. The block function gives loop
/// barriers precedence: threads waiting at one of the kernel's barriers wait
/// until no thread is left at a loop barrier, so the kernel's barriers keep
/// their meaning whatever the loops' trip counts. Returns how many barriers
/// it put.
unsigned insertLoopBarriers(llvm::Function &W, llvm::Value *Thread,
                            llvm::ArrayRef<llvm::BasicBlock *> SyncBlocks);

/// Puts loop barriers (insertLoopBarriers) into every work function
/// (cucpu-work-functions) whose threads meet only as a block: one with a
/// warp operation or a lockstep point runs its warps' lanes together
/// instead, and gets none. Run after cucpu-shared-atomics, whose marks tell
/// the loops that hold atomics.
struct LoopBarriersPass : llvm::PassInfoMixin<LoopBarriersPass> {
  /// The pipeline name of the pass.
  static constexpr const char *PipelineName = "cucpu-loop-barriers";

  /// Runs the pass on \p M.
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_LOOPBARRIERS_H

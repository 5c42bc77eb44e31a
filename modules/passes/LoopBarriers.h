//===- LoopBarriers.h - Barriers at uniform loop headers ---------*- C++ -*-===//
#ifndef CUCPU_MODULES_PASSES_LOOPBARRIERS_H
#define CUCPU_MODULES_PASSES_LOOPBARRIERS_H

#include "ThreadDivergence.h"

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class BasicBlock;
class Function;
class Value;
} // namespace llvm

namespace cucpu::modules {

/// Puts a barrier (__cucpu_barrier(\p Thread)) at the start of every
/// innermost loop of the work function \p W that all threads of a block run
/// in step: no barrier or warp operation inside, exits that depend on
/// uniform values only (\p Divergence), and no divergent branch on the way
/// that could send some threads to another barrier (one of \p SyncBlocks)
/// while the others loop. A barrier there changes nothing a correct kernel
/// can tell, and makes each iteration a region: the loop over the block's
/// threads then sits inside the kernel's loop, where LLVM vectorizes it.
/// Returns how many barriers it put.
unsigned insertLoopBarriers(llvm::Function &W, llvm::Value *Thread,
                            const ThreadDivergence &Divergence,
                            llvm::ArrayRef<llvm::BasicBlock *> SyncBlocks);

} // namespace cucpu::modules

#endif // CUCPU_MODULES_PASSES_LOOPBARRIERS_H

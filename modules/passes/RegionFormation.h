//===- RegionFormation.h - Cutting a work function into regions -*- C++ -*-===//
//
// Region formation (RegionForm.h) for one work function: it finds the sync
// points, splits the CFG at each of them, then keeps the values that live
// across a split: recomputed in the new region when they depend only on the
// thread's coordinates and the block (kernel parameters, blockIdx, ...),
// kept once per block when every thread computes the same value, and in a
// per-thread frame array otherwise; W's allocas, the thread's private
// memory, move to the frame too.
//
// Private to modules/passes: RegionFormationPass runs one per kernel. The
// uniform-exit analysis of the regions is in RegionExits.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_REGIONFORMATION_H
#define CUCPU_MODULES_PASSES_REGIONFORMATION_H

#include "RegionForm.h"
#include "ThreadDivergence.h"
#include "WorkFunctionPass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace cucpu::modules::blockfn {

class RegionFormation {
public:
  /// Forms the regions of work function \p W; with \p StageLog, prints W
  /// there after each stage.
  explicit RegionFormation(llvm::Function &W,
                           llvm::raw_ostream *StageLog = nullptr)
      : W(W), M(*W.getParent()), Ctx(W.getContext()), DL(M.getDataLayout()),
        StageLog(StageLog) {}

  /// Puts W in region form and records the form in its metadata; returns
  /// why not if it cannot (W is then partly rewritten and must go).
  std::optional<std::string> run();
  /// The form run() gave W.
  const RegionForm &form() const { return Form; }

private:
  llvm::Value *arg(WorkArg A) { return W.getArg(unsigned(A)); }
  /// The values that differ from thread to thread at the start.
  llvm::SmallVector<llvm::Value *, 5> threadSources() {
    return {arg(WorkArg::Thread), arg(WorkArg::TidX), arg(WorkArg::TidY),
            arg(WorkArg::TidZ), arg(WorkArg::Linear)};
  }
  llvm::Type *i32() { return llvm::Type::getInt32Ty(Ctx); }
  llvm::Type *i64() { return llvm::Type::getInt64Ty(Ctx); }

  std::optional<std::string> collectSyncPoints();
  /// Whether a thread that leaves \p S can reach \p S again before any
  /// other sync point. Looks at the work function before the splits.
  bool regionReachesItself(const SyncPoint &S);
  void lowerSyncPoint(SyncPoint &S, bool ReachesItself);
  std::pair<llvm::Value *, llvm::Value *>
  emitShuffle(llvm::IRBuilder<> &B, const SyncPoint &S, llvm::CallInst *CI);
  /// Element \p Thread (default: the work function's thread) of the frame
  /// array at \p Offset whose elements take \p Size bytes.
  llvm::Value *frameAddress(llvm::IRBuilder<> &B, uint64_t Offset,
                            uint64_t Size, llvm::Value *Thread = nullptr);
  std::optional<std::string> checkAllocas();
  /// Fills Form.UniformExit and Staggered (RegionExits.cpp).
  void findUniformExits();
  /// \p Sources: per loop barrier's region, the regions that reach it.
  void
  findStaggeredLoops(llvm::ArrayRef<llvm::SmallVector<unsigned, 4>> Sources);
  void allocasToFrame();
  void splitLiveValues();
  /// Keeps \p I, a value that differs from thread to thread, in a frame
  /// array across the splits it lives across: stored where a thread leaves
  /// a region at such a split, loaded where the next region starts.
  void spillAtSplits(llvm::Instruction &I);
  bool keepUniform(llvm::Instruction &I);
  /// Whether \p A and \p B lie in one region that can run in several
  /// rounds with its threads at different places: the region of a loop
  /// barrier with a divergent branch (threads at different iterations of
  /// its loop), or any region of a kernel with warp operations.
  bool shareMultiRoundRegion(llvm::BasicBlock *A, llvm::BasicBlock *B);
  bool reachesThroughSplit(llvm::BasicBlock *UseBlock, llvm::BasicBlock *Def);
  llvm::SmallPtrSet<llvm::BasicBlock *, 16>
  reachableInRegion(llvm::BasicBlock *From);
  bool crossesSplit(llvm::Instruction &V);
  /// Longest chain of instructions recomputed rather than spilled: address
  /// arithmetic of PTX from nvcc reaches ten from the kernel parameters.
  static constexpr unsigned MaxRecomputeHeight = 16;
  /// Whether \p V can be computed again where it is used: from constants,
  /// arguments and block-invariant loads through at most
  /// MaxRecomputeHeight pure instructions.
  bool canRecompute(llvm::Value *V);
  /// The longest chain of instructions canRecompute() would clone for
  /// \p V, or a number above MaxRecomputeHeight if it cannot.
  unsigned recomputeHeight(llvm::Value *V);
  llvm::Value *recompute(llvm::Value *V, llvm::Instruction *Before,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Done);
  /// Prints W after \p Stage to StageLog, if any.
  void logStage(llvm::StringRef Stage);

  llvm::Function &W;
  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  const llvm::DataLayout &DL;
  llvm::raw_ostream *StageLog;
  RegionForm Form;
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> ResumeBlocks;
  std::optional<ThreadDivergence> Divergence;
  /// Per region: a loop barrier's region whose threads can be at different
  /// iterations of its loop in one round, having entered it in different
  /// rounds.
  llvm::SmallVector<bool, 8> Staggered;
  /// The blocks of the regions that run once per warp (after a warp
  /// operation): values they compute are never kept once per block.
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> PerWarpBlocks;
  /// The blocks of each region shareMultiRoundRegion() looks at.
  llvm::SmallVector<llvm::SmallPtrSet<llvm::BasicBlock *, 16>, 8>
      MultiRoundRegions;
  /// recomputeHeight()'s answers.
  llvm::DenseMap<llvm::Value *, unsigned> RecomputeHeights;
  /// The allocas of values that live across a split (spillAtSplits).
  llvm::SmallPtrSet<llvm::AllocaInst *, 16> SpillSlots;
};

} // namespace cucpu::modules::blockfn

#endif // CUCPU_MODULES_PASSES_REGIONFORMATION_H

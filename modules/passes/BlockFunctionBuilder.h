//===- BlockFunctionBuilder.h - One kernel's block function -----*- C++ -*-===//
//
// A work function W runs one thread. Its barriers and warp operations
// ("sync points", numbered 1..n) are first rewritten into plain code around
// a split of the CFG: the operands go to per-thread arrays of the frame, the
// block ends there ("exit block" of the sync point), and the code after it
// starts a new block ("resume block") that reads the result from the frame.
// Region 0 is what a thread runs from the entry; region j what it runs from
// the resume block of sync point j; both end at the next exit block or
// return. Values that live across a split are recomputed in the new region
// when they depend only on the thread's coordinates and the block (kernel
// parameters, blockIdx, ...) and go through a per-thread frame array
// otherwise; so do W's allocas, the thread's private memory.
//
// The block function clones each region into the body of a loop over the
// threads (x fastest, so that LLVM vectorizes across threadIdx.x; marked
// parallel), records the sync point each thread reached, and goes on with
// the region after it once all threads that have not exited agree (without
// looking when the region has a uniform exit, BlockFunctionExits.cpp). A
// thread stopped at a warp operation goes on with its warp: the operation
// is done for the warp's lanes, then the region after it runs as a loop
// over those 32 lanes.
//
// Private to modules/passes: BlockFunctionPass builds one per kernel. The
// work is in BlockFunctionSplits.cpp (sync points, private memory, values
// across splits) and BlockFunctionCodegen.cpp (the block function itself).
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_BLOCKFUNCTIONBUILDER_H
#define CUCPU_MODULES_PASSES_BLOCKFUNCTIONBUILDER_H

#include "SharedAtomicsPass.h"
#include "SyncCalls.h"
#include "ThreadDivergence.h"
#include "WorkFunctionPass.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

namespace cucpu::modules::blockfn {

/// A barrier or warp operation of the work function.
struct SyncPoint {
  unsigned Id = 0; ///< 1..n; region Id starts after it.
  SyncKind Kind = SyncKind::Barrier;
  /// Vote/shuffle/match mode, the reduction op, or a lockstep point's number.
  int32_t Mode = 0;
  uint64_t Slot = 0; ///< Frame offset of its per-thread arrays.
  /// A shuffle whose region can reach it again: the frame offset of the
  /// copy of its values that the lanes read (0: they read Slot).
  uint64_t SnapshotSlot = 0;
  unsigned Order = 0; ///< Its place in the work function's code.
  llvm::CallInst *Call = nullptr;
  llvm::BasicBlock *Exit = nullptr;   ///< Ends the regions that reach it.
  llvm::BasicBlock *Resume = nullptr; ///< Starts region Id.

  bool warpScope() const { return isWarpScope(Kind); }
  int32_t warpKind() const {
    switch (Kind) {
    case SyncKind::Vote:
      return CucpuWarpKindVote;
    case SyncKind::Shuffle:
      return CucpuWarpKindShuffle;
    case SyncKind::Match:
      return CucpuWarpKindMatch;
    default:
      return CucpuWarpKindSync;
    }
  }
};

/// The per-thread storage of a block: arrays of one element per thread.
/// Array k starts at Frame + Offset_k * N (N threads), element t at
/// + t * Size_k.
struct FrameLayout {
  uint64_t Bytes = 0; ///< Per thread.
  uint64_t add(uint64_t Size, uint64_t Alignment) {
    uint64_t Off = llvm::alignTo(Bytes, std::max<uint64_t>(16, Alignment));
    Bytes = Off + llvm::alignTo(Size, 4);
    return Off;
  }
};

/// The block where \p U reads its value: a phi reads it at the end of the
/// incoming block.
inline llvm::BasicBlock *useBlock(llvm::Use &U) {
  auto *UI = llvm::cast<llvm::Instruction>(U.getUser());
  if (auto *Phi = llvm::dyn_cast<llvm::PHINode>(UI))
    return Phi->getIncomingBlock(U);
  return UI->getParent();
}

/// Where code computing the value that \p U reads can go.
inline llvm::Instruction *insertionPointFor(llvm::Use &U) {
  auto *UI = llvm::cast<llvm::Instruction>(U.getUser());
  if (auto *Phi = llvm::dyn_cast<llvm::PHINode>(UI))
    return Phi->getIncomingBlock(U)->getTerminator();
  return UI;
}

/// Where each thread of the block is (its "place", one int32 per thread at
/// the start of the frame): the sync point it waits at, as Id | Parity <<
/// ParityShift, the parity telling the round that will run its next region
/// from the round that just put it there; or ExitTag once it returned.
constexpr unsigned ParityShift = 16;
constexpr uint32_t IdMask = (1u << ParityShift) - 1;
constexpr uint32_t ExitTag = 0x7fffffff;

class BlockFunctionBuilder {
public:
  /// Forms \p Kernel's block function from its work function \p W; with
  /// \p StageLog, prints W there after each stage.
  BlockFunctionBuilder(llvm::Function &W, llvm::StringRef Kernel,
                       llvm::raw_ostream *StageLog = nullptr)
      : W(W), M(*W.getParent()), Ctx(W.getContext()), DL(M.getDataLayout()),
        Kernel(Kernel), StageLog(StageLog) {}

  /// Builds the block function; returns why not if it cannot.
  std::optional<std::string> build();
  /// Per-thread frame bytes of the block function.
  uint64_t frameBytes() const { return Frame.Bytes; }

private:
  llvm::Value *arg(WorkArg A) { return W.getArg(unsigned(A)); }
  /// The values that differ from thread to thread at the start.
  llvm::SmallVector<llvm::Value *, 5> threadSources() {
    return {arg(WorkArg::Thread), arg(WorkArg::TidX), arg(WorkArg::TidY),
            arg(WorkArg::TidZ), arg(WorkArg::Linear)};
  }
  llvm::Type *i32() { return llvm::Type::getInt32Ty(Ctx); }
  llvm::Type *i64() { return llvm::Type::getInt64Ty(Ctx); }
  llvm::Type *ptr() { return llvm::PointerType::get(Ctx, 0); }

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
  /// A load or store of the block function's own frame arrays (places,
  /// values across splits, sync operands), which no pointer of the kernel
  /// reaches: marked so that separateFrameAccesses() can tell LLVM.
  llvm::LoadInst *frameLoad(llvm::IRBuilder<> &B, llvm::Type *Ty,
                            llvm::Value *Addr, llvm::Align A,
                            const llvm::Twine &Name = "");
  llvm::StoreInst *frameStore(llvm::IRBuilder<> &B, llvm::Value *V,
                              llvm::Value *Addr, llvm::Align A);
  /// The alias scope list of frameLoad() and frameStore()'s accesses.
  llvm::MDNode *frameScopes();
  /// Tells LLVM that the block function's other memory accesses do not
  /// reach the arrays of frameLoad() and frameStore().
  void separateFrameAccesses();
  std::optional<std::string> checkAllocas();
  /// Fills UniformExit and Staggered (BlockFunctionExits.cpp).
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
  bool canRecompute(llvm::Value *V, unsigned Depth = 0);
  llvm::Value *recompute(llvm::Value *V, llvm::Instruction *Before,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Done);

  llvm::Function *createBlockFunction();

  // Code generation of the block function.
  struct Loop {
    llvm::BasicBlock *Body, *Latch, *Exit;
    llvm::PHINode *IV;
  };
  Loop beginLoop(llvm::IRBuilder<> &B, llvm::Value *Count,
                 const llvm::Twine &Name);
  void endLoop(llvm::IRBuilder<> &B, Loop &L);
  llvm::SmallVector<llvm::BasicBlock *, 16>
  regionBlocks(llvm::BasicBlock *Start);
  void emitRegionBody(llvm::IRBuilder<> &B, unsigned Region, llvm::Value *Tx,
                      llvm::Value *Ty, llvm::Value *Tz, llvm::Value *Linear,
                      llvm::Value *FilterTag, llvm::Value *NextParity,
                      llvm::Instruction *HoistPoint, llvm::MDNode *Group);
  /// Keeps LLVM from unrolling \p L (a scan over places) before vectorizing.
  void keepRolled(Loop &L);
  /// Keeps LLVM from unrolling \p L, a loop of a few iterations (lanes of a
  /// warp, warps of a block), by its run-time trip count.
  void keepShort(Loop &L);
  /// The property keepShort() gives a loop.
  llvm::MDNode *shortLoopHint();
  /// The loop property named \p Name, without operands.
  llvm::MDNode *loopHint(llvm::StringRef Name);
  /// Gives \p L loop metadata with \p Properties.
  void setLoopProperties(Loop &L, llvm::ArrayRef<llvm::Metadata *> Properties);
  /// A new access group for the memory accesses of one thread loop.
  llvm::MDNode *parallelAccessGroup();
  /// The property saying that the accesses of \p Group do not depend on
  /// each other between iterations (llvm.loop.parallel_accesses).
  llvm::MDNode *parallelAccesses(llvm::MDNode *Group);
  /// Marks \p L's iterations as free of dependences through the accesses
  /// of \p Group.
  void markParallel(Loop &L, llvm::MDNode *Group);
  /// markParallel for a loop over the lanes of a warp, which is also kept
  /// short (keepShort).
  void markParallelLanes(Loop &L, llvm::MDNode *Group);
  llvm::Value *tagOf(llvm::IRBuilder<> &B, llvm::Value *Id,
                     llvm::Value *Parity);
  /// Where the place of thread \p Linear is (PlaceSlot: one int32 per thread).
  llvm::Value *placeAddress(llvm::IRBuilder<> &B, llvm::Value *Linear);
  /// Over the places of threads [Base, Base + Count): the lowest and
  /// highest sync id (0: all exited) and whether any thread exited (0/1).
  /// With \p RanUpTo (the round's last region), threads waiting at a later
  /// one get the next round's parity.
  std::tuple<llvm::Value *, llvm::Value *, llvm::Value *>
  emitScan(llvm::IRBuilder<> &B, llvm::Value *Base, llvm::Value *Count,
           const llvm::Twine &Name, llvm::Value *RanUpTo = nullptr);
  void emitReductions(llvm::IRBuilder<> &B, llvm::Value *Id,
                      llvm::Value *Parity);
  llvm::Value *frameArray(llvm::IRBuilder<> &B, uint64_t Offset);
  void emitBlockLoops();
  void emitWholeBlockRegion(llvm::IRBuilder<> &B, unsigned Region,
                            llvm::Value *P, llvm::BasicBlock *After);
  bool reachesWarpOperation(unsigned Region);
  void emitRoundEnd(llvm::IRBuilder<> &B, llvm::BasicBlock *Finished);
  /// Ends the round whose threads stopped at sync ids \p Min..\p Max (Max 0:
  /// all returned), some having returned when \p Gone (0/1).
  void finishRound(llvm::IRBuilder<> &B, llvm::Value *Min, llvm::Value *Max,
                   llvm::Value *Gone, llvm::BasicBlock *Finished);
  /// After a region that every thread ran and left for the same place: the
  /// next round runs the region there for all threads (or the block ends).
  void emitAllAtOnePlace(llvm::BasicBlock *Finished);
  void emitPresentMask(llvm::IRBuilder<> &B, llvm::Value *Base,
                       llvm::Value *Count, llvm::Value *Tag);
  /// Gives each of the \p Count lanes from \p Base its warp's present
  /// mask \p Mask (PresentSlot), which the lanes' shuffles read.
  void storePresentMask(llvm::IRBuilder<> &B, llvm::Value *Base,
                        llvm::Value *Count, llvm::Value *Mask);
  /// Copies the 32-bit elements [Base, Base + Count) of the frame array at
  /// \p From to the one at \p To.
  void copyLanes(llvm::IRBuilder<> &B, uint64_t From, uint64_t To,
                 llvm::Value *Base, llvm::Value *Count);
  /// What the code of one round by warps shares (emitWarpLoops).
  struct WarpRound {
    llvm::BasicBlock *Finished = nullptr, *Diverged = nullptr;
    llvm::FunctionCallee Exchange;
    llvm::Value *NextParity = nullptr;
    /// Where the warps stopped: the lowest and highest sync id, and whether
    /// any lane returned (i32 0/1).
    llvm::AllocaInst *StopMin = nullptr, *StopMax = nullptr,
                     *StopGone = nullptr;
    llvm::Value *Bx = nullptr, *Bxy = nullptr, *OneDimensional = nullptr;
    /// The loop over the block's warps; its warp's first lane and lanes.
    Loop Warp{};
    llvm::Value *Base = nullptr, *Count = nullptr;
    /// Dispatch of the warp operation the warp's lanes are at (OpId, and
    /// whether all of them are there, AllLanes).
    llvm::BasicBlock *OpBlock = nullptr;
    llvm::PHINode *OpId = nullptr, *AllLanes = nullptr;
    llvm::SwitchInst *Op = nullptr;
    /// Where lanes go after a region that ends at no single place.
    llvm::BasicBlock *Lanes = nullptr;
  };
  void emitWarpLoops();
  /// A block where the warp is done for the round: its lanes that have not
  /// returned wait at sync point \p Id (null: all returned); some returned
  /// unless \p All.
  llvm::BasicBlock *emitWarpStop(WarpRound &W, llvm::Value *Id,
                                 llvm::Value *All, const llvm::Twine &Name);
  /// Where did the warp's lanes stop? All that have not exited must agree,
  /// unless some wait at a lockstep point: then those at the lowest go on
  /// first. Leaves \p B where they may go on; returns the sync id they are
  /// at and whether every lane is there (none exited, none elsewhere).
  std::pair<llvm::Value *, llvm::Value *>
  emitLaneCheck(llvm::IRBuilder<> &B, WarpRound &W, const llvm::Twine &Name);
  /// Sends the cases of \p Sw for every warp operation to \p To; other
  /// sync ids (block barriers) go to its default, where the warp stops.
  void addWarpOperationCases(llvm::IRBuilder<> &B, llvm::SwitchInst *Sw,
                             llvm::BasicBlock *To);
  /// The region after warp operation \p R over the warp's lanes, those at
  /// \p R (\p FilterTag) or all of them, then on to \p Next. Two versions:
  /// one-dimensional blocks, where threadIdx.x is the linear index
  /// (consecutive, which vectorizes), and any shape.
  void emitLaneLoops(llvm::IRBuilder<> &B, WarpRound &W, unsigned R,
                     llvm::Value *FilterTag, llvm::BasicBlock *Next);
  /// Warp operation \p S done for the warp, then the region after it: in a
  /// loop of its own that only warps at a warp operation enter (so that
  /// what LLVM hoists out of it runs for those only).
  void emitWarpOperation(llvm::IRBuilder<> &B, WarpRound &W,
                         const SyncPoint &S);

  llvm::Function &W;
  llvm::Module &M;
  llvm::LLVMContext &Ctx;
  const llvm::DataLayout &DL;
  std::string Kernel;
  llvm::raw_ostream *StageLog;
  /// Prints W after \p Stage to StageLog, if any.
  void logStage(llvm::StringRef Stage);
  llvm::SmallVector<SyncPoint, 8> Syncs;
  llvm::DenseMap<llvm::BasicBlock *, unsigned>
      ExitBlocks; ///< Exit block -> sync id.
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> ResumeBlocks;
  FrameLayout Frame;
  bool WarpMode = false;
  /// Sync points 1..LoopBarrierCount are loop barriers.
  unsigned LoopBarrierCount = 0;
  /// Sync points 1..LockstepCount are lockstep points (then there are no
  /// loop barriers), in the order of their numbers.
  unsigned LockstepCount = 0;
  std::optional<ThreadDivergence> Divergence;
  /// Per region: whether all threads that run it reach the same next place.
  llvm::SmallVector<bool, 8> UniformExit;
  /// Per region: a loop barrier's region whose threads can be at different
  /// iterations of its loop in one round, having entered it in different
  /// rounds.
  llvm::SmallVector<bool, 8> Staggered;
  /// Loads of a uniform value kept once per block (keepUniform), with its
  /// frame offset: each region does them once, before its thread loop.
  llvm::DenseMap<llvm::LoadInst *, uint64_t> UniformLoads;
  static constexpr uint64_t PlaceSlot = 0; ///< int32 per thread.
  /// int32 per thread: the lanes of its warp that reached the shuffle being
  /// done (kernels with shuffles).
  uint64_t PresentSlot = 0;
  llvm::MDNode *FrameScopeList = nullptr;
  /// The blocks of the regions that run once per warp (after a warp
  /// operation): values they compute are never kept once per block.
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> PerWarpBlocks;
  /// The blocks of each region shareMultiRoundRegion() looks at.
  llvm::SmallVector<llvm::SmallPtrSet<llvm::BasicBlock *, 16>, 8>
      MultiRoundRegions;
  /// The allocas of values that live across a split (spillAtSplits).
  llvm::SmallPtrSet<llvm::AllocaInst *, 16> SpillSlots;

  // The block function being built.
  llvm::Function *BF = nullptr;
  llvm::Value *BlkArg = nullptr, *ThreadsArg = nullptr, *FrameArg = nullptr;
  llvm::Value *Dim[3] = {};
  llvm::Value *NumThreads = nullptr;
  /// The round: its parity and the regions Lo..Hi it runs.
  llvm::AllocaInst *Parity = nullptr, *Lo = nullptr, *Hi = nullptr;
  llvm::AllocaInst *RegionVar = nullptr;
  /// Whether every thread waits at the round's one region (i32 0/1).
  llvm::AllocaInst *AllHere = nullptr;
  /// Where a region with a uniform exit goes once every thread ran it.
  llvm::BasicBlock *AllAtOnePlace = nullptr;
  /// Kernels with warp operations: where warps go on after a region that
  /// reaches one.
  llvm::BasicBlock *ByWarps = nullptr;
  llvm::BasicBlock *Dispatch = nullptr;
};

} // namespace cucpu::modules::blockfn

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONBUILDER_H

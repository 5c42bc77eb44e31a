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

#include "JitAbi.h"
#include "ThreadDivergence.h"
#include "WorkFunctionPass.h"

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

// LLVM's types throughout, as in the passes' .cpp files.
using namespace llvm;

enum class SyncKind {
  LoopBarrier, ///< Put at a loop's header by LoopBarriers (not the kernel's).
  Barrier,
  BarrierReduce,
  WarpSync,
  Vote,
  Shuffle,
  Match,
  Lockstep ///< Before a volatile access (cucpu-warp-lockstep).
};

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
  CallInst *Call = nullptr;
  BasicBlock *Exit = nullptr;   ///< Ends the regions that reach it.
  BasicBlock *Resume = nullptr; ///< Starts region Id.

  bool warpScope() const { return Kind >= SyncKind::WarpSync; }
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
    uint64_t Off = alignTo(Bytes, std::max<uint64_t>(16, Alignment));
    Bytes = Off + alignTo(Size, 4);
    return Off;
  }
};

/// The block where \p U reads its value: a phi reads it at the end of the
/// incoming block.
inline BasicBlock *useBlock(Use &U) {
  auto *UI = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(UI))
    return Phi->getIncomingBlock(U);
  return UI->getParent();
}

/// Where code computing the value that \p U reads can go.
inline Instruction *insertionPointFor(Use &U) {
  auto *UI = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(UI))
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

/// Metadata on the plain loads and stores that replace an atomic operation
/// on shared memory.
constexpr const char *SharedAtomicMark = "cucpu.shared.atomic";

class BlockFunctionBuilder {
public:
  BlockFunctionBuilder(Function &W, StringRef Kernel)
      : W(W), M(*W.getParent()), Ctx(W.getContext()), DL(M.getDataLayout()),
        Kernel(Kernel) {}

  /// Builds the block function; returns why not if it cannot.
  std::optional<std::string> build();
  /// Per-thread frame bytes of the block function.
  uint64_t frameBytes() const { return Frame.Bytes; }

private:
  Value *arg(WorkArg A) { return W.getArg(unsigned(A)); }
  /// The values that differ from thread to thread at the start.
  SmallVector<Value *, 5> threadSources() {
    return {arg(WorkArg::Thread), arg(WorkArg::TidX), arg(WorkArg::TidY),
            arg(WorkArg::TidZ), arg(WorkArg::Linear)};
  }
  Type *i32() { return Type::getInt32Ty(Ctx); }
  Type *i64() { return Type::getInt64Ty(Ctx); }
  Type *ptr() { return PointerType::get(Ctx, 0); }

  std::optional<std::string> collectSyncPoints();
  void lowerSharedAtomics();
  /// Whether a thread that leaves \p S can reach \p S again before any
  /// other sync point. Looks at the work function before the splits.
  bool regionReachesItself(const SyncPoint &S);
  void lowerSyncPoint(SyncPoint &S, bool ReachesItself);
  std::pair<llvm::Value *, llvm::Value *>
  emitShuffle(llvm::IRBuilder<> &B, const SyncPoint &S, llvm::CallInst *CI);
  /// Element \p Thread (default: the work function's thread) of the frame
  /// array at \p Offset whose elements take \p Size bytes.
  Value *frameAddress(IRBuilder<> &B, uint64_t Offset, uint64_t Size,
                      Value *Thread = nullptr);
  /// A load or store of the block function's own frame arrays (places,
  /// values across splits, sync operands), which no pointer of the kernel
  /// reaches: marked so that separateFrameAccesses() can tell LLVM.
  LoadInst *frameLoad(IRBuilder<> &B, Type *Ty, Value *Addr, Align A,
                      const Twine &Name = "");
  StoreInst *frameStore(IRBuilder<> &B, Value *V, Value *Addr, Align A);
  /// The alias scope list of frameLoad() and frameStore()'s accesses.
  MDNode *frameScopes();
  /// Tells LLVM that the block function's other memory accesses do not
  /// reach the arrays of frameLoad() and frameStore().
  void separateFrameAccesses();
  std::optional<std::string> checkAllocas();
  /// Fills UniformExit and Staggered (BlockFunctionExits.cpp).
  void findUniformExits();
  /// \p Sources: per loop barrier's region, the regions that reach it.
  void findStaggeredLoops(ArrayRef<SmallVector<unsigned, 4>> Sources);
  void allocasToFrame();
  void splitLiveValues();
  /// Keeps \p I, a value that differs from thread to thread, in a frame
  /// array across the splits it lives across: stored where a thread leaves
  /// a region at such a split, loaded where the next region starts.
  void spillAtSplits(Instruction &I);
  bool keepUniform(Instruction &I);
  /// Whether \p A and \p B lie in one region that can run in several
  /// rounds with its threads at different places: the region of a loop
  /// barrier with a divergent branch (threads at different iterations of
  /// its loop), or any region of a kernel with warp operations.
  bool shareMultiRoundRegion(BasicBlock *A, BasicBlock *B);
  bool reachesThroughSplit(BasicBlock *UseBlock, BasicBlock *Def);
  SmallPtrSet<BasicBlock *, 16> reachableInRegion(BasicBlock *From);
  bool crossesSplit(Instruction &V);
  bool canRecompute(Value *V, unsigned Depth = 0);
  Value *recompute(Value *V, Instruction *Before,
                   DenseMap<Value *, Value *> &Done);
  bool isBlockInvariantLoad(LoadInst &L);

  Function *createBlockFunction();

  // Code generation of the block function.
  struct Loop {
    BasicBlock *Body, *Latch, *Exit;
    PHINode *IV;
  };
  Loop beginLoop(IRBuilder<> &B, Value *Count, const Twine &Name);
  void endLoop(IRBuilder<> &B, Loop &L);
  SmallVector<BasicBlock *, 16> regionBlocks(BasicBlock *Start);
  void emitRegionBody(IRBuilder<> &B, unsigned Region, Value *Tx, Value *Ty,
                      Value *Tz, Value *Linear, Value *FilterTag,
                      Value *NextParity, Instruction *HoistPoint,
                      MDNode *Group);
  /// Keeps LLVM from unrolling \p L (a scan over places) before vectorizing.
  void keepRolled(Loop &L);
  /// Gives \p L loop metadata with the one property \p Property.
  void setLoopProperty(Loop &L, MDNode *Property);
  /// A new access group for the memory accesses of one thread loop.
  MDNode *parallelAccessGroup();
  /// Marks \p L's iterations as free of dependences through the accesses
  /// of \p Group (llvm.loop.parallel_accesses).
  void markParallel(Loop &L, MDNode *Group);
  Value *tagOf(IRBuilder<> &B, Value *Id, Value *Parity);
  /// Where the place of thread \p Linear is (PlaceSlot: one int32 per thread).
  Value *placeAddress(IRBuilder<> &B, Value *Linear);
  /// Over the places of threads [Base, Base + Count): the lowest and
  /// highest sync id (0: all exited) and whether any thread exited (0/1).
  /// With \p RanUpTo (the round's last region), threads waiting at a later
  /// one get the next round's parity.
  std::tuple<Value *, Value *, Value *> emitScan(IRBuilder<> &B, Value *Base,
                                                 Value *Count,
                                                 const Twine &Name,
                                                 Value *RanUpTo = nullptr);
  void emitReductions(IRBuilder<> &B, Value *Id, Value *Parity);
  Value *frameArray(IRBuilder<> &B, uint64_t Offset);
  void emitBlockLoops();
  void emitWholeBlockRegion(IRBuilder<> &B, unsigned Region, Value *P,
                            BasicBlock *After);
  bool reachesWarpOperation(unsigned Region);
  void emitRoundEnd(IRBuilder<> &B, BasicBlock *Finished);
  /// Ends the round whose threads stopped at sync ids \p Min..\p Max (Max 0:
  /// all returned), some having returned when \p Gone (0/1).
  void finishRound(IRBuilder<> &B, Value *Min, Value *Max, Value *Gone,
                   BasicBlock *Finished);
  /// After a region that every thread ran and left for the same place: the
  /// next round runs the region there for all threads (or the block ends).
  void emitAllAtOnePlace(BasicBlock *Finished);
  void emitPresentMask(llvm::IRBuilder<> &B, llvm::Value *Base,
                       llvm::Value *Count, llvm::Value *Tag);
  /// Gives each of the \p Count lanes from \p Base its warp's present
  /// mask \p Mask (PresentSlot), which the lanes' shuffles read.
  void storePresentMask(IRBuilder<> &B, Value *Base, Value *Count, Value *Mask);
  /// Copies the 32-bit elements [Base, Base + Count) of the frame array at
  /// \p From to the one at \p To.
  void copyLanes(IRBuilder<> &B, uint64_t From, uint64_t To, Value *Base,
                 Value *Count);
  void emitWarpLoops();

  Function &W;
  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  std::string Kernel;
  SmallVector<SyncPoint, 8> Syncs;
  DenseMap<BasicBlock *, unsigned> ExitBlocks; ///< Exit block -> sync id.
  SmallPtrSet<BasicBlock *, 8> ResumeBlocks;
  FrameLayout Frame;
  bool WarpMode = false;
  /// Sync points 1..LoopBarrierCount are loop barriers.
  unsigned LoopBarrierCount = 0;
  /// Sync points 1..LockstepCount are lockstep points (then there are no
  /// loop barriers), in the order of their numbers.
  unsigned LockstepCount = 0;
  std::optional<ThreadDivergence> Divergence;
  /// Per region: whether all threads that run it reach the same next place.
  SmallVector<bool, 8> UniformExit;
  /// Per region: a loop barrier's region whose threads can be at different
  /// iterations of its loop in one round, having entered it in different
  /// rounds.
  SmallVector<bool, 8> Staggered;
  /// Loads of a uniform value kept once per block (keepUniform), with its
  /// frame offset: each region does them once, before its thread loop.
  DenseMap<LoadInst *, uint64_t> UniformLoads;
  static constexpr uint64_t PlaceSlot = 0; ///< int32 per thread.
  /// int32 per thread: the lanes of its warp that reached the shuffle being
  /// done (kernels with shuffles).
  uint64_t PresentSlot = 0;
  MDNode *FrameScopeList = nullptr;
  /// The blocks of the regions that run once per warp (after a warp
  /// operation): values they compute are never kept once per block.
  SmallPtrSet<BasicBlock *, 32> PerWarpBlocks;
  /// The blocks of each region shareMultiRoundRegion() looks at.
  SmallVector<SmallPtrSet<BasicBlock *, 16>, 8> MultiRoundRegions;
  /// The allocas of values that live across a split (spillAtSplits).
  SmallPtrSet<AllocaInst *, 16> SpillSlots;

  // The block function being built.
  Function *BF = nullptr;
  Value *BlkArg = nullptr, *ThreadsArg = nullptr, *FrameArg = nullptr;
  Value *Dim[3] = {};
  Value *NumThreads = nullptr;
  /// The round: its parity and the regions Lo..Hi it runs.
  AllocaInst *Parity = nullptr, *Lo = nullptr, *Hi = nullptr;
  AllocaInst *RegionVar = nullptr;
  /// Whether every thread waits at the round's one region (i32 0/1).
  AllocaInst *AllHere = nullptr;
  /// Where a region with a uniform exit goes once every thread ran it.
  BasicBlock *AllAtOnePlace = nullptr;
  /// Kernels with warp operations: where warps go on after a region that
  /// reaches one.
  BasicBlock *ByWarps = nullptr;
  BasicBlock *Dispatch = nullptr;
};

} // namespace cucpu::modules::blockfn

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONBUILDER_H

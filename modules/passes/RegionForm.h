//===- RegionForm.h - A work function cut into regions ----------*- C++ -*-===//
//
// A work function W runs one thread. Region formation (cucpu-form-regions,
// RegionFormation.h) rewrites its barriers and warp operations ("sync
// points", numbered 1..n) into plain code around a split of the CFG: the
// operands go to per-thread arrays of the frame, the block ends there (the
// "exit block" of the sync point, whose branch carries the sync point's
// metadata), and the code after it starts a new block (the "resume block")
// that reads the result from the frame. Region 0 is what a thread runs from
// the entry; region j what it runs from the resume block of sync point j;
// both end at the next exit block or return.
//
// W in region form is ordinary IR that still runs one thread. Block-function
// emission (cucpu-emit-block-functions, BlockFunctionEmitter.h) turns it into
// loops over the block's threads. What emission needs beyond the IR travels
// as metadata between the two passes:
//   !cucpu.sync.point on an exit block's branch: !{i32 id, i32 kind,
//     i32 mode, i64 slot, i64 snapshot slot}
//   !cucpu.uniform.slot on a load of a value kept once per block: !{i64 off}
//   !cucpu.region.form on W: !{i64 frame bytes, i64 present slot,
//     i1 warp mode, i32 loop barriers, i32 lockstep points,
//     !{i1 uniform exit of each region...}, frame alias scopes or !{}}
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_REGIONFORM_H
#define CUCPU_MODULES_PASSES_REGIONFORM_H

#include "SyncCalls.h"
#include "cucpu/modules/abi/JitAbi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <cstdint>
#include <optional>
#include <string>

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
  llvm::BasicBlock *Exit = nullptr;   ///< Ends the regions that reach it.
  llvm::BasicBlock *Resume = nullptr; ///< Starts region Id.
  /// During region formation only: the call, and its place in the code.
  llvm::CallInst *Call = nullptr;
  unsigned Order = 0;

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

/// Where each thread of the block is (its "place", one int32 per thread at
/// the start of the frame): the sync point it waits at, as Id | Parity <<
/// ParityShift, the parity telling the round that will run its next region
/// from the round that just put it there; or ExitTag once it returned.
constexpr unsigned ParityShift = 16;
constexpr uint32_t IdMask = (1u << ParityShift) - 1;
constexpr uint32_t ExitTag = 0x7fffffff;
/// The frame offset of the places (int32 per thread).
constexpr uint64_t PlaceSlot = 0;

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

/// A work function's regions and frame: what region formation found and
/// block-function emission reads.
struct RegionForm {
  /// Syncs[j - 1] is sync point j.
  llvm::SmallVector<SyncPoint, 8> Syncs;
  /// Exit block -> sync id.
  llvm::DenseMap<llvm::BasicBlock *, unsigned> ExitBlocks;
  FrameLayout Frame;
  /// int32 per thread: the lanes of its warp that reached the shuffle being
  /// done (kernels with shuffles).
  uint64_t PresentSlot = 0;
  /// Whether the block runs warp by warp (the kernel has warp operations or
  /// lockstep points).
  bool WarpMode = false;
  /// Sync points 1..LoopBarrierCount are loop barriers.
  unsigned LoopBarrierCount = 0;
  /// Sync points 1..LockstepCount are lockstep points (then there are no
  /// loop barriers), in the order of their numbers.
  unsigned LockstepCount = 0;
  /// Per region: whether all threads that run it reach the same next place
  /// (empty without sync points).
  llvm::SmallVector<bool, 8> UniformExit;
  /// Loads of a uniform value kept once per block, with its frame offset:
  /// each region does them once, before its thread loop (in the order of
  /// the code, so that the block function is the same in every run).
  llvm::MapVector<llvm::LoadInst *, uint64_t> UniformLoads;
  /// The alias scope list of the block function's own frame accesses
  /// (frameLoad, frameStore), made on first use.
  llvm::MDNode *FrameScopeList = nullptr;

  /// The block where region \p R of \p W starts.
  llvm::BasicBlock *regionStart(llvm::Function &W, unsigned R) const {
    return R == 0 ? &W.getEntryBlock() : Syncs[R - 1].Resume;
  }
  /// The blocks of the region that starts at \p Start, \p Start first.
  llvm::SmallVector<llvm::BasicBlock *, 16>
  regionBlocks(llvm::BasicBlock *Start) const;

  /// A load or store of the block function's own frame arrays (places,
  /// values across splits, sync operands), which no pointer of the kernel
  /// reaches: marked so that emission can tell LLVM.
  llvm::LoadInst *frameLoad(llvm::IRBuilder<> &B, llvm::Type *Ty,
                            llvm::Value *Addr, llvm::Align A,
                            const llvm::Twine &Name = "");
  llvm::StoreInst *frameStore(llvm::IRBuilder<> &B, llvm::Value *V,
                              llvm::Value *Addr, llvm::Align A);
  /// The alias scope list of frameLoad() and frameStore()'s accesses.
  llvm::MDNode *frameScopes(llvm::LLVMContext &Ctx);

  /// Records the form in \p W's metadata: on W, on each sync point's exit
  /// branch and on each uniform load.
  void write(llvm::Function &W) const;
  /// Whether \p W carries a region form (write()).
  static bool isRegionForm(const llvm::Function &W);
  /// Reads \p W's region form; on failure returns why (\p W's metadata
  /// contradicts its code).
  static std::optional<std::string> read(llvm::Function &W, RegionForm &Out);
  /// Removes the form's metadata from \p W.
  static void erase(llvm::Function &W);
};

} // namespace cucpu::modules::blockfn

#endif // CUCPU_MODULES_PASSES_REGIONFORM_H

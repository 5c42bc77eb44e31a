//===- BlockFunctionEmitter.h - One kernel's block function -----*- C++ -*-===//
//
// Block-function emission for one work function W in region form
// (RegionForm.h). The block function clones each region into the body of a
// loop over the threads (x fastest, so that LLVM vectorizes across
// threadIdx.x; marked parallel), records the sync point each thread
// reached, and goes on with the region after it once all threads that have
// not exited agree (without looking when the region has a uniform exit). A
// thread stopped at a warp operation goes on with its warp: the operation
// is done for the warp's lanes, then the region after it runs as a loop
// over those 32 lanes ("warp loops").
//
// Private to modules/passes: BlockFunctionEmissionPass runs one per kernel.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_MODULES_PASSES_BLOCKFUNCTIONEMITTER_H
#define CUCPU_MODULES_PASSES_BLOCKFUNCTIONEMITTER_H

#include "RegionForm.h"
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

class BlockFunctionEmitter {
public:
  /// Emits \p Kernel's block function from its work function \p W, whose
  /// regions \p Form describes.
  BlockFunctionEmitter(llvm::Function &W, llvm::StringRef Kernel,
                       RegionForm Form)
      : W(W), M(*W.getParent()), Ctx(W.getContext()), Kernel(Kernel),
        Form(std::move(Form)) {}

  /// Emits the block function and returns it.
  llvm::Function *run();

private:
  llvm::Value *arg(WorkArg A) { return W.getArg(unsigned(A)); }
  llvm::Type *i32() { return llvm::Type::getInt32Ty(Ctx); }
  llvm::Type *i64() { return llvm::Type::getInt64Ty(Ctx); }
  llvm::Type *ptr() { return llvm::PointerType::get(Ctx, 0); }
  /// Tells LLVM that the block function's other memory accesses do not
  /// reach the arrays of frameLoad() and frameStore().
  void separateFrameAccesses();
  llvm::LoadInst *frameLoad(llvm::IRBuilder<> &B, llvm::Type *Ty,
                            llvm::Value *Addr, llvm::Align A,
                            const llvm::Twine &Name = "") {
    return Form.frameLoad(B, Ty, Addr, A, Name);
  }
  llvm::StoreInst *frameStore(llvm::IRBuilder<> &B, llvm::Value *V,
                              llvm::Value *Addr, llvm::Align A) {
    return Form.frameStore(B, V, Addr, A);
  }

  llvm::Function *createBlockFunction();

  // Code generation of the block function.
  struct Loop {
    llvm::BasicBlock *Body, *Latch, *Exit;
    llvm::PHINode *IV;
  };
  Loop beginLoop(llvm::IRBuilder<> &B, llvm::Value *Count,
                 const llvm::Twine &Name);
  void endLoop(llvm::IRBuilder<> &B, Loop &L);
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
  std::string Kernel;
  RegionForm Form;

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

#endif // CUCPU_MODULES_PASSES_BLOCKFUNCTIONEMITTER_H

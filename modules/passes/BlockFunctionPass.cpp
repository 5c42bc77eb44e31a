//===- BlockFunctionPass.cpp - Regions and thread loops -------------------===//
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
// threads (x fastest, so that LLVM vectorizes across threadIdx.x), records
// the sync point each thread reached, and goes on with the region after it
// once all threads that have not exited agree. With warp operations the
// loops run over the 32 lanes of one warp at a time; a warp operation is
// then done for the warp, by __cucpu_warp_exchange, between two lane loops.
//
//===----------------------------------------------------------------------===//
#include "BlockFunctionPass.h"

#include "AbiAccess.h"
#include "JitAbi.h"
#include "LoopBarriers.h"
#include "ThreadDivergence.h"
#include "WorkFunctionPass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include <optional>
#include <tuple>

using namespace llvm;
using namespace cucpu::modules;

namespace {

enum class SyncKind {
  LoopBarrier, ///< Put at a loop's header by LoopBarriers (not the kernel's).
  Barrier,
  BarrierReduce,
  WarpSync,
  Vote,
  Shuffle,
  Match
};

/// A barrier or warp operation of the work function.
struct SyncPoint {
  unsigned Id = 0; ///< 1..n; region Id starts after it.
  SyncKind Kind = SyncKind::Barrier;
  int32_t Mode = 0;  ///< Vote/shuffle/match mode, or the reduction op.
  uint64_t Slot = 0; ///< Frame offset of its per-thread arrays.
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
BasicBlock *useBlock(Use &U) {
  auto *UI = cast<Instruction>(U.getUser());
  if (auto *Phi = dyn_cast<PHINode>(UI))
    return Phi->getIncomingBlock(U);
  return UI->getParent();
}

/// Where code computing the value that \p U reads can go.
Instruction *insertionPointFor(Use &U) {
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
  void lowerSyncPoint(SyncPoint &S);
  std::pair<llvm::Value *, llvm::Value *>
  emitShuffle(llvm::IRBuilder<> &B, const SyncPoint &S, llvm::CallInst *CI);
  Value *frameAddress(IRBuilder<> &B, uint64_t Offset, uint64_t Size);
  std::optional<std::string> checkAllocas();
  void allocasToFrame();
  void splitLiveValues();
  bool keepUniform(Instruction &I);
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
                      Value *NextParity, Instruction *HoistPoint);
  Value *tagOf(IRBuilder<> &B, Value *Id, Value *Parity);
  /// Where the place of thread \p Linear is (PlaceSlot: one int32 per thread).
  Value *placeAddress(IRBuilder<> &B, Value *Linear);
  /// Over the places of threads [Base, Base + Count): the lowest and
  /// highest sync id (0: all exited) and whether any thread exited (0/1).
  std::tuple<Value *, Value *, Value *>
  emitScan(IRBuilder<> &B, Value *Base, Value *Count, const Twine &Name);
  void emitReductions(IRBuilder<> &B, Value *Id, Value *Parity);
  Value *frameArray(IRBuilder<> &B, uint64_t Offset);
  void emitBlockLoops();
  void emitWholeBlockRegion(IRBuilder<> &B, unsigned Region, Value *P,
                            BasicBlock *After);
  bool reachesWarpOperation(unsigned Region);
  void emitRoundEnd(IRBuilder<> &B, BasicBlock *Finished);
  void emitPresentMask(llvm::IRBuilder<> &B, llvm::Value *Base,
                       llvm::Value *Count, llvm::Value *Tag);
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
  std::optional<ThreadDivergence> Divergence;
  /// Loads of a uniform value kept once per block (keepUniform), with its
  /// frame offset: each region does them once, before its thread loop.
  DenseMap<LoadInst *, uint64_t> UniformLoads;
  static constexpr uint64_t PlaceSlot = 0; ///< int32 per thread.
  /// int32 per thread: at a warp's first lane, the lanes that reached the
  /// shuffle being done (kernels with shuffles).
  uint64_t PresentSlot = 0;

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
  BasicBlock *Dispatch = nullptr;
};

//===----------------------------------------------------------------------===//
// Sync points
//===----------------------------------------------------------------------===//

std::optional<std::string> BlockFunctionBuilder::collectSyncPoints() {
  for (Instruction &I : instructions(W)) {
    auto *CI = dyn_cast<CallInst>(&I);
    Function *Callee = CI ? CI->getCalledFunction() : nullptr;
    if (!Callee || !Callee->isDeclaration())
      continue;
    StringRef Name = Callee->getName();
    if (!Name.consume_front("__cucpu_"))
      continue;
    if (Name == "activemask")
      return std::string("it uses __activemask() or a warp function "
                         "without _sync");
    if (Name == "yield")
      return std::string("it waits for other threads (__nanosleep)");
    SyncPoint S;
    S.Call = CI;
    unsigned MaskArg = 1, ModeArg = 0;
    if (Name == "barrier") {
      S.Kind = CI->getMetadata(LoopBarrierMetadata) ? SyncKind::LoopBarrier
                                                    : SyncKind::Barrier;
    } else if (Name == "barrier_reduce") {
      S.Kind = SyncKind::BarrierReduce;
      ModeArg = 2;
    } else if (Name == "warp_sync") {
      S.Kind = SyncKind::WarpSync;
    } else if (Name == "warp_vote") {
      S.Kind = SyncKind::Vote;
      ModeArg = 3;
    } else if (Name == "warp_shfl") {
      S.Kind = SyncKind::Shuffle;
      ModeArg = 5;
    } else if (Name == "warp_match") {
      S.Kind = SyncKind::Match;
      ModeArg = 3;
    } else {
      continue;
    }
    if (ModeArg) {
      auto *Mode = dyn_cast<ConstantInt>(CI->getArgOperand(ModeArg));
      if (!Mode)
        return std::string("a barrier or warp operation has a variable mode");
      S.Mode = static_cast<int32_t>(Mode->getSExtValue());
    }
    if (S.warpScope()) {
      // Region formation runs the lanes of a warp together: every lane that
      // has not exited must take part, as a full mask says.
      auto *Mask = dyn_cast<ConstantInt>(CI->getArgOperand(MaskArg));
      if (!Mask || !Mask->isAllOnesValue())
        return std::string("a warp operation has a mask other than "
                           "0xffffffff");
      WarpMode = true;
    }
    Syncs.push_back(S);
  }
  // Loop barriers first: ids 1..LoopBarrierCount (see emitRoundEnd).
  std::stable_partition(Syncs.begin(), Syncs.end(), [](const SyncPoint &S) {
    return S.Kind == SyncKind::LoopBarrier;
  });
  LoopBarrierCount = count_if(Syncs, [](const SyncPoint &S) {
    return S.Kind == SyncKind::LoopBarrier;
  });
  for (unsigned I = 0; I < Syncs.size(); ++I)
    Syncs[I].Id = I + 1;
  return std::nullopt;
}

Value *BlockFunctionBuilder::frameAddress(IRBuilder<> &B, uint64_t Offset,
                                          uint64_t Size) {
  Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
  Value *T = B.CreateZExt(arg(WorkArg::Linear), i64());
  Value *Off = B.CreateAdd(B.CreateMul(N, B.getInt64(Offset), "", true, true),
                           B.CreateMul(T, B.getInt64(Size), "", true, true), "",
                           true, true);
  return B.CreateInBoundsGEP(B.getInt8Ty(), arg(WorkArg::Frame), Off);
}

/// Rewrites the call of \p S into: operands to the frame, the split, results
/// from the frame.
void BlockFunctionBuilder::lowerSyncPoint(SyncPoint &S) {
  CallInst *CI = S.Call;
  IRBuilder<> B(CI);
  auto ArrayAt = [&](uint64_t Sub, uint64_t Size) {
    // Element t of array Sub of the warp arrays at S.Slot: the arrays are
    // consecutive, each N elements long.
    Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
    Value *T = B.CreateZExt(arg(WorkArg::Linear), i64());
    Value *Off = B.CreateAdd(B.CreateMul(N, B.getInt64(S.Slot + Sub)),
                             B.CreateMul(T, B.getInt64(Size)));
    return B.CreateInBoundsGEP(B.getInt8Ty(), arg(WorkArg::Frame), Off);
  };
  auto Store32 = [&](Value *V, uint64_t Sub) {
    B.CreateAlignedStore(B.CreateZExtOrTrunc(V, i32()), ArrayAt(Sub, 4),
                         Align(4));
  };
  switch (S.Kind) {
  case SyncKind::LoopBarrier:
  case SyncKind::Barrier:
    break;
  case SyncKind::BarrierReduce:
    // Two arrays: Pred then Result.
    S.Slot = Frame.add(8, 4);
    Store32(CI->getArgOperand(1), 0);
    break;
  case SyncKind::WarpSync:
    break; // Only a meeting point.
  case SyncKind::Shuffle: {
    // Only the Value array: each lane computes its source itself.
    S.Slot = Frame.add(8, 8);
    Value *V = B.CreateBitOrPointerCast(CI->getArgOperand(2), i32());
    B.CreateAlignedStore(B.CreateZExt(V, i64()),
                         ArrayAt(CucpuWarpArraysValue, 8), Align(8));
    break;
  }
  default:
    // Vote and match: __cucpu_warp_exchange computes them for the warp.
    S.Slot = Frame.add(CucpuWarpArraysBytes, 8);
    Store32(CI->getArgOperand(1), CucpuWarpArraysMask);
    B.CreateAlignedStore(B.CreateZExtOrTrunc(CI->getArgOperand(2), i64()),
                         ArrayAt(CucpuWarpArraysValue, 8), Align(8));
    break;
  }
  BasicBlock *Before = CI->getParent();
  BasicBlock *After =
      Before->splitBasicBlock(CI->getIterator(), "resume." + Twine(S.Id));
  S.Exit = Before;
  S.Resume = After;
  ExitBlocks[Before] = S.Id;
  ResumeBlocks.insert(After);

  B.SetInsertPoint(CI);
  Value *Result = nullptr;
  if (S.Kind == SyncKind::Shuffle) {
    // Every lane of the warp stored its value before any lane gets here:
    // read the source lane's straight from the warp's Value array.
    auto [Shuffled, InRange] = emitShuffle(B, S, CI);
    CI->replaceAllUsesWith(Shuffled);
    B.CreateAlignedStore(B.CreateZExt(InRange, i32()), CI->getArgOperand(6),
                         Align(4));
    CI->eraseFromParent();
    return;
  }
  if (S.Kind == SyncKind::BarrierReduce)
    Result = B.CreateAlignedLoad(i32(), ArrayAt(4, 4), Align(4), "reduced");
  else if (S.Kind == SyncKind::Vote || S.Kind == SyncKind::Match)
    Result = B.CreateAlignedLoad(i32(), ArrayAt(CucpuWarpArraysResult, 4),
                                 Align(4), "warp.result");
  if (S.Kind == SyncKind::Shuffle || S.Kind == SyncKind::Match) {
    Value *PredOut = CI->getArgOperand(S.Kind == SyncKind::Shuffle ? 6 : 4);
    Value *Pred = B.CreateAlignedLoad(i32(), ArrayAt(CucpuWarpArraysPred, 4),
                                      Align(4), "warp.pred");
    B.CreateAlignedStore(Pred, PredOut, Align(4));
  }
  if (Result)
    CI->replaceAllUsesWith(B.CreateZExtOrTrunc(Result, CI->getType()));
  CI->eraseFromParent();
}

std::pair<Value *, Value *>
BlockFunctionBuilder::emitShuffle(IRBuilder<> &B, const SyncPoint &S,
                                  CallInst *CI) {
  // PTX ISA, shfl.sync: c packs the segment mask (bits 12:8) and the clamp
  // lane (bits 4:0); an index out of range reads the lane's own value.
  Value *Linear = arg(WorkArg::Linear);
  Value *Own = CI->getArgOperand(2);
  Value *Lane = B.CreateAnd(Linear, 31, "lane");
  Value *Base = B.CreateAnd(Linear, ~31u, "lane0");
  Value *Delta = B.CreateAnd(CI->getArgOperand(3), 31);
  Value *C = CI->getArgOperand(4);
  Value *SegMask = B.CreateAnd(B.CreateLShr(C, 8), 31);
  Value *MinLane = B.CreateAnd(Lane, SegMask);
  Value *MaxLane = B.CreateOr(
      MinLane, B.CreateAnd(B.CreateAnd(C, 31), B.CreateNot(SegMask)));
  Value *Src = nullptr, *InRange = nullptr;
  switch (S.Mode) {
  case 0: // idx
    Src = B.CreateOr(MinLane, B.CreateAnd(Delta, B.CreateNot(SegMask)));
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  case 1: // up
    Src = B.CreateSub(Lane, Delta);
    InRange = B.CreateICmpSGE(Src, MaxLane);
    break;
  case 2: // down
    Src = B.CreateAdd(Lane, Delta);
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  default: // bfly
    Src = B.CreateXor(Lane, Delta);
    InRange = B.CreateICmpSLE(Src, MaxLane);
    break;
  }
  Src = B.CreateSelect(InRange, Src, Lane);
  Value *SrcThread = B.CreateOr(Base, Src, "src");
  // A source lane that did not reach the shuffle (past the block's end, or
  // exited) does not take part: the reader gets its own value. The lanes
  // that did are the warp's present mask, stored at its first lane.
  Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
  Value *MaskAddr = B.CreateInBoundsGEP(
      B.getInt8Ty(), arg(WorkArg::Frame),
      B.CreateAdd(B.CreateMul(N, B.getInt64(PresentSlot)),
                  B.CreateMul(B.CreateZExt(Base, i64()), B.getInt64(4))));
  Value *PresentMask = B.CreateAlignedLoad(i32(), MaskAddr, Align(4));
  Value *Present =
      B.CreateICmpNE(B.CreateAnd(B.CreateLShr(PresentMask, Src), B.getInt32(1)),
                     B.getInt32(0));
  Value *T = B.CreateZExt(B.CreateSelect(Present, SrcThread, Linear), i64());
  Value *ValueAddr = B.CreateInBoundsGEP(
      B.getInt8Ty(), arg(WorkArg::Frame),
      B.CreateAdd(B.CreateMul(N, B.getInt64(S.Slot + CucpuWarpArraysValue)),
                  B.CreateMul(T, B.getInt64(8))));
  Value *Theirs = B.CreateTrunc(B.CreateAlignedLoad(i64(), ValueAddr, Align(8)),
                                i32(), "theirs");
  Value *Result = B.CreateSelect(Present, Theirs, Own, "shuffled");
  return {B.CreateBitOrPointerCast(Result, CI->getType()), InRange};
}

//===----------------------------------------------------------------------===//
// Private memory and values across splits
//===----------------------------------------------------------------------===//

std::optional<std::string> BlockFunctionBuilder::checkAllocas() {
  for (Instruction &I : instructions(W))
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (A->getParent() != &W.getEntryBlock() || !A->isStaticAlloca())
        return std::string("it allocates memory of variable size");
  return std::nullopt;
}

void BlockFunctionBuilder::allocasToFrame() {
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : W.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(A);
  for (AllocaInst *A : Allocas) {
    uint64_t Size = A->getAllocationSize(DL)->getFixedValue();
    uint64_t Off = Frame.add(Size, A->getAlign().value());
    Size = alignTo(Size, A->getAlign().value());
    SmallVector<Use *, 8> Uses;
    for (Use &U : A->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      auto *User = cast<Instruction>(U->getUser());
      if (User->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(User)) {
        User->eraseFromParent();
        continue;
      }
      IRBuilder<> B(insertionPointFor(*U));
      U->set(frameAddress(B, Off, Size));
    }
    A->eraseFromParent();
  }
}

bool BlockFunctionBuilder::crossesSplit(Instruction &V) {
  BasicBlock *Def = V.getParent();
  for (Use &U : V.uses())
    if (BasicBlock *UB = useBlock(U); UB != Def && reachesThroughSplit(UB, Def))
      return true;
  return false;
}

bool BlockFunctionBuilder::isBlockInvariantLoad(LoadInst &L) {
  if (!L.isSimple())
    return false;
  APInt Offset(64, 0);
  Value *Base = L.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Offset, true);
  // A field of the CucpuBlock.
  if (Base == arg(WorkArg::Block))
    return true;
  // A kernel parameter: the buffer Block->Params points to.
  auto *ParamsLoad = dyn_cast<LoadInst>(Base);
  if (!ParamsLoad)
    return false;
  APInt FieldOff(64, 0);
  Value *Blk =
      ParamsLoad->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, FieldOff, true);
  return Blk == arg(WorkArg::Block) &&
         FieldOff.getZExtValue() == abi::paramsOffset();
}

bool BlockFunctionBuilder::canRecompute(Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  if (auto *L = dyn_cast<LoadInst>(I))
    return isBlockInvariantLoad(*L) &&
           canRecompute(L->getPointerOperand(), Depth + 1);
  if (!isa<GetElementPtrInst, CastInst, BinaryOperator, CmpInst, SelectInst>(I))
    return false;
  for (Value *Op : I->operands())
    if (!canRecompute(Op, Depth + 1))
      return false;
  return true;
}

Value *BlockFunctionBuilder::recompute(Value *V, Instruction *Before,
                                       DenseMap<Value *, Value *> &Done) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *Known = Done.lookup(I))
    return Known;
  Instruction *C = I->clone();
  for (Use &Op : C->operands())
    Op.set(recompute(Op.get(), Before, Done));
  C->insertBefore(Before);
  C->setName(I->getName() + ".again");
  Done[I] = C;
  return C;
}

void BlockFunctionBuilder::splitLiveValues() {
  SmallVector<Instruction *, 32> Crossing;
  for (Instruction &I : instructions(W))
    if (!isa<AllocaInst>(I) && !I.getType()->isVoidTy() && crossesSplit(I))
      Crossing.push_back(&I);
  SmallVector<Instruction *, 16> Demote;
  for (Instruction *I : Crossing) {
    if (!canRecompute(I)) {
      Demote.push_back(I);
      continue;
    }
    // Recompute it next to every use outside its own block.
    SmallVector<Use *, 8> Uses;
    for (Use &U : I->uses())
      Uses.push_back(&U);
    for (Use *U : Uses) {
      Instruction *At = insertionPointFor(*U);
      if (At->getParent() == I->getParent())
        continue;
      DenseMap<Value *, Value *> Done;
      U->set(recompute(I, At, Done));
    }
  }
  BasicBlock::iterator AllocaAt = W.getEntryBlock().begin();
  for (Instruction *I : Demote)
    if (!Divergence->isUniform(I) || !keepUniform(*I))
      DemoteRegToStack(*I, false, AllocaAt);
}

/// The blocks a thread can reach from \p From within one region.
SmallPtrSet<BasicBlock *, 16>
BlockFunctionBuilder::reachableInRegion(BasicBlock *From) {
  SmallPtrSet<BasicBlock *, 16> Seen{From};
  SmallVector<BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (ExitBlocks.count(BB))
      continue;
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Work.push_back(S);
  }
  return Seen;
}

bool BlockFunctionBuilder::keepUniform(Instruction &I) {
  // Every thread computes the same value, so one copy serves them all:
  // threads store it where they compute it, and a region that uses it
  // after a split reads it once, before its loop over the threads. That is
  // only right for uses that no path reaches within the region that
  // computed it (those use this round's value, not the last round's).
  BasicBlock *Def = I.getParent();
  SmallPtrSet<BasicBlock *, 16> Direct = reachableInRegion(Def);
  SmallVector<Use *, 8> Later;
  for (Use &U : I.uses()) {
    BasicBlock *UB = useBlock(U);
    bool Now = UB == Def || Direct.count(UB);
    bool Before = UB != Def && reachesThroughSplit(UB, Def);
    if (Now && Before)
      return false;
    if (Before)
      Later.push_back(&U);
  }
  if (Later.empty())
    return false;
  uint64_t Size = DL.getTypeStoreSize(I.getType());
  uint64_t Off = Frame.add(Size, DL.getABITypeAlign(I.getType()).value());
  auto Address = [&](IRBuilder<> &B) {
    Value *N = B.CreateZExt(arg(WorkArg::NumThreads), i64());
    return B.CreateInBoundsGEP(B.getInt8Ty(), arg(WorkArg::Frame),
                               B.CreateMul(N, B.getInt64(Off)));
  };
  IRBuilder<> SB(&*Def->getFirstInsertionPt());
  if (!isa<PHINode>(I))
    SB.SetInsertPoint(I.getNextNode());
  SB.CreateStore(&I, Address(SB));
  for (Use *U : Later) {
    IRBuilder<> LB(insertionPointFor(*U));
    LoadInst *L =
        LB.CreateLoad(I.getType(), Address(LB), I.getName() + ".uniform");
    UniformLoads[L] = Off;
    U->set(L);
  }
  return true;
}

bool BlockFunctionBuilder::reachesThroughSplit(BasicBlock *UseBlock,
                                               BasicBlock *Def) {
  SmallVector<BasicBlock *, 16> Work{UseBlock};
  SmallPtrSet<BasicBlock *, 16> Seen{UseBlock};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (ResumeBlocks.count(BB))
      return true;
    for (BasicBlock *P : predecessors(BB))
      if (P != Def && Seen.insert(P).second)
        Work.push_back(P);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The block function
//===----------------------------------------------------------------------===//

Function *BlockFunctionBuilder::createBlockFunction() {
  auto *Ty = FunctionType::get(i32(), {ptr(), ptr(), ptr()}, false);
  BF = Function::Create(Ty, GlobalValue::ExternalLinkage, BlockPrefix + Kernel,
                        M);
  BF->addFnAttr(Attribute::NoUnwind);
  BlkArg = BF->getArg(0);
  ThreadsArg = BF->getArg(1);
  FrameArg = BF->getArg(2);
  BlkArg->setName("block");
  ThreadsArg->setName("threads");
  FrameArg->setName("frame");
  BF->addParamAttr(0, Attribute::NoAlias);
  // The CucpuBlock is always there: loads of its fields (the shared memory
  // and parameter pointers, blockIdx, ...) can leave the thread loops.
  BF->addParamAttr(
      0, Attribute::getWithDereferenceableBytes(Ctx, sizeof(CucpuBlock)));
  BF->addParamAttr(0, Attribute::getWithAlignment(Ctx, Align(8)));
  BF->addParamAttr(0, Attribute::NonNull);
  BF->addParamAttr(1, Attribute::NoAlias);
  BF->addParamAttr(2, Attribute::NoAlias);
  return BF;
}

BlockFunctionBuilder::Loop BlockFunctionBuilder::beginLoop(IRBuilder<> &B,
                                                           Value *Count,
                                                           const Twine &Name) {
  // Count >= 1 always (block dimensions, lanes of a warp): a do-while loop.
  Loop L;
  BasicBlock *Pre = B.GetInsertBlock();
  L.Body = BasicBlock::Create(Ctx, Name + ".body", BF);
  L.Latch = BasicBlock::Create(Ctx, Name + ".latch", BF);
  L.Exit = BasicBlock::Create(Ctx, Name + ".exit", BF);
  B.CreateBr(L.Body);
  B.SetInsertPoint(L.Body);
  L.IV = B.CreatePHI(i32(), 2, Name);
  L.IV->addIncoming(B.getInt32(0), Pre);
  IRBuilder<> LB(L.Latch);
  Value *Next = LB.CreateAdd(L.IV, LB.getInt32(1), Name + ".next", true, true);
  LB.CreateCondBr(LB.CreateICmpULT(Next, Count), L.Body, L.Exit);
  L.IV->addIncoming(Next, L.Latch);
  return L;
}

void BlockFunctionBuilder::endLoop(IRBuilder<> &B, Loop &L) {
  B.CreateBr(L.Latch);
  B.SetInsertPoint(L.Exit);
}

SmallVector<BasicBlock *, 16>
BlockFunctionBuilder::regionBlocks(BasicBlock *Start) {
  SmallVector<BasicBlock *, 16> Blocks{Start};
  SmallPtrSet<BasicBlock *, 16> Seen{Start};
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    BasicBlock *BB = Blocks[I];
    if (ExitBlocks.count(BB))
      continue; // The region ends at the split.
    for (BasicBlock *S : successors(BB))
      if (Seen.insert(S).second)
        Blocks.push_back(S);
  }
  return Blocks;
}

Value *BlockFunctionBuilder::frameArray(IRBuilder<> &B, uint64_t Offset) {
  Value *N = B.CreateZExt(NumThreads, i64());
  return B.CreateInBoundsGEP(B.getInt8Ty(), FrameArg,
                             B.CreateMul(N, B.getInt64(Offset)));
}

/// Emits, at B (inside a thread loop), region \p Region for the thread with
/// the given coordinates: a thread whose place (At array) is not
/// \p FilterTag skips it (no filter: every thread runs it); one that runs it
/// ends at a sync point j, stored as j | \p NextParity, or returns, stored as
/// ExitTag. Leaves B after the store (the caller closes the loop).
void BlockFunctionBuilder::emitRegionBody(IRBuilder<> &B, unsigned Region,
                                          Value *Tx, Value *Ty, Value *Tz,
                                          Value *Linear, Value *FilterTag,
                                          Value *NextParity,
                                          Instruction *HoistPoint) {
  bool HasSync = !Syncs.empty();
  BasicBlock *Start =
      Region == 0 ? &W.getEntryBlock() : Syncs[Region - 1].Resume;
  BasicBlock *Done = BasicBlock::Create(Ctx, "r" + Twine(Region) + ".done", BF);
  IRBuilder<> DB(Done);
  PHINode *NewAt = DB.CreatePHI(i32(), 4, "at.next");

  Value *AtAddr = HasSync ? placeAddress(B, Linear) : nullptr;

  ValueToValueMapTy VMap;
  Value *T = B.CreateInBoundsGEP(
      B.getInt8Ty(), ThreadsArg,
      B.CreateMul(B.CreateZExt(Linear, i64()), B.getInt64(sizeof(CucpuThread))),
      "thread");
  VMap[arg(WorkArg::Thread)] = T;
  VMap[arg(WorkArg::Block)] = BlkArg;
  VMap[arg(WorkArg::TidX)] = Tx;
  VMap[arg(WorkArg::TidY)] = Ty;
  VMap[arg(WorkArg::TidZ)] = Tz;
  VMap[arg(WorkArg::Linear)] = Linear;
  VMap[arg(WorkArg::Frame)] = FrameArg;
  VMap[arg(WorkArg::NumThreads)] = NumThreads;

  SmallVector<BasicBlock *, 16> Blocks = regionBlocks(Start);
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".r" + Twine(Region), BF);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  remapInstructionsInBlocks(Clones, VMap);
  // Uniform values kept once per block are read once, before the loop.
  for (auto &[L, Off] : UniformLoads) {
    auto *C = dyn_cast_or_null<LoadInst>(VMap.lookup(L));
    if (!C)
      continue;
    IRBuilder<> HB(HoistPoint);
    Value *Addr = HB.CreateInBoundsGEP(
        HB.getInt8Ty(), FrameArg,
        HB.CreateMul(HB.CreateZExt(NumThreads, i64()), HB.getInt64(Off)));
    C->replaceAllUsesWith(HB.CreateLoad(C->getType(), Addr, C->getName()));
    C->eraseFromParent();
  }
  for (BasicBlock *C : Clones)
    for (PHINode &Phi : C->phis())
      for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
        if (Phi.getIncomingBlock(I)->getParent() != BF)
          Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
  for (unsigned I = 0; I < Blocks.size(); ++I) {
    BasicBlock *C = Clones[I];
    Instruction *Term = C->getTerminator();
    auto ExitIt = ExitBlocks.find(Blocks[I]);
    if (ExitIt != ExitBlocks.end()) {
      Term->eraseFromParent();
      IRBuilder<> CB(C);
      Value *Reached = CB.CreateOr(CB.getInt32(ExitIt->second), NextParity);
      CB.CreateBr(Done);
      NewAt->addIncoming(Reached, C);
    } else if (isa<ReturnInst>(Term)) {
      Term->eraseFromParent();
      BranchInst::Create(Done, C);
      NewAt->addIncoming(B.getInt32(ExitTag), C);
    }
  }
  // Without barriers the region is the whole kernel: allocas stay private
  // to the iteration (one copy, reused), so they move to the entry.
  if (!HasSync) {
    BasicBlock &Entry = BF->getEntryBlock();
    for (BasicBlock *C : Clones)
      for (Instruction &I : make_early_inc_range(*C))
        if (auto *A = dyn_cast<AllocaInst>(&I); A && A->isStaticAlloca())
          A->moveBefore(&*Entry.getFirstNonPHIOrDbgOrAlloca());
  }

  BasicBlock *RegionEntry = cast<BasicBlock>(VMap[Start]);
  if (FilterTag) {
    // Threads elsewhere (exited, or waiting at another barrier) skip it.
    Value *At = B.CreateAlignedLoad(i32(), AtAddr, Align(4), "at");
    BasicBlock *Here = B.GetInsertBlock();
    B.CreateCondBr(B.CreateICmpNE(At, FilterTag), Done, RegionEntry);
    NewAt->addIncoming(At, Here);
  } else {
    B.CreateBr(RegionEntry);
  }
  B.SetInsertPoint(Done);
  if (HasSync)
    B.CreateAlignedStore(NewAt, AtAddr, Align(4));
}

Value *BlockFunctionBuilder::placeAddress(IRBuilder<> &B, Value *Linear) {
  return B.CreateInBoundsGEP(
      B.getInt8Ty(), FrameArg,
      B.CreateMul(B.CreateZExt(Linear, i64()), B.getInt64(4)), "place");
}

Value *BlockFunctionBuilder::tagOf(IRBuilder<> &B, Value *Id, Value *Parity) {
  return B.CreateOr(Id, B.CreateShl(Parity, ParityShift), "tag");
}

std::tuple<Value *, Value *, Value *>
BlockFunctionBuilder::emitScan(IRBuilder<> &B, Value *Base, Value *Count,
                               const Twine &Name) {
  BasicBlock *Pre = B.GetInsertBlock();
  Loop L = beginLoop(B, Count, Name);
  PHINode *Min = B.CreatePHI(i32(), 2, Name + ".min");
  PHINode *Max = B.CreatePHI(i32(), 2, Name + ".max");
  PHINode *Exits = B.CreatePHI(i32(), 2, Name + ".exits");
  Min->addIncoming(B.getInt32(IdMask), Pre);
  Max->addIncoming(B.getInt32(0), Pre);
  Exits->addIncoming(B.getInt32(0), Pre);
  Value *At = B.CreateAlignedLoad(
      i32(), placeAddress(B, B.CreateAdd(Base, L.IV)), Align(4), "at");
  Value *Gone = B.CreateICmpEQ(At, B.getInt32(ExitTag));
  Value *Id = B.CreateAnd(At, IdMask);
  Value *NextMin = B.CreateBinaryIntrinsic(
      Intrinsic::umin, Min, B.CreateSelect(Gone, B.getInt32(IdMask), Id));
  Value *NextMax = B.CreateBinaryIntrinsic(
      Intrinsic::umax, Max, B.CreateSelect(Gone, B.getInt32(0), Id));
  Value *NextExits = B.CreateOr(Exits, B.CreateZExt(Gone, i32()));
  Min->addIncoming(NextMin, L.Latch);
  Max->addIncoming(NextMax, L.Latch);
  Exits->addIncoming(NextExits, L.Latch);
  endLoop(B, L);
  PHINode *FinalMin = B.CreatePHI(i32(), 1, Name + ".lo");
  PHINode *FinalMax = B.CreatePHI(i32(), 1, Name + ".hi");
  PHINode *FinalExits = B.CreatePHI(i32(), 1, Name + ".gone");
  FinalMin->addIncoming(NextMin, L.Latch);
  FinalMax->addIncoming(NextMax, L.Latch);
  FinalExits->addIncoming(NextExits, L.Latch);
  return {FinalMin, FinalMax, FinalExits};
}

void BlockFunctionBuilder::emitReductions(IRBuilder<> &B, Value *Id,
                                          Value *Parity) {
  SmallVector<const SyncPoint *, 4> Reduces;
  for (const SyncPoint &S : Syncs)
    if (S.Kind == SyncKind::BarrierReduce)
      Reduces.push_back(&S);
  if (Reduces.empty())
    return;
  FunctionCallee Reduce =
      M.getOrInsertFunction("__cucpu_block_reduce", B.getVoidTy(), ptr(), ptr(),
                            ptr(), i32(), i32(), i32());
  BasicBlock *After = BasicBlock::Create(Ctx, "reduced", BF);
  SwitchInst *Sw = B.CreateSwitch(Id, After, Reduces.size());
  for (const SyncPoint *S : Reduces) {
    BasicBlock *Case = BasicBlock::Create(Ctx, "reduce." + Twine(S->Id), BF);
    Sw->addCase(B.getInt32(S->Id), Case);
    IRBuilder<> CB(Case);
    Value *Pred = frameArray(CB, S->Slot);
    Value *Result = frameArray(CB, S->Slot + 4);
    CB.CreateCall(Reduce, {Pred, Result, FrameArg,
                           tagOf(CB, CB.getInt32(S->Id), Parity), NumThreads,
                           CB.getInt32(S->Mode)});
    CB.CreateBr(After);
  }
  B.SetInsertPoint(After);
}

void BlockFunctionBuilder::emitWholeBlockRegion(IRBuilder<> &B, unsigned Region,
                                                Value *P, BasicBlock *After) {
  Value *NextParity =
      B.CreateShl(B.CreateXor(P, B.getInt32(1)), ParityShift, "next.parity");
  auto EmitLoops = [&](Value *Filter) {
    BasicBlock *Preheader = B.GetInsertBlock();
    Loop Z = beginLoop(B, Dim[2], "z" + Twine(Region));
    Loop Y = beginLoop(B, Dim[1], "y" + Twine(Region));
    Value *Row =
        B.CreateMul(B.CreateAdd(B.CreateMul(Z.IV, Dim[1], "", true, true), Y.IV,
                                "", true, true),
                    Dim[0], "row", true, true);
    Loop X = beginLoop(B, Dim[0], "x" + Twine(Region));
    Value *Linear = B.CreateAdd(Row, X.IV, "linear", true, true);
    emitRegionBody(B, Region, X.IV, Y.IV, Z.IV, Linear, Filter, NextParity,
                   Preheader->getTerminator());
    endLoop(B, X);
    endLoop(B, Y);
    endLoop(B, Z);
    B.CreateBr(After);
  };
  if (Region == 0) {
    EmitLoops(nullptr);
    return;
  }
  // Two versions: when every thread waits here (no thread exited, all at
  // this barrier), one without the test of each thread's place, which lets
  // the loop vectorize without masks.
  BasicBlock *Everyone = BasicBlock::Create(Ctx, "all." + Twine(Region), BF);
  BasicBlock *Some = BasicBlock::Create(Ctx, "some." + Twine(Region), BF);
  B.CreateCondBr(B.CreateICmpNE(B.CreateLoad(i32(), AllHere), B.getInt32(0)),
                 Everyone, Some);
  B.SetInsertPoint(Everyone);
  EmitLoops(nullptr);
  B.SetInsertPoint(Some);
  EmitLoops(tagOf(B, B.getInt32(Region), P));
}

bool BlockFunctionBuilder::reachesWarpOperation(unsigned Region) {
  BasicBlock *Start =
      Region == 0 ? &W.getEntryBlock() : Syncs[Region - 1].Resume;
  for (BasicBlock *BB : regionBlocks(Start)) {
    auto It = ExitBlocks.find(BB);
    if (It != ExitBlocks.end() && Syncs[It->second - 1].warpScope())
      return true;
  }
  return false;
}

/// At the end of a round: where did the threads stop? Finishes the block
/// when all returned, else sets up the next round.
void BlockFunctionBuilder::emitRoundEnd(IRBuilder<> &B, BasicBlock *Finished) {
  auto [Min, Max, Gone] = emitScan(B, B.getInt32(0), NumThreads, "scan");
  BasicBlock *Again = BasicBlock::Create(Ctx, "round.again", BF);
  B.CreateCondBr(B.CreateICmpEQ(Max, B.getInt32(0)), Finished, Again);
  B.SetInsertPoint(Again);
  B.CreateStore(Min, Lo);
  if (LoopBarrierCount > 0 && !WarpMode) {
    // Threads at a loop barrier go on first; the others wait at the
    // kernel's barriers until every thread has left the loops (or reached
    // a kernel barrier): the kernel's barriers keep their meaning.
    Value *K = B.getInt32(LoopBarrierCount);
    Value *InLoops = B.CreateICmpULE(Min, K);
    Max = B.CreateSelect(InLoops,
                         B.CreateBinaryIntrinsic(Intrinsic::umin, Max, K), Max);
  }
  B.CreateStore(Max, Hi);
  B.CreateStore(B.CreateZExt(B.CreateAnd(B.CreateICmpEQ(Min, Max),
                                         B.CreateICmpEQ(Gone, B.getInt32(0))),
                             i32()),
                AllHere);
  B.CreateStore(B.CreateXor(B.CreateLoad(i32(), Parity), B.getInt32(1)),
                Parity);
  B.CreateBr(Dispatch);
}

/// Kernels without warp operations: rounds, each running the regions
/// Lo..Hi (one, unless threads wait at different barriers) as loops z, y, x
/// over the whole block, then finding where the threads stopped.
void BlockFunctionBuilder::emitBlockLoops() {
  IRBuilder<> B(Dispatch);
  BasicBlock *Finished = BasicBlock::Create(Ctx, "finished", BF);
  IRBuilder<>(Finished).CreateRet(B.getInt32(CucpuBlockDone));
  BasicBlock *RegionDispatch = BasicBlock::Create(Ctx, "region.dispatch", BF);
  BasicBlock *NextRegion = BasicBlock::Create(Ctx, "region.next", BF);
  BasicBlock *Scan = BasicBlock::Create(Ctx, "round.end", BF);
  // Dispatch: the start of a round.
  B.CreateStore(B.CreateLoad(i32(), Lo), RegionVar);
  B.CreateBr(RegionDispatch);

  B.SetInsertPoint(RegionDispatch);
  Value *R = B.CreateLoad(i32(), RegionVar, "region");
  SwitchInst *Sw = B.CreateSwitch(R, NextRegion, Syncs.size() + 1);
  for (unsigned Region = 0; Region <= Syncs.size(); ++Region) {
    BasicBlock *Pre = BasicBlock::Create(Ctx, "region." + Twine(Region), BF);
    Sw->addCase(B.getInt32(Region), Pre);
    B.SetInsertPoint(Pre);
    Value *P = B.CreateLoad(i32(), Parity, "parity");
    if (Region > 0)
      emitReductions(B, B.getInt32(Region), P);
    emitWholeBlockRegion(B, Region, P, NextRegion);
  }

  B.SetInsertPoint(NextRegion);
  Value *Following = B.CreateAdd(B.CreateLoad(i32(), RegionVar), B.getInt32(1));
  B.CreateStore(Following, RegionVar);
  B.CreateCondBr(B.CreateICmpULE(Following, B.CreateLoad(i32(), Hi)),
                 RegionDispatch, Scan);

  B.SetInsertPoint(Scan);
  if (Syncs.empty()) {
    B.CreateBr(Finished);
    return;
  }
  emitRoundEnd(B, Finished);
}

/// Stores, at the warp's first lane of the present-mask array, the lanes
/// [Base, Base + Count) whose place is \p Tag (those at the shuffle).
void BlockFunctionBuilder::emitPresentMask(IRBuilder<> &B, Value *Base,
                                           Value *Count, Value *Tag) {
  BasicBlock *Pre = B.GetInsertBlock();
  Loop L = beginLoop(B, Count, "present");
  PHINode *Mask = B.CreatePHI(i32(), 2, "present.mask");
  Mask->addIncoming(B.getInt32(0), Pre);
  Value *At = B.CreateAlignedLoad(
      i32(), placeAddress(B, B.CreateAdd(Base, L.IV)), Align(4), "at");
  Value *Bit = B.CreateShl(B.CreateZExt(B.CreateICmpEQ(At, Tag), i32()), L.IV);
  Value *Next = B.CreateOr(Mask, Bit);
  Mask->addIncoming(Next, L.Latch);
  endLoop(B, L);
  PHINode *Final = B.CreatePHI(i32(), 1, "present");
  Final->addIncoming(Next, L.Latch);
  Value *Addr = B.CreateInBoundsGEP(
      B.getInt8Ty(), FrameArg,
      B.CreateAdd(
          B.CreateMul(B.CreateZExt(NumThreads, i64()), B.getInt64(PresentSlot)),
          B.CreateMul(B.CreateZExt(Base, i64()), B.getInt64(4))));
  B.CreateAlignedStore(Final, Addr, Align(4));
}

/// Kernels with warp operations: per round, each warp runs the block's
/// region, then the regions after each warp operation it meets (each a loop
/// over its lanes, the operation done between two), until its lanes reach a
/// block barrier or return.
void BlockFunctionBuilder::emitWarpLoops() {
  IRBuilder<> B(Dispatch);
  BasicBlock *Finished = BasicBlock::Create(Ctx, "finished", BF);
  BasicBlock *Diverged = BasicBlock::Create(Ctx, "diverged", BF);
  IRBuilder<>(Finished).CreateRet(B.getInt32(CucpuBlockDone));
  IRBuilder<>(Diverged).CreateRet(B.getInt32(CucpuBlockDiverged));
  IRBuilder<> EB(&BF->getEntryBlock(), BF->getEntryBlock().begin());
  AllocaInst *WarpState = EB.CreateAlloca(i32(), nullptr, Twine("warp.state"));
  AllocaInst *WarpParity =
      EB.CreateAlloca(i32(), nullptr, Twine("warp.parity"));
  FunctionCallee Exchange =
      M.getOrInsertFunction("__cucpu_warp_exchange", B.getVoidTy(), ptr(),
                            i32(), i32(), i32(), ptr(), i32(), i32(), i32());

  // Dispatch: the start of a round. Warps run one region of the block at a
  // time: threads waiting at different barriers are not supported here.
  Value *Start = B.CreateLoad(i32(), Lo, "round.region");
  BasicBlock *Uniform = BasicBlock::Create(Ctx, "round.uniform", BF);
  B.CreateCondBr(B.CreateICmpEQ(Start, B.CreateLoad(i32(), Hi)), Uniform,
                 Diverged);
  B.SetInsertPoint(Uniform);
  Value *P = B.CreateLoad(i32(), Parity, "parity");
  Value *NextParity =
      B.CreateShl(B.CreateXor(P, B.getInt32(1)), ParityShift, "next.parity");
  emitReductions(B, Start, P);
  // A region that reaches no warp operation before the next barrier runs
  // over the whole block at once, as without warp operations.
  BasicBlock *RoundEnd = BasicBlock::Create(Ctx, "round.end", BF);
  BasicBlock *ByWarps = BasicBlock::Create(Ctx, "by.warps", BF);
  SwitchInst *Whole = B.CreateSwitch(Start, ByWarps);
  for (unsigned R = 0; R <= Syncs.size(); ++R) {
    if ((R > 0 && Syncs[R - 1].warpScope()) || reachesWarpOperation(R))
      continue;
    BasicBlock *Case = BasicBlock::Create(Ctx, "whole." + Twine(R), BF);
    Whole->addCase(B.getInt32(R), Case);
    B.SetInsertPoint(Case);
    emitWholeBlockRegion(B, R, P, RoundEnd);
  }
  B.SetInsertPoint(ByWarps);
  Value *Bx = Dim[0];
  Value *Bxy = B.CreateMul(Dim[0], Dim[1], "", true, true);
  Value *OneDimensional = B.CreateICmpEQ(Bx, NumThreads, "one.dimensional");
  Value *Warps =
      B.CreateLShr(B.CreateAdd(NumThreads, B.getInt32(31)), 5, "warps");
  Loop Wl = beginLoop(B, Warps, "warp");
  Value *Base = B.CreateShl(Wl.IV, 5, "lane0", true, true);
  Value *Count =
      B.CreateBinaryIntrinsic(Intrinsic::umin, B.getInt32(32),
                              B.CreateSub(NumThreads, Base), nullptr, "lanes");
  B.CreateStore(Start, WarpState);
  B.CreateStore(P, WarpParity);
  BasicBlock *WarpDispatch = BasicBlock::Create(Ctx, "warp.dispatch", BF);
  B.CreateBr(WarpDispatch);

  B.SetInsertPoint(WarpDispatch);
  SwitchInst *Sw = B.CreateSwitch(B.CreateLoad(i32(), WarpState), Diverged,
                                  Syncs.size() + 1);
  for (unsigned R = 0; R <= Syncs.size(); ++R) {
    BasicBlock *Pre = BasicBlock::Create(Ctx, "region." + Twine(R), BF);
    Sw->addCase(B.getInt32(R), Pre);
    B.SetInsertPoint(Pre);
    Value *Filter =
        R == 0 ? nullptr
               : tagOf(B, B.getInt32(R), B.CreateLoad(i32(), WarpParity));
    // Two versions of the lane loop: for one-dimensional blocks, where
    // threadIdx.x is the linear index (consecutive, which vectorizes), and
    // for any shape.
    BasicBlock *Flat = BasicBlock::Create(Ctx, "flat." + Twine(R), BF);
    BasicBlock *Shaped = BasicBlock::Create(Ctx, "shaped." + Twine(R), BF);
    BasicBlock *Lanes = BasicBlock::Create(Ctx, "lanes." + Twine(R), BF);
    B.CreateCondBr(OneDimensional, Flat, Shaped);
    B.SetInsertPoint(Flat);
    Loop FL = beginLoop(B, Count, "lane" + Twine(R));
    Value *FlatLinear = B.CreateAdd(Base, FL.IV, "linear", true, true);
    emitRegionBody(B, R, FlatLinear, B.getInt32(0), B.getInt32(0), FlatLinear,
                   Filter, NextParity, Flat->getTerminator());
    endLoop(B, FL);
    B.CreateBr(Lanes);
    B.SetInsertPoint(Shaped);
    Loop L = beginLoop(B, Count, "lane" + Twine(R));
    Value *Linear = B.CreateAdd(Base, L.IV, "linear", true, true);
    Value *Tx = B.CreateURem(Linear, Bx, "tid.x");
    Value *Ty = B.CreateURem(B.CreateUDiv(Linear, Bx), Dim[1], "tid.y");
    Value *Tz = B.CreateUDiv(Linear, Bxy, "tid.z");
    emitRegionBody(B, R, Tx, Ty, Tz, Linear, Filter, NextParity,
                   Shaped->getTerminator());
    endLoop(B, L);
    B.CreateBr(Lanes);

    // Where did the warp's lanes stop? All that have not exited must agree.
    B.SetInsertPoint(Lanes);
    B.CreateStore(B.CreateXor(P, B.getInt32(1)), WarpParity);
    auto [Min, Max, LanesGone] = emitScan(B, Base, Count, "lanes.scan");
    (void)LanesGone;
    BasicBlock *Check = BasicBlock::Create(Ctx, "check." + Twine(R), BF);
    B.CreateCondBr(B.CreateICmpEQ(Max, B.getInt32(0)), Wl.Latch, Check);
    B.SetInsertPoint(Check);
    BasicBlock *Agree = BasicBlock::Create(Ctx, "agree." + Twine(R), BF);
    B.CreateCondBr(B.CreateICmpEQ(Max, Min), Agree, Diverged);
    B.SetInsertPoint(Agree);
    // A warp operation: done for this warp, then its region. A block
    // barrier: this warp is done for the round.
    SwitchInst *Op = B.CreateSwitch(Min, Wl.Latch);
    for (const SyncPoint &S : Syncs) {
      if (!S.warpScope())
        continue;
      BasicBlock *Case = BasicBlock::Create(Ctx, "warp.op." + Twine(S.Id), BF);
      Op->addCase(B.getInt32(S.Id), Case);
      IRBuilder<> CB(Case);
      Value *Tag = CB.CreateOr(CB.getInt32(S.Id), NextParity);
      if (S.Kind == SyncKind::Shuffle)
        // The lanes read each other's values themselves; they only need to
        // know which lanes take part.
        emitPresentMask(CB, Base, Count, Tag);
      else if (S.Kind != SyncKind::WarpSync) // __syncwarp only meets.
        CB.CreateCall(Exchange,
                      {frameArray(CB, S.Slot), NumThreads, Base, Count,
                       FrameArg, Tag, CB.getInt32(S.warpKind()),
                       CB.getInt32(S.Mode)});
      CB.CreateStore(CB.getInt32(S.Id), WarpState);
      CB.CreateBr(WarpDispatch);
    }
  }

  B.SetInsertPoint(Wl.Exit);
  B.CreateBr(RoundEnd);
  B.SetInsertPoint(RoundEnd);
  emitRoundEnd(B, Finished);
}

/// One block runs on one OS thread, and only its threads see its shared
/// memory: atomics on shared memory need not be atomic.
void BlockFunctionBuilder::lowerSharedAtomics() {
  auto IsShared = [&](Value *Ptr) {
    auto *Base = dyn_cast<LoadInst>(getUnderlyingObject(Ptr, 0));
    if (!Base)
      return false;
    APInt Offset(64, 0);
    Value *Blk = Base->getPointerOperand()->stripAndAccumulateConstantOffsets(
        DL, Offset, true);
    return Blk == arg(WorkArg::Block) &&
           Offset.getZExtValue() == abi::sharedOffset();
  };
  SmallVector<Instruction *, 8> Atomics;
  for (Instruction &I : instructions(W)) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I);
        RMW && IsShared(RMW->getPointerOperand()))
      Atomics.push_back(RMW);
    if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I);
        CX && IsShared(CX->getPointerOperand()))
      Atomics.push_back(CX);
  }
  for (Instruction *I : Atomics) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerAtomicRMWInst(RMW);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
  }
}

std::optional<std::string> BlockFunctionBuilder::build() {
  if (auto Why = collectSyncPoints())
    return Why;
  lowerSharedAtomics();
  if (auto Why = checkAllocas())
    return Why;
  if (!WarpMode) {
    // Innermost loops become regions too (see LoopBarriers.h).
    SmallVector<BasicBlock *, 8> SyncBlocks;
    for (const SyncPoint &S : Syncs)
      SyncBlocks.push_back(S.Call->getParent());
    if (insertLoopBarriers(W, arg(WorkArg::Thread), SyncBlocks)) {
      Syncs.clear();
      if (auto Why = collectSyncPoints())
        return Why;
    }
  }
  if (!Syncs.empty()) {
    if (Syncs.size() >= IdMask)
      return std::string("it has too many barriers and warp operations");
    (void)Frame.add(4, 4); // PlaceSlot
    if (any_of(Syncs,
               [](const SyncPoint &S) { return S.Kind == SyncKind::Shuffle; }))
      PresentSlot = Frame.add(4, 4);
    for (SyncPoint &S : Syncs)
      lowerSyncPoint(S);
    Divergence.emplace(W, threadSources(),
                       [&](LoadInst &L) { return isBlockInvariantLoad(L); });
    splitLiveValues();
    allocasToFrame();
  }

  createBlockFunction();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", BF);
  IRBuilder<> B(Entry);
  for (unsigned D = 0; D < 3; ++D)
    Dim[D] = abi::loadField32(B, BlkArg, abi::blockDimOffset(D),
                              "ntid." + Twine("xyz"[D]));
  NumThreads = B.CreateMul(B.CreateMul(Dim[0], Dim[1], "", true, true), Dim[2],
                           "nthreads", true, true);
  Parity = B.CreateAlloca(i32(), nullptr, Twine("parity"));
  Lo = B.CreateAlloca(i32(), nullptr, Twine("round.lo"));
  Hi = B.CreateAlloca(i32(), nullptr, Twine("round.hi"));
  RegionVar = B.CreateAlloca(i32(), nullptr, Twine("region"));
  AllHere = B.CreateAlloca(i32(), nullptr, Twine("all.here"));
  B.CreateStore(B.getInt32(0), AllHere);
  B.CreateStore(B.getInt32(0), Parity);
  B.CreateStore(B.getInt32(0), Lo);
  B.CreateStore(B.getInt32(0), Hi);
  Dispatch = BasicBlock::Create(Ctx, "dispatch", BF);
  B.CreateBr(Dispatch);
  if (WarpMode)
    emitWarpLoops();
  else
    emitBlockLoops();
  return std::nullopt;
}

} // namespace

PreservedAnalyses BlockFunctionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Works;
  for (Function &F : M)
    if (!F.isDeclaration() && F.getName().starts_with(WorkPrefix))
      Works.push_back(&F);
  if (Works.empty())
    return PreservedAnalyses::all();
  for (Function *W : Works) {
    std::string Kernel =
        W->getName().drop_front(StringRef(WorkPrefix).size()).str();
    BlockFunctionBuilder Builder(*W, Kernel);
    std::optional<std::string> Why;
    if (!State.ExternalSymbols.count("__cucpu_warp_exchange") ||
        !State.ExternalSymbols.count("__cucpu_block_reduce"))
      Why = "the engine has no services for block functions";
    else
      Why = Builder.build();
    if (!Why) {
      Function *BF = M.getFunction(BlockPrefix + Kernel);
      std::string Problems;
      raw_string_ostream OS(Problems);
      if (verifyFunction(*BF, &OS)) {
        Why = "its block function does not verify (an internal error): " +
              Problems;
        BF->eraseFromParent();
      } else if (Builder.frameBytes() > UINT32_MAX) {
        Why = "its threads need too much private memory";
        BF->eraseFromParent();
      } else {
        State.KernelFrame[Kernel] = static_cast<uint32_t>(Builder.frameBytes());
      }
    } else if (Function *BF = M.getFunction(BlockPrefix + Kernel)) {
      BF->eraseFromParent();
    }
    if (Why)
      State.FallbackReasons[Kernel] = *Why;
    W->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

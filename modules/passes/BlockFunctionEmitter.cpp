//===- BlockFunctionEmitter.cpp - The block function's loops and rounds ---===//
#include "BlockFunctionEmitter.h"
#include "SharedAtomicsPass.h"

#include "cucpu/modules/passes/LoweringMetadata.h"

#include "AbiAccess.h"
#include "LoopBarriers.h"
#include "cucpu/modules/abi/JitAbi.h"
#include "cucpu/modules/passes/JitServices.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace cucpu::modules;
using namespace cucpu::modules::blockfn;

//===----------------------------------------------------------------------===//
// The block function
//===----------------------------------------------------------------------===//

Function *BlockFunctionEmitter::createBlockFunction() {
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

BlockFunctionEmitter::Loop BlockFunctionEmitter::beginLoop(IRBuilder<> &B,
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

void BlockFunctionEmitter::endLoop(IRBuilder<> &B, Loop &L) {
  B.CreateBr(L.Latch);
  B.SetInsertPoint(L.Exit);
}

Value *BlockFunctionEmitter::frameArray(IRBuilder<> &B, uint64_t Offset) {
  Value *N = B.CreateZExt(NumThreads, i64());
  return B.CreateInBoundsGEP(B.getInt8Ty(), FrameArg,
                             B.CreateMul(N, B.getInt64(Offset)));
}

/// Emits, at B (inside a thread loop), region \p Region for the thread with
/// the given coordinates: a thread whose place (At array) is not
/// \p FilterTag skips it (no filter: every thread runs it); one that runs it
/// ends at a sync point j, stored as j | \p NextParity, or returns, stored as
/// ExitTag. Leaves B after the store (the caller closes the loop).
void BlockFunctionEmitter::emitRegionBody(IRBuilder<> &B, unsigned Region,
                                          Value *Tx, Value *Ty, Value *Tz,
                                          Value *Linear, Value *FilterTag,
                                          Value *NextParity,
                                          Instruction *HoistPoint,
                                          MDNode *Group) {
  bool HasSync = !Form.Syncs.empty();
  BasicBlock *Start = Form.regionStart(W, Region);
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

  SmallVector<BasicBlock *, 16> Blocks = Form.regionBlocks(Start);
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".r" + Twine(Region), BF);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  remapInstructionsInBlocks(Clones, VMap);
  // Uniform values kept once per block are read once, before the loop.
  for (auto &[L, Off] : Form.UniformLoads) {
    auto *C = dyn_cast_or_null<LoadInst>(VMap.lookup(L));
    if (!C)
      continue;
    IRBuilder<> HB(HoistPoint);
    C->replaceAllUsesWith(frameLoad(HB, C->getType(), frameArray(HB, Off),
                                    C->getAlign(), C->getName()));
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
    auto ExitIt = Form.ExitBlocks.find(Blocks[I]);
    if (ExitIt != Form.ExitBlocks.end()) {
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
  bool SharedPrivateMemory = false;
  if (!HasSync) {
    BasicBlock &Entry = BF->getEntryBlock();
    for (BasicBlock *C : Clones)
      for (Instruction &I : make_early_inc_range(*C))
        if (auto *A = dyn_cast<AllocaInst>(&I); A && A->isStaticAlloca()) {
          A->moveBefore(&*Entry.getFirstNonPHIOrDbgOrAlloca());
          SharedPrivateMemory = true;
        }
  }

  // The region's memory accesses by different threads are unordered (they
  // would race), except the shared atomics made plain, and those to private
  // memory that all threads reuse.
  auto Tag = [&](Instruction &I) {
    if (SharedPrivateMemory)
      return;
    auto *L = dyn_cast<LoadInst>(&I);
    auto *S = dyn_cast<StoreInst>(&I);
    if ((L && !L->isVolatile()) || (S && !S->isVolatile()))
      if (!I.getMetadata(SharedAtomicMark))
        I.setMetadata(LLVMContext::MD_access_group, Group);
  };
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C)
      Tag(I);

  BasicBlock *RegionEntry = cast<BasicBlock>(VMap[Start]);
  if (FilterTag) {
    // Threads elsewhere (exited, or waiting at another barrier) skip it.
    LoadInst *At = frameLoad(B, i32(), AtAddr, Align(4), "at");
    Tag(*At);
    BasicBlock *Here = B.GetInsertBlock();
    B.CreateCondBr(B.CreateICmpNE(At, FilterTag), Done, RegionEntry);
    NewAt->addIncoming(At, Here);
  } else {
    B.CreateBr(RegionEntry);
  }
  B.SetInsertPoint(Done);
  if (HasSync)
    Tag(*frameStore(B, NewAt, AtAddr, Align(4)));
}

void BlockFunctionEmitter::keepRolled(Loop &L) {
  // With a constant trip count (a specialized block shape) LLVM would unroll
  // the loop fully before the vectorizer sees it: 32 scalar steps where a
  // few vector operations do.
  setLoopProperties(L, {loopHint("llvm.loop.unroll.disable")});
}

void BlockFunctionEmitter::keepShort(Loop &L) {
  // Unrolling by a run-time trip count copies the body and adds a remainder
  // loop; over at most 32 lanes (or a few warps) that saves nothing and, in
  // a kernel with many warp operations, triples its code and compile time.
  setLoopProperties(L, {shortLoopHint()});
}

MDNode *BlockFunctionEmitter::shortLoopHint() {
  return loopHint("llvm.loop.unroll.runtime.disable");
}

MDNode *BlockFunctionEmitter::loopHint(StringRef Name) {
  return MDNode::get(Ctx, {MDString::get(Ctx, Name)});
}

void BlockFunctionEmitter::setLoopProperties(Loop &L,
                                             ArrayRef<Metadata *> Properties) {
  SmallVector<Metadata *, 4> Operands{nullptr};
  Operands.append(Properties.begin(), Properties.end());
  MDNode *Id = MDNode::getDistinct(Ctx, Operands);
  Id->replaceOperandWith(0, Id);
  L.Latch->getTerminator()->setMetadata(LLVMContext::MD_loop, Id);
}

MDNode *BlockFunctionEmitter::parallelAccessGroup() {
  return MDNode::getDistinct(Ctx, {});
}

MDNode *BlockFunctionEmitter::parallelAccesses(MDNode *Group) {
  // The loop's iterations are threads: nothing orders their accesses, so
  // LLVM may vectorize without proving them independent.
  return MDNode::get(
      Ctx, {MDString::get(Ctx, "llvm.loop.parallel_accesses"), Group});
}

void BlockFunctionEmitter::markParallel(Loop &L, MDNode *Group) {
  setLoopProperties(L, {parallelAccesses(Group)});
}

void BlockFunctionEmitter::markParallelLanes(Loop &L, MDNode *Group) {
  setLoopProperties(L, {parallelAccesses(Group), shortLoopHint()});
}

void BlockFunctionEmitter::separateFrameAccesses() {
  if (!Form.FrameScopeList)
    return;
  for (Instruction &I : instructions(*BF)) {
    bool Access = isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst,
                      MemIntrinsic>(I);
    if (!Access ||
        I.getMetadata(LLVMContext::MD_alias_scope) == Form.FrameScopeList)
      continue;
    I.setMetadata(LLVMContext::MD_noalias,
                  MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias),
                                      Form.FrameScopeList));
  }
}

Value *BlockFunctionEmitter::placeAddress(IRBuilder<> &B, Value *Linear) {
  return B.CreateInBoundsGEP(
      B.getInt8Ty(), FrameArg,
      B.CreateMul(B.CreateZExt(Linear, i64()), B.getInt64(4)), "place");
}

Value *BlockFunctionEmitter::tagOf(IRBuilder<> &B, Value *Id, Value *Parity) {
  return B.CreateOr(Id, B.CreateShl(Parity, ParityShift), "tag");
}

std::tuple<Value *, Value *, Value *>
BlockFunctionEmitter::emitScan(IRBuilder<> &B, Value *Base, Value *Count,
                               const Twine &Name, Value *RanUpTo) {
  BasicBlock *Pre = B.GetInsertBlock();
  Loop L = beginLoop(B, Count, Name);
  PHINode *Min = B.CreatePHI(i32(), 2, Name + ".min");
  PHINode *Max = B.CreatePHI(i32(), 2, Name + ".max");
  PHINode *Exits = B.CreatePHI(i32(), 2, Name + ".exits");
  Min->addIncoming(B.getInt32(IdMask), Pre);
  Max->addIncoming(B.getInt32(0), Pre);
  Exits->addIncoming(B.getInt32(0), Pre);
  Value *AtAddr = placeAddress(B, B.CreateAdd(Base, L.IV));
  Value *At = frameLoad(B, i32(), AtAddr, Align(4), "at");
  Value *Gone = B.CreateICmpEQ(At, B.getInt32(ExitTag));
  Value *Id = B.CreateAnd(At, IdMask);
  if (RanUpTo) {
    // A thread waiting past the round's regions kept its tag of the round
    // it arrived in: it gets the next round's parity, as those that ran.
    Value *NextParity = B.CreateShl(
        B.CreateXor(B.CreateLoad(i32(), Parity), B.getInt32(1)), ParityShift);
    Value *Waited =
        B.CreateAnd(B.CreateNot(Gone), B.CreateICmpUGT(Id, RanUpTo));
    BasicBlock *Refresh = BasicBlock::Create(Ctx, Name + ".refresh", BF);
    BasicBlock *Next = BasicBlock::Create(Ctx, Name + ".next", BF);
    B.CreateCondBr(Waited, Refresh, Next);
    B.SetInsertPoint(Refresh);
    frameStore(B, B.CreateOr(Id, NextParity), AtAddr, Align(4));
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
  Value *NextMin = B.CreateBinaryIntrinsic(
      Intrinsic::umin, Min, B.CreateSelect(Gone, B.getInt32(IdMask), Id));
  Value *NextMax = B.CreateBinaryIntrinsic(
      Intrinsic::umax, Max, B.CreateSelect(Gone, B.getInt32(0), Id));
  Value *NextExits = B.CreateOr(Exits, B.CreateZExt(Gone, i32()));
  Min->addIncoming(NextMin, L.Latch);
  Max->addIncoming(NextMax, L.Latch);
  Exits->addIncoming(NextExits, L.Latch);
  endLoop(B, L);
  keepRolled(L);
  PHINode *FinalMin = B.CreatePHI(i32(), 1, Name + ".lo");
  PHINode *FinalMax = B.CreatePHI(i32(), 1, Name + ".hi");
  PHINode *FinalExits = B.CreatePHI(i32(), 1, Name + ".gone");
  FinalMin->addIncoming(NextMin, L.Latch);
  FinalMax->addIncoming(NextMax, L.Latch);
  FinalExits->addIncoming(NextExits, L.Latch);
  return {FinalMin, FinalMax, FinalExits};
}

void BlockFunctionEmitter::emitReductions(IRBuilder<> &B, Value *Id,
                                          Value *Parity) {
  SmallVector<const SyncPoint *, 4> Reduces;
  for (const SyncPoint &S : Form.Syncs)
    if (S.Kind == SyncKind::BarrierReduce)
      Reduces.push_back(&S);
  if (Reduces.empty())
    return;
  FunctionCallee Reduce =
      declareJitService(M, JitService::__cucpu_block_reduce);
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

void BlockFunctionEmitter::emitWholeBlockRegion(IRBuilder<> &B, unsigned Region,
                                                Value *P, BasicBlock *After) {
  Value *NextParity =
      B.CreateShl(B.CreateXor(P, B.getInt32(1)), ParityShift, "next.parity");
  auto EmitLoops = [&](Value *Filter, BasicBlock *Then) {
    BasicBlock *Preheader = B.GetInsertBlock();
    Loop Z = beginLoop(B, Dim[2], "z" + Twine(Region));
    Loop Y = beginLoop(B, Dim[1], "y" + Twine(Region));
    Value *Row =
        B.CreateMul(B.CreateAdd(B.CreateMul(Z.IV, Dim[1], "", true, true), Y.IV,
                                "", true, true),
                    Dim[0], "row", true, true);
    Loop X = beginLoop(B, Dim[0], "x" + Twine(Region));
    Value *Linear = B.CreateAdd(Row, X.IV, "linear", true, true);
    MDNode *Group = parallelAccessGroup();
    emitRegionBody(B, Region, X.IV, Y.IV, Z.IV, Linear, Filter, NextParity,
                   Preheader->getTerminator(), Group);
    endLoop(B, X);
    markParallel(X, Group);
    endLoop(B, Y);
    endLoop(B, Z);
    B.CreateBr(Then);
  };
  // When every thread ran the region and it has a uniform exit, all are at
  // one place: no need to look at each. (Not when the warps go on.)
  BasicBlock *AfterAll =
      !Form.UniformExit.empty() && Form.UniformExit[Region] && After != ByWarps
          ? AllAtOnePlace
          : After;
  if (Region == 0) {
    EmitLoops(nullptr, AfterAll);
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
  EmitLoops(nullptr, AfterAll);
  B.SetInsertPoint(Some);
  EmitLoops(tagOf(B, B.getInt32(Region), P), After);
}

void BlockFunctionEmitter::emitAllAtOnePlace(BasicBlock *Finished) {
  AllAtOnePlace = BasicBlock::Create(Ctx, "all.at.one.place", BF);
  IRBuilder<> B(AllAtOnePlace);
  Value *At =
      frameLoad(B, i32(), placeAddress(B, B.getInt32(0)), Align(4), "at.first");
  BasicBlock *Next = BasicBlock::Create(Ctx, "all.next", BF);
  B.CreateCondBr(B.CreateICmpEQ(At, B.getInt32(ExitTag)), Finished, Next);
  B.SetInsertPoint(Next);
  Value *Id = B.CreateAnd(At, IdMask, "id");
  B.CreateStore(Id, Lo);
  B.CreateStore(Id, Hi);
  B.CreateStore(B.getInt32(1), AllHere);
  B.CreateStore(B.CreateXor(B.CreateLoad(i32(), Parity), B.getInt32(1)),
                Parity);
  B.CreateBr(Dispatch);
}

bool BlockFunctionEmitter::reachesWarpOperation(unsigned Region) {
  BasicBlock *Start = Form.regionStart(W, Region);
  for (BasicBlock *BB : Form.regionBlocks(Start)) {
    auto It = Form.ExitBlocks.find(BB);
    if (It != Form.ExitBlocks.end() && Form.Syncs[It->second - 1].warpScope())
      return true;
  }
  return false;
}

/// At the end of a round: where did the threads stop? Finishes the block
/// when all returned, else sets up the next round.
void BlockFunctionEmitter::emitRoundEnd(IRBuilder<> &B, BasicBlock *Finished) {
  // Only a round held back by loop barriers (finishRound) leaves threads
  // waiting at regions it did not run.
  Value *RanUpTo = Form.LoopBarrierCount > 0 && !Form.WarpMode
                       ? B.CreateLoad(i32(), Hi, "ran.up.to")
                       : nullptr;
  auto [Min, Max, Gone] =
      emitScan(B, B.getInt32(0), NumThreads, "scan", RanUpTo);
  finishRound(B, Min, Max, Gone, Finished);
}

void BlockFunctionEmitter::finishRound(IRBuilder<> &B, Value *Min, Value *Max,
                                       Value *Gone, BasicBlock *Finished) {
  BasicBlock *Again = BasicBlock::Create(Ctx, "round.again", BF);
  B.CreateCondBr(B.CreateICmpEQ(Max, B.getInt32(0)), Finished, Again);
  B.SetInsertPoint(Again);
  B.CreateStore(Min, Lo);
  // Every thread waits at the one region the round runs: it may run without
  // testing each thread's place. Judged on where the threads really are,
  // before the clamp below: a thread that left a loop for a kernel barrier
  // must not run the loop's region again.
  Value *Everyone =
      B.CreateZExt(B.CreateAnd(B.CreateICmpEQ(Min, Max),
                               B.CreateICmpEQ(Gone, B.getInt32(0))),
                   i32(), "everyone");
  if (Form.LoopBarrierCount > 0 && !Form.WarpMode) {
    // Threads at a loop barrier go on first; the others wait at the
    // kernel's barriers until every thread has left the loops (or reached
    // a kernel barrier): the kernel's barriers keep their meaning.
    Value *K = B.getInt32(Form.LoopBarrierCount);
    Value *InLoops = B.CreateICmpULE(Min, K);
    Max = B.CreateSelect(InLoops,
                         B.CreateBinaryIntrinsic(Intrinsic::umin, Max, K), Max);
  }
  B.CreateStore(Max, Hi);
  B.CreateStore(Everyone, AllHere);
  B.CreateStore(B.CreateXor(B.CreateLoad(i32(), Parity), B.getInt32(1)),
                Parity);
  B.CreateBr(Dispatch);
}

/// Kernels without warp operations: rounds, each running the regions
/// Lo..Hi (one, unless threads wait at different barriers) as loops z, y, x
/// over the whole block, then finding where the threads stopped.
void BlockFunctionEmitter::emitBlockLoops() {
  IRBuilder<> B(Dispatch);
  BasicBlock *Finished = BasicBlock::Create(Ctx, "finished", BF);
  IRBuilder<>(Finished).CreateRet(B.getInt32(CucpuBlockDone));
  emitAllAtOnePlace(Finished);
  BasicBlock *RegionDispatch = BasicBlock::Create(Ctx, "region.dispatch", BF);
  BasicBlock *NextRegion = BasicBlock::Create(Ctx, "region.next", BF);
  BasicBlock *Scan = BasicBlock::Create(Ctx, "round.end", BF);
  // Dispatch: the start of a round.
  B.CreateStore(B.CreateLoad(i32(), Lo), RegionVar);
  B.CreateBr(RegionDispatch);

  B.SetInsertPoint(RegionDispatch);
  Value *R = B.CreateLoad(i32(), RegionVar, "region");
  SwitchInst *Sw = B.CreateSwitch(R, NextRegion, Form.Syncs.size() + 1);
  for (unsigned Region = 0; Region <= Form.Syncs.size(); ++Region) {
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
  if (Form.Syncs.empty()) {
    B.CreateBr(Finished);
    return;
  }
  emitRoundEnd(B, Finished);
}

/// Stores, at the warp's first lane of the present-mask array, the lanes
/// [Base, Base + Count) whose place is \p Tag (those at the shuffle).
void BlockFunctionEmitter::emitPresentMask(IRBuilder<> &B, Value *Base,
                                           Value *Count, Value *Tag) {
  BasicBlock *Pre = B.GetInsertBlock();
  Loop L = beginLoop(B, Count, "present");
  PHINode *Mask = B.CreatePHI(i32(), 2, "present.mask");
  Mask->addIncoming(B.getInt32(0), Pre);
  Value *At = frameLoad(B, i32(), placeAddress(B, B.CreateAdd(Base, L.IV)),
                        Align(4), "at");
  Value *Bit = B.CreateShl(B.CreateZExt(B.CreateICmpEQ(At, Tag), i32()), L.IV);
  Value *Next = B.CreateOr(Mask, Bit);
  Mask->addIncoming(Next, L.Latch);
  endLoop(B, L);
  keepRolled(L);
  PHINode *Final = B.CreatePHI(i32(), 1, "present");
  Final->addIncoming(Next, L.Latch);
  storePresentMask(B, Base, Count, Final);
}

void BlockFunctionEmitter::storePresentMask(IRBuilder<> &B, Value *Base,
                                            Value *Count, Value *Mask) {
  Loop L = beginLoop(B, Count, "present.store");
  Value *Lane = B.CreateZExt(B.CreateAdd(Base, L.IV), i64());
  frameStore(B, Mask,
             B.CreateInBoundsGEP(i32(), frameArray(B, Form.PresentSlot), Lane),
             Align(4));
  endLoop(B, L);
  keepShort(L);
}

void BlockFunctionEmitter::copyLanes(IRBuilder<> &B, uint64_t From, uint64_t To,
                                     Value *Base, Value *Count) {
  Loop L = beginLoop(B, Count, "copy");
  Value *Lane = B.CreateZExt(B.CreateAdd(Base, L.IV), i64());
  Value *V =
      frameLoad(B, i32(), B.CreateInBoundsGEP(i32(), frameArray(B, From), Lane),
                Align(4));
  frameStore(B, V, B.CreateInBoundsGEP(i32(), frameArray(B, To), Lane),
             Align(4));
  endLoop(B, L);
  keepShort(L);
}

/// Kernels with warp operations: a round runs the block's region over the
/// whole block, as without warp operations; threads stop at their next
/// block barrier or warp operation. Then each warp whose lanes stopped at a
/// warp operation goes on alone: the operation is done for the warp, its
/// lanes run the region after it (a loop over the lanes), and so on until
/// they reach a block barrier or return. Running the block's region whole
/// is one valid order: nothing orders threads between synchronizations.
void BlockFunctionEmitter::emitWarpLoops() {
  IRBuilder<> B(Dispatch);
  WarpRound W;
  W.Finished = BasicBlock::Create(Ctx, "finished", BF);
  W.Diverged = BasicBlock::Create(Ctx, "diverged", BF);
  IRBuilder<>(W.Finished).CreateRet(B.getInt32(CucpuBlockDone));
  IRBuilder<>(W.Diverged).CreateRet(B.getInt32(CucpuBlockDiverged));
  emitAllAtOnePlace(W.Finished);
  W.Exchange = declareJitService(M, JitService::__cucpu_warp_exchange);

  // Dispatch: the start of a round. Threads waiting at different barriers
  // are not supported here.
  Value *Start = B.CreateLoad(i32(), Lo, "round.region");
  BasicBlock *Uniform = BasicBlock::Create(Ctx, "round.uniform", BF);
  B.CreateCondBr(B.CreateICmpEQ(Start, B.CreateLoad(i32(), Hi)), Uniform,
                 W.Diverged);
  B.SetInsertPoint(Uniform);
  Value *P = B.CreateLoad(i32(), Parity, "parity");
  W.NextParity =
      B.CreateShl(B.CreateXor(P, B.getInt32(1)), ParityShift, "next.parity");
  emitReductions(B, Start, P);
  // A round starts after a block barrier (or at the entry): warps leave
  // their warp operations within the round.
  BasicBlock *RoundEnd = BasicBlock::Create(Ctx, "round.end", BF);
  ByWarps = BasicBlock::Create(Ctx, "by.warps", BF);
  SwitchInst *Whole = B.CreateSwitch(Start, W.Diverged);
  for (unsigned R = 0; R <= Form.Syncs.size(); ++R) {
    if (R > 0 && Form.Syncs[R - 1].warpScope())
      continue;
    BasicBlock *Case = BasicBlock::Create(Ctx, "whole." + Twine(R), BF);
    Whole->addCase(B.getInt32(R), Case);
    B.SetInsertPoint(Case);
    emitWholeBlockRegion(B, R, P, reachesWarpOperation(R) ? ByWarps : RoundEnd);
  }

  // Where the warps stop, gathered as each warp finishes its part of the
  // round (every lane's place is then known): the round ends without
  // scanning the block's places again.
  IRBuilder<> EB(&BF->getEntryBlock(), BF->getEntryBlock().begin());
  W.StopMin = EB.CreateAlloca(i32(), nullptr, "warps.min");
  W.StopMax = EB.CreateAlloca(i32(), nullptr, "warps.max");
  W.StopGone = EB.CreateAlloca(i32(), nullptr, "warps.gone");
  B.SetInsertPoint(ByWarps);
  B.CreateStore(B.getInt32(IdMask), W.StopMin);
  B.CreateStore(B.getInt32(0), W.StopMax);
  B.CreateStore(B.getInt32(0), W.StopGone);
  W.Bx = Dim[0];
  W.Bxy = B.CreateMul(Dim[0], Dim[1], "", true, true);
  W.OneDimensional = B.CreateICmpEQ(W.Bx, NumThreads, "one.dimensional");
  Value *Warps =
      B.CreateLShr(B.CreateAdd(NumThreads, B.getInt32(31)), 5, "warps");
  W.Warp = beginLoop(B, Warps, "warp");
  W.Base = B.CreateShl(W.Warp.IV, 5, "lane0", true, true);
  W.Count = B.CreateBinaryIntrinsic(Intrinsic::umin, B.getInt32(32),
                                    B.CreateSub(NumThreads, W.Base), nullptr,
                                    "lanes");
  auto [FirstOp, FirstAll] = emitLaneCheck(B, W, "lanes.first");
  BasicBlock *Enter = BasicBlock::Create(Ctx, "warp.enter", BF);
  addWarpOperationCases(
      B,
      B.CreateSwitch(FirstOp,
                     emitWarpStop(W, FirstOp, FirstAll, "lanes.first.stop")),
      Enter);
  B.SetInsertPoint(Enter);
  W.OpBlock = BasicBlock::Create(Ctx, "warp.op", BF);
  B.CreateBr(W.OpBlock);
  B.SetInsertPoint(W.OpBlock);
  W.OpId = B.CreatePHI(i32(), 2, "warp.op.id");
  W.AllLanes = B.CreatePHI(B.getInt1Ty(), 2, "warp.all");
  W.OpId->addIncoming(FirstOp, Enter);
  W.AllLanes->addIncoming(FirstAll, Enter);
  W.Op = B.CreateSwitch(W.OpId, W.Diverged);
  W.Lanes = BasicBlock::Create(Ctx, "lanes", BF);
  for (const SyncPoint &S : Form.Syncs)
    if (S.warpScope())
      emitWarpOperation(B, W, S);
  B.SetInsertPoint(W.Lanes);
  auto [NextOp, NextAll] = emitLaneCheck(B, W, "lanes.next");
  BasicBlock *Again = BasicBlock::Create(Ctx, "warp.op.next", BF);
  addWarpOperationCases(B,
                        B.CreateSwitch(NextOp, emitWarpStop(W, NextOp, NextAll,
                                                            "lanes.next.stop")),
                        Again);
  B.SetInsertPoint(Again);
  B.CreateBr(W.OpBlock);
  W.OpId->addIncoming(NextOp, Again);
  W.AllLanes->addIncoming(NextAll, Again);

  keepShort(W.Warp);
  B.SetInsertPoint(W.Warp.Exit);
  finishRound(B, B.CreateLoad(i32(), W.StopMin), B.CreateLoad(i32(), W.StopMax),
              B.CreateLoad(i32(), W.StopGone), W.Finished);
  B.SetInsertPoint(RoundEnd);
  emitRoundEnd(B, W.Finished);
}

BasicBlock *BlockFunctionEmitter::emitWarpStop(WarpRound &W, Value *Id,
                                               Value *All, const Twine &Name) {
  BasicBlock *Stop = BasicBlock::Create(Ctx, Name, BF);
  IRBuilder<> SB(Stop);
  if (Id) {
    SB.CreateStore(SB.CreateBinaryIntrinsic(
                       Intrinsic::umin, SB.CreateLoad(i32(), W.StopMin), Id),
                   W.StopMin);
    SB.CreateStore(SB.CreateBinaryIntrinsic(
                       Intrinsic::umax, SB.CreateLoad(i32(), W.StopMax), Id),
                   W.StopMax);
  }
  Value *Returned =
      All ? SB.CreateZExt(SB.CreateNot(All), i32()) : SB.getInt32(1);
  SB.CreateStore(SB.CreateOr(SB.CreateLoad(i32(), W.StopGone), Returned),
                 W.StopGone);
  SB.CreateBr(W.Warp.Latch);
  return Stop;
}

std::pair<Value *, Value *>
BlockFunctionEmitter::emitLaneCheck(IRBuilder<> &B, WarpRound &W,
                                    const Twine &Name) {
  auto [Min, Max, Gone] = emitScan(B, W.Base, W.Count, Name);
  BasicBlock *Check = BasicBlock::Create(Ctx, Name + ".check", BF);
  B.CreateCondBr(B.CreateICmpEQ(Max, B.getInt32(0)),
                 emitWarpStop(W, nullptr, nullptr, Name + ".returned"), Check);
  B.SetInsertPoint(Check);
  BasicBlock *Agree = BasicBlock::Create(Ctx, Name + ".agree", BF);
  Value *Together = B.CreateICmpEQ(Max, Min);
  Value *GoesOn = Together;
  if (Form.LockstepCount > 0)
    GoesOn =
        B.CreateOr(GoesOn, B.CreateICmpULE(Min, B.getInt32(Form.LockstepCount)),
                   "lockstep");
  B.CreateCondBr(GoesOn, Agree, W.Diverged);
  B.SetInsertPoint(Agree);
  return {Min, B.CreateAnd(Together, B.CreateICmpEQ(Gone, B.getInt32(0)),
                           Name + ".all")};
}

void BlockFunctionEmitter::addWarpOperationCases(IRBuilder<> &B, SwitchInst *Sw,
                                                 BasicBlock *To) {
  for (const SyncPoint &S : Form.Syncs)
    if (S.warpScope())
      Sw->addCase(B.getInt32(S.Id), To);
}

void BlockFunctionEmitter::emitLaneLoops(IRBuilder<> &B, WarpRound &W,
                                         unsigned R, Value *FilterTag,
                                         BasicBlock *Next) {
  BasicBlock *Flat = BasicBlock::Create(Ctx, "flat." + Twine(R), BF);
  BasicBlock *Shaped = BasicBlock::Create(Ctx, "shaped." + Twine(R), BF);
  B.CreateCondBr(W.OneDimensional, Flat, Shaped);
  B.SetInsertPoint(Flat);
  Loop FL = beginLoop(B, W.Count, "lane" + Twine(R));
  Value *FlatLinear = B.CreateAdd(W.Base, FL.IV, "linear", true, true);
  MDNode *FlatGroup = parallelAccessGroup();
  emitRegionBody(B, R, FlatLinear, B.getInt32(0), B.getInt32(0), FlatLinear,
                 FilterTag, W.NextParity, Flat->getTerminator(), FlatGroup);
  endLoop(B, FL);
  markParallelLanes(FL, FlatGroup);
  B.CreateBr(Next);
  B.SetInsertPoint(Shaped);
  Loop L = beginLoop(B, W.Count, "lane" + Twine(R));
  Value *Linear = B.CreateAdd(W.Base, L.IV, "linear", true, true);
  Value *Tx = B.CreateURem(Linear, W.Bx, "tid.x");
  Value *Ty = B.CreateURem(B.CreateUDiv(Linear, W.Bx), Dim[1], "tid.y");
  Value *Tz = B.CreateUDiv(Linear, W.Bxy, "tid.z");
  MDNode *ShapedGroup = parallelAccessGroup();
  emitRegionBody(B, R, Tx, Ty, Tz, Linear, FilterTag, W.NextParity,
                 Shaped->getTerminator(), ShapedGroup);
  endLoop(B, L);
  markParallelLanes(L, ShapedGroup);
  B.CreateBr(Next);
}

void BlockFunctionEmitter::emitWarpOperation(IRBuilder<> &B, WarpRound &W,
                                             const SyncPoint &S) {
  unsigned R = S.Id;
  BasicBlock *Case = BasicBlock::Create(Ctx, "warp.op." + Twine(R), BF);
  W.Op->addCase(B.getInt32(R), Case);
  B.SetInsertPoint(Case);
  Value *Tag = B.CreateOr(B.getInt32(R), W.NextParity);
  if (S.Kind != SyncKind::Shuffle && S.Kind != SyncKind::WarpSync &&
      S.Kind != SyncKind::Lockstep)
    B.CreateCall(W.Exchange,
                 {frameArray(B, S.Slot), NumThreads, W.Base, W.Count, FrameArg,
                  Tag, B.getInt32(S.warpKind()), B.getInt32(S.Mode)});
  if (S.SnapshotSlot)
    copyLanes(B, S.Slot, S.SnapshotSlot, W.Base, W.Count);
  BasicBlock *All = BasicBlock::Create(Ctx, "warp.all." + Twine(R), BF);
  BasicBlock *Some = BasicBlock::Create(Ctx, "warp.some." + Twine(R), BF);
  B.CreateCondBr(W.AllLanes, All, Some);

  // Some lanes exited: only those at R take part. A shuffle's lanes read
  // each other's values themselves; they only need to know which lanes
  // take part (__syncwarp only meets; votes and matches are exchanged).
  B.SetInsertPoint(Some);
  if (S.Kind == SyncKind::Shuffle)
    emitPresentMask(B, W.Base, W.Count, Tag);
  emitLaneLoops(B, W, R, Tag, W.Lanes);

  // Every lane is at R: no lane needs testing, and after a region with a
  // uniform exit they all are at one place, their first lane's.
  B.SetInsertPoint(All);
  if (S.Kind == SyncKind::Shuffle) {
    Value *Wide = B.CreateShl(B.getInt64(1), B.CreateZExt(W.Count, i64()));
    storePresentMask(B, W.Base, W.Count,
                     B.CreateTrunc(B.CreateSub(Wide, B.getInt64(1)), i32()));
  }
  if (!Form.UniformExit[R]) {
    emitLaneLoops(B, W, R, nullptr, W.Lanes);
    return;
  }
  BasicBlock *Follow = BasicBlock::Create(Ctx, "warp.follow." + Twine(R), BF);
  emitLaneLoops(B, W, R, nullptr, Follow);
  B.SetInsertPoint(Follow);
  Value *At =
      frameLoad(B, i32(), placeAddress(B, W.Base), Align(4), "at.lane0");
  BasicBlock *Going = BasicBlock::Create(Ctx, "warp.going." + Twine(R), BF);
  B.CreateCondBr(B.CreateICmpEQ(At, B.getInt32(ExitTag)),
                 emitWarpStop(W, nullptr, nullptr, "warp.returned." + Twine(R)),
                 Going);
  B.SetInsertPoint(Going);
  Value *NextId = B.CreateAnd(At, IdMask, "id");
  BasicBlock *Chain = BasicBlock::Create(Ctx, "warp.chain." + Twine(R), BF);
  addWarpOperationCases(
      B,
      B.CreateSwitch(NextId, emitWarpStop(W, NextId, B.getTrue(),
                                          "warp.stop." + Twine(R))),
      Chain);
  B.SetInsertPoint(Chain);
  B.CreateBr(W.OpBlock);
  W.OpId->addIncoming(NextId, Chain);
  W.AllLanes->addIncoming(B.getTrue(), Chain);
}

Function *BlockFunctionEmitter::run() {
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
  if (Form.WarpMode)
    emitWarpLoops();
  else
    emitBlockLoops();
  separateFrameAccesses();
  return BF;
}

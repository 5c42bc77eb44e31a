//===- SyncPass.cpp - Barriers and warp functions as engine calls ---------===//
//
// Everything that involves other threads of the block becomes a call of an
// engine service (JitServices.def) with the calling thread. The thread entry
// keeps these calls: on the fiber engine they are where threads meet.
// cucpu-form-regions later turns each of them in a work function into a
// split between regions (RegionFormation.cpp).
//
//===----------------------------------------------------------------------===//
#include "SyncPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/JitServices.h"
#include "cucpu/modules/passes/LoweringMetadata.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {

/// Declares the engine services with JitAbi.h's C signatures.
struct Services {
  explicit Services(Module &M) : M(M), Ctx(M.getContext()) {}

  FunctionCallee get(JitService S) {
    FunctionCallee Callee = declareJitService(M, S);
    // Convergent, as the NVVM intrinsics they replace: the optimizer must
    // not duplicate a barrier into paths that only some threads take (jump
    // threading would), which would make one barrier two.
    if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
      F->addFnAttr(Attribute::NoUnwind);
      F->addFnAttr(Attribute::Convergent);
    }
    return Callee;
  }
  Type *ptr() { return PointerType::get(Ctx, 0); }
  Type *i32() { return Type::getInt32Ty(Ctx); }
  Type *i64() { return Type::getInt64Ty(Ctx); }
  Type *voidTy() { return Type::getVoidTy(Ctx); }

  FunctionCallee barrier() { return get(JitService::__cucpu_barrier); }
  FunctionCallee barrierReduce() {
    return get(JitService::__cucpu_barrier_reduce);
  }
  FunctionCallee warpSync() { return get(JitService::__cucpu_warp_sync); }
  FunctionCallee vote() { return get(JitService::__cucpu_warp_vote); }
  FunctionCallee shfl() { return get(JitService::__cucpu_warp_shfl); }
  FunctionCallee match() { return get(JitService::__cucpu_warp_match); }
  FunctionCallee activeMask() { return get(JitService::__cucpu_activemask); }
  FunctionCallee yield() { return get(JitService::__cucpu_yield); }

  Module &M;
  LLVMContext &Ctx;
};

/// An i32 slot in the entry block of \p F for an out-parameter.
Value *entrySlot(Function &F, const Twine &Name) {
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  return B.CreateAlloca(B.getInt32Ty(), nullptr, Name);
}

/// The shuffle mode number of JitAbi.h for "idx", "up", "down", "bfly".
int shuffleMode(StringRef Mode) {
  return StringSwitch<int>(Mode)
      .Case("idx", 0)
      .Case("up", 1)
      .Case("down", 2)
      .Case("bfly", 3)
      .Default(-1);
}

/// Builds (once) a module function that reduces a 32-bit value over the
/// lanes of a mask with index shuffles: redux.sync has no engine service,
/// and every lane of the mask runs the same loop, as shuffles require.
Function *reduxHelper(Services &S, StringRef Op) {
  std::string Name = ("cucpu.redux." + Op).str();
  if (Function *F = S.M.getFunction(Name))
    return F;
  auto *Ty = FunctionType::get(S.i32(), {S.ptr(), S.i32(), S.i32()}, false);
  Function *F = Function::Create(Ty, GlobalValue::InternalLinkage, Name, S.M);
  F->addFnAttr(ThreadArgAttr);
  F->addFnAttr(Attribute::NoUnwind);
  Value *T = F->getArg(0), *V = F->getArg(1), *Mask = F->getArg(2);
  auto *Entry = BasicBlock::Create(S.Ctx, "entry", F);
  auto *Loop = BasicBlock::Create(S.Ctx, "loop", F);
  auto *Body = BasicBlock::Create(S.Ctx, "body", F);
  auto *Latch = BasicBlock::Create(S.Ctx, "latch", F);
  auto *Exit = BasicBlock::Create(S.Ctx, "exit", F);
  IRBuilder<> B(Entry);
  Value *Slot = B.CreateAlloca(S.i32());
  int64_t Init = StringSwitch<int64_t>(Op)
                     .Case("and", -1)
                     .Case("umin", -1)
                     .Case("min", INT32_MAX)
                     .Case("max", INT32_MIN)
                     .Default(0);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Lane = B.CreatePHI(S.i32(), 2, "lane");
  PHINode *Acc = B.CreatePHI(S.i32(), 2, "acc");
  Lane->addIncoming(B.getInt32(0), Entry);
  Acc->addIncoming(B.getInt32(static_cast<uint32_t>(Init)), Entry);
  Value *Bit = B.CreateAnd(B.CreateLShr(Mask, Lane), 1);
  B.CreateCondBr(B.CreateICmpNE(Bit, B.getInt32(0)), Body, Latch);
  B.SetInsertPoint(Body);
  Value *X = B.CreateCall(
      S.shfl(), {T, Mask, V, Lane, B.getInt32(0x1f), B.getInt32(0), Slot});
  Value *C = nullptr;
  if (Op == "add")
    C = B.CreateAdd(Acc, X);
  else if (Op == "and")
    C = B.CreateAnd(Acc, X);
  else if (Op == "or")
    C = B.CreateOr(Acc, X);
  else if (Op == "xor")
    C = B.CreateXor(Acc, X);
  else if (Op == "min")
    C = B.CreateSelect(B.CreateICmpSLT(X, Acc), X, Acc);
  else if (Op == "max")
    C = B.CreateSelect(B.CreateICmpSGT(X, Acc), X, Acc);
  else if (Op == "umin")
    C = B.CreateSelect(B.CreateICmpULT(X, Acc), X, Acc);
  else
    C = B.CreateSelect(B.CreateICmpUGT(X, Acc), X, Acc);
  B.CreateBr(Latch);
  B.SetInsertPoint(Latch);
  PHINode *Next = B.CreatePHI(S.i32(), 2);
  Next->addIncoming(Acc, Loop);
  Next->addIncoming(C, Body);
  Value *NextLane = B.CreateAdd(Lane, B.getInt32(1));
  Lane->addIncoming(NextLane, Latch);
  Acc->addIncoming(Next, Latch);
  B.CreateCondBr(B.CreateICmpEQ(NextLane, B.getInt32(32)), Exit, Loop);
  B.SetInsertPoint(Exit);
  B.CreateRet(Next);
  return F;
}

/// Lowers one call \p CB of the NVVM intrinsic whose name without
/// "llvm.nvvm." is \p Name; returns false if it is not one of ours.
bool lowerCall(Services &S, CallBase *CB, StringRef Name, Value *T,
               bool &Known) {
  Known = true;
  IRBuilder<> B(CB);
  auto Arg = [&](unsigned I) { return CB->getArgOperand(I); };
  auto Result = [&](Value *V) { abi::replaceCall(CB, V); };

  if (Name == "barrier0" || Name == "barrier.sync" || Name == "bar.sync" ||
      Name == "barrier.n" || Name == "barrier" || Name == "barrier.sync.cnt" ||
      Name == "barrier.cta.sync.aligned.all" ||
      Name == "barrier.cta.sync.all") {
    // Named barriers with a thread count are treated as whole-block
    // barriers: CUDA C++ only reaches them through __syncthreads.
    B.CreateCall(S.barrier(), {T});
    Result(nullptr);
    return true;
  }
  if (Name.consume_front("barrier0.")) {
    int Op = StringSwitch<int>(Name)
                 .Case("popc", 0)
                 .Case("and", 1)
                 .Case("or", 2)
                 .Default(-1);
    if (Op < 0)
      return Known = false;
    Value *Pred = B.CreateZExt(
        B.CreateICmpNE(Arg(0), ConstantInt::get(Arg(0)->getType(), 0)),
        S.i32());
    Value *R = B.CreateCall(S.barrierReduce(), {T, Pred, B.getInt32(Op)});
    Result(B.CreateZExtOrTrunc(R, CB->getType()));
    return true;
  }
  if (Name == "bar.warp.sync") {
    B.CreateCall(S.warpSync(), {T, Arg(0)});
    Result(nullptr);
    return true;
  }
  if (Name == "activemask") {
    Result(B.CreateCall(S.activeMask(), {T}));
    return true;
  }
  if (Name == "nanosleep") {
    B.CreateCall(S.yield(), {T});
    Result(nullptr);
    return true;
  }
  if (Name.consume_front("vote.")) {
    bool Sync = Name.consume_back(".sync");
    int Mode = StringSwitch<int>(Name)
                   .Case("all", 0)
                   .Case("any", 1)
                   .Case("uni", 2)
                   .Case("ballot", 3)
                   .Default(-1);
    if (Mode < 0)
      return Known = false;
    Value *Mask = Sync ? Arg(0) : B.CreateCall(S.activeMask(), {T});
    Value *Pred = B.CreateZExt(Arg(Sync ? 1 : 0), S.i32());
    Value *R = B.CreateCall(S.vote(), {T, Mask, Pred, B.getInt32(Mode)});
    if (CB->getType()->isIntegerTy(1))
      R = B.CreateICmpNE(R, B.getInt32(0));
    Result(R);
    return true;
  }
  if (Name.consume_front("shfl.")) {
    bool Sync = Name.consume_front("sync.");
    auto [ModeName, Rest] = Name.split('.');
    int Mode = shuffleMode(ModeName);
    bool WithPred = Rest.consume_back("p");
    if (Mode < 0 || (Rest != "i32" && Rest != "f32"))
      return Known = false;
    unsigned First = Sync ? 1 : 0;
    Value *Mask = Sync ? Arg(0) : B.CreateCall(S.activeMask(), {T});
    Value *Val = Arg(First);
    if (Val->getType()->isFloatTy())
      Val = B.CreateBitCast(Val, S.i32());
    Value *Slot = entrySlot(*CB->getFunction(), "cucpu.shfl.pred");
    Value *R = B.CreateCall(S.shfl(), {T, Mask, Val, Arg(First + 1),
                                       Arg(First + 2), B.getInt32(Mode), Slot});
    Type *ValTy = Arg(First)->getType();
    if (ValTy->isFloatTy())
      R = B.CreateBitCast(R, ValTy);
    if (WithPred) {
      Value *InRange =
          B.CreateICmpNE(B.CreateLoad(S.i32(), Slot), B.getInt32(0));
      Value *Pair = PoisonValue::get(CB->getType());
      Pair = B.CreateInsertValue(Pair, R, 0);
      R = B.CreateInsertValue(Pair, InRange, 1);
    }
    Result(R);
    return true;
  }
  if (Name.consume_front("match.")) {
    auto [ModeName, Rest] = Name.split('.');
    int Mode =
        StringSwitch<int>(ModeName).Case("any", 0).Case("all", 1).Default(-1);
    if (Mode < 0 || !Rest.consume_front("sync."))
      return Known = false;
    bool WithPred = Rest.consume_back("p");
    if (Rest != "i32" && Rest != "i64")
      return Known = false;
    Value *Slot = entrySlot(*CB->getFunction(), "cucpu.match.pred");
    Value *V64 = B.CreateZExt(Arg(1), S.i64());
    Value *R =
        B.CreateCall(S.match(), {T, Arg(0), V64, B.getInt32(Mode), Slot});
    if (WithPred) {
      Value *Pred = B.CreateICmpNE(B.CreateLoad(S.i32(), Slot), B.getInt32(0));
      Value *Pair = PoisonValue::get(CB->getType());
      Pair = B.CreateInsertValue(Pair, R, 0);
      R = B.CreateInsertValue(Pair, Pred, 1);
    }
    Result(R);
    return true;
  }
  if (Name.consume_front("redux.sync.")) {
    static const char *Ops[] = {"add",  "min", "max", "umin",
                                "umax", "and", "or",  "xor"};
    if (!is_contained(Ops, Name) || !CB->getType()->isIntegerTy(32))
      return Known = false;
    Function *Helper = reduxHelper(S, Name);
    Result(B.CreateCall(Helper, {T, Arg(0), Arg(1)}));
    return true;
  }
  return Known = false;
}

} // namespace

PreservedAnalyses SyncPass::run(Module &M, ModuleAnalysisManager &) {
  Services S(M);
  bool Changed = false;
  for (Function &F : make_early_inc_range(M)) {
    StringRef Name = F.getName();
    if (!F.isDeclaration() || !Name.consume_front("llvm.nvvm."))
      continue;
    for (CallBase *CB : abi::callsOf(F)) {
      Value *T = abi::threadArg(*CB->getFunction());
      bool Known = false;
      if (!T || !lowerCall(S, CB, Name, T, Known))
        break;
      Changed = true;
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- SyncCalls.cpp - The calls where threads meet -----------------------===//
#include "SyncCalls.h"

#include "LoopBarriers.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace cucpu::modules;

std::optional<SyncKind> cucpu::modules::syncKindOf(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("__cucpu_"))
    return std::nullopt;
  if (Name == "barrier")
    return CI.getMetadata(LoopBarrierMetadata) ? SyncKind::LoopBarrier
                                               : SyncKind::Barrier;
  return StringSwitch<std::optional<SyncKind>>(Name)
      .Case("barrier_reduce", SyncKind::BarrierReduce)
      .Case("warp_sync", SyncKind::WarpSync)
      .Case("warp_vote", SyncKind::Vote)
      .Case("warp_shfl", SyncKind::Shuffle)
      .Case("warp_match", SyncKind::Match)
      .Case("lockstep", SyncKind::Lockstep)
      .Default(std::nullopt);
}

unsigned cucpu::modules::syncModeOperand(SyncKind Kind) {
  switch (Kind) {
  case SyncKind::BarrierReduce:
    return 2;
  case SyncKind::Vote:
  case SyncKind::Match:
    return 3;
  case SyncKind::Shuffle:
    return 5;
  case SyncKind::Lockstep:
    return 1;
  default:
    return 0;
  }
}

//===- RegionExits.cpp - Regions all of whose threads stop together ------===//
//
// A region has a uniform exit when every thread that runs it reaches the
// same next place (one sync point, or the return): the branches that choose
// between its exits are uniform, and wherever threads part at a divergent
// branch, all of their paths meet again before any exit. After a round in
// which every thread ran such a region, the block function takes the next
// region from any one thread's place instead of scanning all of them.
//
//===----------------------------------------------------------------------===//
#include "RegionFormation.h"

#include "llvm/ADT/BitVector.h"

using namespace llvm;
using namespace cucpu::modules;
using namespace cucpu::modules::blockfn;

namespace {

/// Post-dominance inside one region: the region's exit blocks and returns
/// are its sinks; blocks from which no sink is reachable (a trap: the block
/// is abandoned) post-dominate nothing and are ignored.
class RegionPostDominators {
public:
  RegionPostDominators(ArrayRef<BasicBlock *> Blocks,
                       function_ref<bool(BasicBlock *)> IsSink) {
    for (unsigned I = 0; I < Blocks.size(); ++I)
      Index[Blocks[I]] = I;
    unsigned N = Blocks.size();
    // Sets[I]: the blocks that post-dominate block I; Top: not known yet,
    // or no sink reachable (the identity of the intersection).
    Sets.assign(N, BitVector(N));
    Top.assign(N, true);
    for (unsigned I = 0; I < N; ++I)
      if (IsSink(Blocks[I])) {
        Sets[I].set(I);
        Top[I] = false;
      }
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (unsigned I = N; I-- > 0;) {
        BasicBlock *BB = Blocks[I];
        if (IsSink(BB))
          continue;
        bool AnyKnown = false;
        BitVector Meet(N, true);
        for (BasicBlock *S : successors(BB)) {
          unsigned J = Index.lookup(S);
          if (Top[J])
            continue;
          Meet &= Sets[J];
          AnyKnown = true;
        }
        if (!AnyKnown)
          continue;
        Meet.set(I);
        if (Top[I] || Meet != Sets[I]) {
          Sets[I] = std::move(Meet);
          Top[I] = false;
          Changed = true;
        }
      }
    }
  }

  /// Whether every path from \p BB to a sink passes through some one other
  /// block (or no sink is reachable from it).
  bool pathsMeet(BasicBlock *BB) const {
    unsigned I = Index.lookup(BB);
    if (Top[I])
      return true;
    BitVector Others = Sets[I];
    Others.reset(I);
    return Others.any();
  }

private:
  DenseMap<BasicBlock *, unsigned> Index;
  std::vector<BitVector> Sets;
  std::vector<bool> Top;
};

} // namespace

void RegionFormation::findUniformExits() {
  Form.UniformExit.assign(Form.Syncs.size() + 1, false);
  // The regions a thread can come from to each loop barrier's region.
  SmallVector<SmallVector<unsigned, 4>, 8> LoopSources(Form.LoopBarrierCount +
                                                       1);
  for (unsigned R = 0; R <= Form.Syncs.size(); ++R) {
    BasicBlock *Start = Form.regionStart(W, R);
    SmallVector<BasicBlock *, 16> Blocks = Form.regionBlocks(Start);
    for (BasicBlock *BB : Blocks) {
      auto It = Form.ExitBlocks.find(BB);
      if (It != Form.ExitBlocks.end() && It->second <= Form.LoopBarrierCount &&
          It->second != R)
        LoopSources[It->second].push_back(R);
    }
    auto IsSink = [&](BasicBlock *BB) {
      return Form.ExitBlocks.count(BB) || isa<ReturnInst>(BB->getTerminator());
    };
    RegionPostDominators PDT(Blocks, IsSink);
    Form.UniformExit[R] = all_of(Blocks, [&](BasicBlock *BB) {
      return IsSink(BB) ||
             !Divergence->isDivergentBranch(*BB->getTerminator()) ||
             PDT.pathsMeet(BB);
    });
  }
  findStaggeredLoops(LoopSources);
  for (unsigned R = 1; R <= Form.LoopBarrierCount; ++R)
    if (Staggered[R])
      Form.UniformExit[R] = false;
}

void RegionFormation::findStaggeredLoops(
    ArrayRef<SmallVector<unsigned, 4>> Sources) {
  // Threads leave the other regions together: those of region 0 and of
  // the kernel's barriers start them in one round (loop barriers go
  // first), and so do those of a loop that is not staggered and has a
  // uniform exit. A loop's threads are staggered when they can come from
  // a loop that they do not leave together, or from a loop and elsewhere
  // (the loop's threads arrive rounds later).
  Staggered.assign(Form.Syncs.size() + 1, false);
  auto IsLoop = [&](unsigned R) {
    return R >= 1 && R <= Form.LoopBarrierCount;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned R = 1; R <= Form.LoopBarrierCount; ++R) {
      if (Staggered[R])
        continue;
      bool FromLoop = any_of(Sources[R], IsLoop);
      bool Apart = any_of(Sources[R], [&](unsigned P) {
        return IsLoop(P) && (Staggered[P] || !Form.UniformExit[P]);
      });
      if (Apart || (FromLoop && Sources[R].size() > 1)) {
        Staggered[R] = true;
        Changed = true;
      }
    }
  }
}

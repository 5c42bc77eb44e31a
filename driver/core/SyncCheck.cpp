//===- SyncCheck.cpp - Shared-memory ordering checks (CUCPU_SYNCCHECK) ----===//
//
// With CUCPU_SYNCCHECK=1 kernels run on the fiber engine with every access
// checked (as CUCPU_MEMCHECK), and each access to shared memory is compared
// with the last write and the last read of the word it touches by other
// threads of the block. Two threads that touch one word between the same
// two __syncthreads(), one of them writing, are ordered by nothing CUDA
// promises:
//  - of different warps: a shared-memory race;
//  - of one warp, with no __syncwarp() or other warp operation of that warp
//    between: the kernel relies on implicit warp synchrony (the lanes of a
//    converged warp making each access together). It gets the GPU's answer
//    here too, but CUDA asks for __syncwarp() (the programming guide's
//    "warp-synchronous" note since CUDA 9).
// Results are not changed; each finding is reported once per kernel, site
// (the shared offset pair's kind) and launch, on stderr, in
// compute-sanitizer's spirit.
//
//===----------------------------------------------------------------------===//
#include "core/BlockRunner.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace cucpu;

bool BlockRunner::syncCheckEnabled() {
  static const bool On = [] {
    const char *V = std::getenv("CUCPU_SYNCCHECK");
    return V && std::strcmp(V, "1") == 0;
  }();
  return On;
}

void BlockRunner::resetSyncCheck() {
  size_t Words = (SharedBytes + 3) / 4;
  Shadow.assign(Words, SharedWord());
  WarpEpochs.assign((NumThreads + WarpSize - 1) / WarpSize, 0);
  BarrierEpoch = 1;
}

void BlockRunner::reportOrder(const char *What, unsigned Thread, unsigned Other,
                              uintptr_t Offset) {
  // At most a few reports per launch and kind: a loop repeats its finding
  // for every element.
  if (SyncReports >= MaxSyncReports)
    return;
  ++SyncReports;
  unsigned Bx = Block.BlockDim[0], By = Block.BlockDim[1];
  auto Coord = [&](unsigned L, char *Out, size_t N) {
    std::snprintf(Out, N, "(%u,%u,%u)", L % Bx, (L / Bx) % By, L / (Bx * By));
  };
  char A[48], B[48];
  Coord(Thread, A, sizeof(A));
  Coord(Other, B, sizeof(B));
  std::fprintf(stderr,
               "cucpu synccheck: kernel \"%.*s\", block (%u,%u,%u): thread %s "
               "and thread %s %s shared memory at offset %" PRIuPTR "\n",
               int(Config->KernelName.size()), Config->KernelName.data(),
               Block.BlockIdx[0], Block.BlockIdx[1], Block.BlockIdx[2], A, B,
               What, Offset);
  std::fflush(stderr);
}

void BlockRunner::checkSharedOrder(CucpuThread *T, uintptr_t Offset,
                                   uint64_t Size, bool Writes) {
  if (!T->EngineThread)
    return; // Block functions: the checker runs on the fiber engine.
  unsigned Me = T->WarpId * WarpSize + T->LaneId;
  unsigned Warp = Me / WarpSize;
  // An earlier access of another thread to the word, if it is unordered
  // with this one: same barrier interval, and for a lane of this warp, no
  // warp operation of the warp since.
  auto Check = [&](const SharedAccess &A, uintptr_t At, const char *Kind) {
    if (A.Thread == 0 || A.Thread - 1 == Me || A.Epoch != BarrierEpoch)
      return;
    unsigned Other = A.Thread - 1;
    if (Other / WarpSize != Warp) {
      char What[96];
      std::snprintf(What, sizeof(What),
                    "race (%s, no __syncthreads() between) on", Kind);
      reportOrder(What, Me, Other, At);
    } else if (A.WarpEpoch == WarpEpochs[Warp]) {
      char What[160];
      std::snprintf(What, sizeof(What),
                    "of one warp rely on implicit warp synchrony (%s, no "
                    "__syncwarp() between) for",
                    Kind);
      reportOrder(What, Me, Other, At);
    }
  };
  for (uintptr_t Word = Offset / 4; Word <= (Offset + Size - 1) / 4; ++Word) {
    if (Word >= Shadow.size())
      return;
    SharedWord &S = Shadow[Word];
    SharedAccess Now{Me + 1, BarrierEpoch, WarpEpochs[Warp]};
    Check(S.Write, Word * 4, Writes ? "write after write" : "read after write");
    if (Writes) {
      Check(S.Read, Word * 4, "write after read");
      Check(S.OtherRead, Word * 4, "write after read");
      S.Write = Now;
      continue;
    }
    if (S.Read.Thread != 0 && (S.Read.Thread - 1) / WarpSize != Warp)
      S.OtherRead = S.Read;
    S.Read = Now;
  }
}

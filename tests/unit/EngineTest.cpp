//===- EngineTest.cpp - The execution engine with hand-written threads ----===//
//
// Thread entries written in C++ stand in for JIT-compiled kernels: they use
// the CucpuThread ABI and call the __cucpu_* services exactly as compiled
// code does.
//
//===----------------------------------------------------------------------===//
#include "core/DevicePrintf.h"
#include "core/Error.h"
#include "core/ExecutionEngine.h"
#include "core/Fiber.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

using namespace cucpu;

namespace {
/// The parameter buffer of most test kernels: one output pointer.
struct OutParams {
  int *Out;
};

const OutParams &params(CucpuThread *T) {
  return *reinterpret_cast<const OutParams *>(T->Block->Params);
}

unsigned linearThread(CucpuThread *T) {
  const CucpuBlock &B = *T->Block;
  return T->ThreadIdx[0] +
         B.BlockDim[0] * (T->ThreadIdx[1] + B.BlockDim[1] * T->ThreadIdx[2]);
}

unsigned threadsPerBlock(CucpuThread *T) {
  const CucpuBlock &B = *T->Block;
  return B.BlockDim[0] * B.BlockDim[1] * B.BlockDim[2];
}

unsigned linearBlock(CucpuThread *T) {
  const CucpuBlock &B = *T->Block;
  return B.BlockIdx[0] +
         B.GridDim[0] * (B.BlockIdx[1] + B.GridDim[1] * B.BlockIdx[2]);
}

unsigned globalId(CucpuThread *T) {
  return linearBlock(T) * threadsPerBlock(T) + linearThread(T);
}

LaunchConfig config(CucpuThreadEntry Entry, std::array<unsigned, 3> Grid,
                    std::array<unsigned, 3> Block, const void *Params) {
  LaunchConfig C;
  C.Entry = Entry;
  C.KernelName = "test";
  C.Grid = Grid;
  C.Block = Block;
  C.Params = static_cast<const char *>(Params);
  return C;
}

llvm::Error run(const LaunchConfig &C, unsigned Workers = 4) {
  std::string Output;
  return ExecutionEngine::run(C, 0, Workers, Output);
}

/// The code of a failed run (CUDA_SUCCESS if it worked).
CUresult codeOf(llvm::Error E, std::string &Message) {
  return toResult(std::move(E), Message);
}
} // namespace

TEST(Fiber, SwitchesBackAndForth) {
  struct State {
    FiberContext Main;
    Fiber *Self = nullptr;
    int Steps = 0;
  } S;
  auto Body = [](void *Arg) {
    auto &St = *static_cast<State *>(Arg);
    for (;;) {
      ++St.Steps;
      switchFiber(St.Self->context(), St.Main);
    }
  };
  auto F = Fiber::create(64 * 1024, Body, &S);
  ASSERT_TRUE(!!F) << "a fiber with a 64 KiB stack can be created";
  S.Self = F->get();
  for (int I = 0; I < 1000; ++I)
    switchFiber(S.Main, (*F)->context());
  EXPECT_EQ(S.Steps, 1000) << "every switch ran the fiber one step";
  (*F)->reset();
  switchFiber(S.Main, (*F)->context());
  EXPECT_EQ(S.Steps, 1001) << "a reset fiber starts its body again";
}

TEST(Fiber, KeepsFloatingPointAndCalleeSavedState) {
  struct State {
    FiberContext Main;
    Fiber *Self = nullptr;
    double Sum = 0;
  } S;
  auto Body = [](void *Arg) {
    auto &St = *static_cast<State *>(Arg);
    volatile double Local = 0.5;
    for (;;) {
      St.Sum += Local;
      switchFiber(St.Self->context(), St.Main);
    }
  };
  auto F = Fiber::create(64 * 1024, Body, &S);
  ASSERT_TRUE(!!F);
  S.Self = F->get();
  volatile double Mine = 1.25;
  for (int I = 0; I < 10; ++I) {
    switchFiber(S.Main, (*F)->context());
    Mine = Mine + 1;
  }
  EXPECT_EQ(S.Sum, 5.0) << "the fiber's locals survive switches";
  EXPECT_EQ(Mine, 11.25) << "the caller's locals survive switches";
}

TEST(Engine, ThreadAndBlockIndices) {
  std::vector<int> Out(3 * 2 * 2 * 24, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    const CucpuBlock &B = *T->Block;
    params(T).Out[globalId(T)] = static_cast<int>(
        T->ThreadIdx[0] + 10 * T->ThreadIdx[1] + 100 * T->ThreadIdx[2] +
        1000 * (B.BlockIdx[0] + 10 * B.BlockIdx[1] + 100 * B.BlockIdx[2]));
  };
  ASSERT_FALSE(!!run(config(Entry, {3, 2, 2}, {4, 3, 2}, &P)));
  for (unsigned G = 0; G < Out.size(); ++G) {
    unsigned Blk = G / 24, Thr = G % 24;
    int Want = static_cast<int>(
        Thr % 4 + 10 * (Thr / 4 % 3) + 100 * (Thr / 12) +
        1000 * (Blk % 3 + 10 * (Blk / 3 % 2) + 100 * (Blk / 6)));
    ASSERT_EQ(Out[G], Want) << "thread " << G << " saw its own indices";
  }
}

TEST(Engine, BarrierOrdersSharedMemory) {
  // Each thread writes its index, waits, then reads its mirror's: correct
  // only if every write happened before any read.
  const unsigned N = 256, Blocks = 40;
  std::vector<int> Out(N * Blocks, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    auto *Shared = reinterpret_cast<int *>(T->Block->Shared);
    unsigned I = linearThread(T), N = threadsPerBlock(T);
    for (int Round = 0; Round < 3; ++Round) {
      Shared[I] = static_cast<int>(I + Round + linearBlock(T));
      __cucpu_barrier(T);
      int V = Shared[N - 1 - I];
      __cucpu_barrier(T);
      params(T).Out[globalId(T)] = V;
    }
  };
  LaunchConfig C = config(Entry, {Blocks, 1, 1}, {N, 1, 1}, &P);
  C.StaticShared = N * sizeof(int);
  ASSERT_FALSE(!!run(C));
  for (unsigned G = 0; G < Out.size(); ++G)
    ASSERT_EQ(Out[G], static_cast<int>(N - 1 - G % N + 2 + G / N))
        << "thread " << G << " read its mirror's value after the barrier";
}

TEST(Engine, ExitedThreadsCountAsArrived) {
  std::vector<int> Out(64, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    unsigned I = linearThread(T);
    if (I % 3 == 0)
      return; // "Threads that have exited count as arrived."
    __cucpu_barrier(T);
    int Count = __cucpu_barrier_reduce(T, I % 2, 0);
    int All = __cucpu_barrier_reduce(T, I < 1000, 1);
    int Any = __cucpu_barrier_reduce(T, I == 5, 2);
    params(T).Out[I] = Count * 100 + All * 10 + Any;
  };
  ASSERT_FALSE(!!run(config(Entry, {1, 1, 1}, {64, 1, 1}, &P)));
  // Threads not multiple of 3 in [0,64): 42; of those, odd: 21.
  for (unsigned I = 0; I < 64; ++I)
    EXPECT_EQ(Out[I], I % 3 == 0 ? -1 : 21 * 100 + 10 + 1)
        << "thread " << I << ": count, and, or over the arrived threads";
}

TEST(Engine, ShuffleModesAndWidth) {
  std::vector<int> Out(64 * 5, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    unsigned I = linearThread(T);
    uint32_t V = I * 10;
    int32_t In = 0;
    int *O = params(T).Out + I * 5;
    // width 16: c = ((32 - 16) << 8) | 0x1f for idx/down/bfly, (16 << 8) for
    // up.
    O[0] = static_cast<int>(
        __cucpu_warp_shfl(T, ~0u, V, 3, (16 << 8) | 0x1f, 0, &In));
    O[1] = static_cast<int>(__cucpu_warp_shfl(T, ~0u, V, 2, 16 << 8, 1, &In));
    O[2] = static_cast<int>(
        __cucpu_warp_shfl(T, ~0u, V, 4, (16 << 8) | 0x1f, 2, &In));
    O[3] = In;
    O[4] = static_cast<int>(__cucpu_warp_shfl(T, ~0u, V, 1, 0x1f, 3, &In));
  };
  ASSERT_FALSE(!!run(config(Entry, {1, 1, 1}, {64, 1, 1}, &P)));
  for (unsigned I = 0; I < 64; ++I) {
    unsigned Seg = I / 16 * 16, L = I % 16;
    EXPECT_EQ(Out[I * 5 + 0], int((Seg + 3) * 10))
        << "idx reads lane 3 of its segment";
    EXPECT_EQ(Out[I * 5 + 1], int((L >= 2 ? I - 2 : I) * 10))
        << "up by 2 within 16";
    EXPECT_EQ(Out[I * 5 + 2], int((L + 4 < 16 ? I + 4 : I) * 10))
        << "down by 4 within 16";
    EXPECT_EQ(Out[I * 5 + 3], L + 4 < 16 ? 1 : 0)
        << "down's in-range predicate";
    EXPECT_EQ(Out[I * 5 + 4], int((I ^ 1) * 10)) << "xor 1 over the full warp";
  }
}

TEST(Engine, VotesWithPartialMasksAndExitedLanes) {
  std::vector<int> Out(32 * 4, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    unsigned L = T->LaneId;
    int *O = params(T).Out + L * 4;
    if (L >= 24)
      return; // Exited lanes are not waited for.
    O[3] = static_cast<int>(__cucpu_activemask(T) == 0xffffffu ||
                            __cucpu_activemask(T) != 0);
    if (L < 8) {
      O[0] = static_cast<int>(__cucpu_warp_vote(T, 0xff, L % 2, 3));
      O[1] = static_cast<int>(__cucpu_warp_vote(T, 0xff, L < 100, 0));
    } else {
      O[0] = static_cast<int>(__cucpu_warp_vote(T, 0xffff00, L > 20, 3));
      O[1] = static_cast<int>(__cucpu_warp_vote(T, 0xffff00, L > 20, 1));
    }
    int32_t Pred = 0;
    O[2] = static_cast<int>(__cucpu_warp_match(T, ~0u, L / 4, 0, &Pred));
  };
  ASSERT_FALSE(!!run(config(Entry, {1, 1, 1}, {32, 1, 1}, &P)));
  for (unsigned L = 0; L < 24; ++L) {
    if (L < 8) {
      EXPECT_EQ(Out[L * 4], 0xaa) << "ballot of odd lanes among 0..7";
      EXPECT_EQ(Out[L * 4 + 1], 1) << "all lanes of 0..7 vote true";
    } else {
      EXPECT_EQ(Out[L * 4], 0xe00000) << "ballot of lanes 21..23";
      EXPECT_EQ(Out[L * 4 + 1], 1) << "some lane of 8..23 votes true";
    }
    EXPECT_EQ(uint32_t(Out[L * 4 + 2]), 0xfu << (L / 4 * 4))
        << "match_any groups lanes by L / 4";
  }
}

TEST(Engine, ActiveMaskSkipsExitedLanes) {
  std::vector<int> Out(1, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    if (T->LaneId % 2)
      return;
    if (T->LaneId == 0) {
      // Let the odd lanes finish first.
      for (int I = 0; I < 64; ++I)
        __cucpu_yield(T);
      params(T).Out[0] = static_cast<int>(__cucpu_activemask(T));
    }
  };
  ASSERT_FALSE(!!run(config(Entry, {1, 1, 1}, {20, 1, 1}, &P)));
  EXPECT_EQ(uint32_t(Out[0]), 0x1u) << "only lane 0 of 20 is still running";
}

TEST(Engine, SpinLoopWithYieldMakesProgress) {
  std::vector<int> Out(1, -1);
  OutParams P{Out.data()};
  auto Entry = [](CucpuThread *T) {
    auto *Flag = reinterpret_cast<volatile int *>(T->Block->Shared);
    unsigned I = linearThread(T);
    if (I == 0) {
      *Flag = 0;
      int Spins = 0;
      while (*Flag == 0) {
        ++Spins;
        __cucpu_yield(T);
      }
      params(T).Out[0] = *Flag;
    } else if (I == threadsPerBlock(T) - 1) {
      *Flag = 42;
    }
  };
  LaunchConfig C = config(Entry, {1, 1, 1}, {128, 1, 1}, &P);
  C.StaticShared = 4;
  ASSERT_FALSE(!!run(C));
  EXPECT_EQ(Out[0], 42) << "the spinning thread saw the last thread's write";
}

TEST(Engine, DeadlockFailsTheLaunch) {
  auto Entry = [](CucpuThread *T) {
    if (T->LaneId == 0)
      __cucpu_barrier(T);
    else
      __cucpu_warp_sync(T, 0x3); // Waits for lane 0, which waits elsewhere.
  };
  std::string Message;
  EXPECT_EQ(codeOf(run(config(Entry, {4, 1, 1}, {2, 1, 1}, nullptr)), Message),
            CUDA_ERROR_LAUNCH_FAILED)
      << "a barrier and a warp operation waiting on each other never finish";
  EXPECT_NE(Message.find("deadlocked"), std::string::npos) << Message;
}

TEST(Engine, TrapAndAssertFailTheLaunchAndTheEngineGoesOn) {
  auto Trap = [](CucpuThread *T) {
    __cucpu_barrier(T);
    if (linearThread(T) == 5)
      __cucpu_trap(T);
    __cucpu_barrier(T);
  };
  std::string Message;
  EXPECT_EQ(codeOf(run(config(Trap, {16, 1, 1}, {64, 1, 1}, nullptr)), Message),
            CUDA_ERROR_LAUNCH_FAILED)
      << "a trap fails the launch";
  auto Assert = [](CucpuThread *T) {
    if (linearThread(T) == 7)
      __cucpu_assert_fail(T, "x == 0", "k.cu", 12, "void k()");
  };
  EXPECT_EQ(
      codeOf(run(config(Assert, {2, 1, 1}, {32, 1, 1}, nullptr)), Message),
      CUDA_ERROR_ASSERT)
      << "a failed assert fails the launch with CUDA_ERROR_ASSERT";
  EXPECT_NE(Message.find("x == 0"), std::string::npos) << Message;
  // The abandoned fibers were reset: a normal launch still works.
  std::vector<int> Out(16 * 64, 0);
  OutParams P{Out.data()};
  auto Fill = [](CucpuThread *T) {
    __cucpu_barrier(T);
    params(T).Out[globalId(T)] = 1;
  };
  ASSERT_FALSE(!!run(config(Fill, {16, 1, 1}, {64, 1, 1}, &P)));
  EXPECT_EQ(std::accumulate(Out.begin(), Out.end(), 0), 16 * 64)
      << "every thread of the next launch ran";
}

TEST(Engine, PrintfOutputInBlockOrder) {
  auto Entry = [](CucpuThread *T) {
    struct {
      int32_t Block;
      int32_t Thread;
    } Args{static_cast<int32_t>(linearBlock(T)),
           static_cast<int32_t>(linearThread(T))};
    __cucpu_vprintf(T, "b%d t%d\n", reinterpret_cast<const char *>(&Args));
  };
  std::string Output;
  ASSERT_FALSE(!!ExecutionEngine::run(
      config(Entry, {8, 1, 1}, {2, 1, 1}, nullptr), 0, 4, Output));
  std::string Want;
  for (int B = 0; B < 8; ++B)
    for (int T = 0; T < 2; ++T)
      Want += "b" + std::to_string(B) + " t" + std::to_string(T) + "\n";
  EXPECT_EQ(Output, Want) << "device printf output comes block by block";
}

TEST(DevicePrintf, FormatsThePackedArguments) {
  // The NVVM vprintf buffer: natural alignment, floats promoted to double.
  alignas(8) char Buf[64] = {};
  int32_t I = -42;
  double D = 3.14159;
  int64_t L = 1234567890123LL;
  const char *S = "str";
  int32_t C = 'z';
  std::memcpy(Buf + 0, &I, 4);
  std::memcpy(Buf + 8, &D, 8);
  std::memcpy(Buf + 16, &L, 8);
  std::memcpy(Buf + 24, &S, 8);
  std::memcpy(Buf + 32, &C, 4);
  std::string Out;
  int N = formatDevicePrintf("%d|%6.2f|%lld|%s|%c|%%\n", Buf, Out);
  EXPECT_EQ(Out, "-42|  3.14|1234567890123|str|z|%\n");
  EXPECT_EQ(N, static_cast<int>(Out.size())) << "vprintf returns the length";
}

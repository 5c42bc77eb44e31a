//===- DeviceHeapTest.cpp - The heap of kernels' malloc and free ----------===//
#include "core/DeviceHeap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace cucpu;

namespace {

TEST(DeviceHeapTest, BlocksAreAlignedDisjointAndUsable) {
  DeviceHeap Heap([] { return size_t(1) << 20; });
  std::vector<char *> Blocks;
  for (size_t Bytes : {1, 15, 16, 17, 100, 4096}) {
    auto *P = static_cast<char *>(Heap.allocate(Bytes));
    ASSERT_NE(nullptr, P) << Bytes;
    EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(P) % 16) << Bytes;
    std::memset(P, 0x5a, Bytes);
    EXPECT_TRUE(Heap.contains(reinterpret_cast<uintptr_t>(P), Bytes));
    EXPECT_FALSE(Heap.contains(reinterpret_cast<uintptr_t>(P), Bytes + 16));
    for (char *Q : Blocks)
      EXPECT_NE(Q, P);
    Blocks.push_back(P);
  }
  for (char *P : Blocks)
    EXPECT_EQ(DeviceHeap::Release::Freed, Heap.release(P));
}

TEST(DeviceHeapTest, FullHeapReturnsNullAndFreedSpaceIsReused) {
  DeviceHeap Heap([] { return size_t(64) << 10; });
  std::vector<void *> Blocks;
  while (void *P = Heap.allocate(4096))
    Blocks.push_back(P);
  EXPECT_EQ(16u, Blocks.size());
  EXPECT_EQ(nullptr, Heap.allocate(16));
  // Freeing two neighbours makes room for a block twice as large.
  ASSERT_EQ(DeviceHeap::Release::Freed, Heap.release(Blocks[4]));
  ASSERT_EQ(DeviceHeap::Release::Freed, Heap.release(Blocks[5]));
  EXPECT_EQ(Blocks[4], Heap.allocate(8192));
}

TEST(DeviceHeapTest, ReleaseRefusesWhatIsNotALiveBlock) {
  DeviceHeap Heap([] { return size_t(1) << 20; });
  using R = DeviceHeap::Release;
  int Local = 0;
  EXPECT_EQ(R::NotInHeap, Heap.release(&Local)) << "before the heap exists";
  EXPECT_FALSE(Heap.inUse());
  auto *P = static_cast<char *>(Heap.allocate(64));
  ASSERT_NE(nullptr, P);
  EXPECT_TRUE(Heap.inUse());
  EXPECT_EQ(R::NotALiveBlock, Heap.release(P + 16)) << "inside a block";
  EXPECT_EQ(R::NotInHeap, Heap.release(&Local)) << "outside the heap";
  EXPECT_EQ(R::Freed, Heap.release(P));
  EXPECT_EQ(R::NotALiveBlock, Heap.release(P)) << "freed twice";
  EXPECT_FALSE(Heap.contains(reinterpret_cast<uintptr_t>(P), 1));
}

TEST(DeviceHeapTest, ZeroBytesGiveABlockOfTheirOwn) {
  DeviceHeap Heap([] { return size_t(1) << 20; });
  void *A = Heap.allocate(0), *B = Heap.allocate(0);
  ASSERT_NE(nullptr, A);
  EXPECT_NE(A, B);
  EXPECT_EQ(DeviceHeap::Release::Freed, Heap.release(A));
  EXPECT_EQ(nullptr, Heap.allocate(SIZE_MAX));
}

TEST(DeviceHeapTest, ZeroCapacityGivesNull) {
  DeviceHeap Empty([] { return size_t(0); });
  EXPECT_EQ(nullptr, Empty.allocate(16));
}

TEST(DeviceHeapTest, CapacityIsReadWhenTheFirstBlockIsAllocated) {
  size_t Capacity = 4096;
  DeviceHeap Heap([&Capacity] { return Capacity; });
  Capacity = 8192;
  EXPECT_NE(nullptr, Heap.allocate(8192));
  Capacity = 1 << 20;
  EXPECT_EQ(nullptr, Heap.allocate(16)) << "the heap keeps its first size";
}

/// Random allocations and frees against a model: every live block stays
/// disjoint from the others, and whatever is freed can be allocated again.
TEST(DeviceHeapTest, RandomTrafficKeepsBlocksDisjoint) {
  constexpr size_t Capacity = 256 << 10;
  DeviceHeap Heap([] { return Capacity; });
  std::mt19937 Random(7);
  std::vector<std::pair<char *, size_t>> Live;
  for (int Step = 0; Step < 20000; ++Step) {
    if (Live.empty() || Random() % 3 != 0) {
      size_t Bytes = 1 + Random() % 3000;
      auto *P = static_cast<char *>(Heap.allocate(Bytes));
      if (!P)
        continue;
      for (auto &[Q, N] : Live)
        ASSERT_TRUE(P + Bytes <= Q || Q + N <= P) << "step " << Step;
      Live.emplace_back(P, Bytes);
    } else {
      size_t I = Random() % Live.size();
      ASSERT_EQ(DeviceHeap::Release::Freed, Heap.release(Live[I].first))
          << "step " << Step;
      Live.erase(Live.begin() + long(I));
    }
  }
  for (auto &[P, N] : Live)
    ASSERT_EQ(DeviceHeap::Release::Freed, Heap.release(P));
  EXPECT_NE(nullptr, Heap.allocate(Capacity)) << "everything coalesced";
}

} // namespace

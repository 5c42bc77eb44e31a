//===- MemoryRegistryTest.cpp - The per-context allocation registry -------===//
#include "core/MemoryRegistry.h"

#include <gtest/gtest.h>

using namespace cucpu;

namespace {
Allocation make(uintptr_t Base, size_t Size, MemoryKind Kind) {
  Allocation A;
  A.Base = Base;
  A.Size = Size;
  A.Kind = Kind;
  return A;
}
} // namespace

TEST(MemoryRegistry, FindsInteriorAddressesAndNothingPastTheEnd) {
  MemoryRegistry R;
  R.insert(make(0x1000, 0x100, MemoryKind::Device));
  R.insert(make(0x2000, 0x10, MemoryKind::PinnedHost));
  ASSERT_TRUE(R.find(0x1000)) << "the base address is inside";
  EXPECT_EQ(R.find(0x10ff)->Base, 0x1000u) << "the last byte is inside";
  EXPECT_FALSE(R.find(0x1100)) << "one past the end is outside";
  EXPECT_FALSE(R.find(0xfff)) << "one before the base is outside";
  EXPECT_EQ(R.find(0x2008)->Kind, MemoryKind::PinnedHost) << "second range";
}

TEST(MemoryRegistry, RangeChecksRejectOverruns) {
  Allocation A = make(0x1000, 0x100, MemoryKind::Device);
  EXPECT_TRUE(A.containsRange(0x1000, 0x100)) << "the whole allocation";
  EXPECT_TRUE(A.containsRange(0x10f0, 0x10)) << "its tail";
  EXPECT_FALSE(A.containsRange(0x10f0, 0x11)) << "one byte past the end";
  EXPECT_FALSE(A.containsRange(0x1001, SIZE_MAX)) << "a wrapping size";
}

TEST(MemoryRegistry, OverlapDetectsEveryIntersection) {
  MemoryRegistry R;
  R.insert(make(0x1000, 0x100, MemoryKind::RegisteredHost));
  EXPECT_TRUE(R.overlaps(0xf00, 0x101)) << "touching the first byte";
  EXPECT_TRUE(R.overlaps(0x10ff, 1)) << "the last byte";
  EXPECT_FALSE(R.overlaps(0xf00, 0x100)) << "ending right before";
  EXPECT_FALSE(R.overlaps(0x1100, 0x100)) << "starting right after";
  EXPECT_TRUE(R.overlaps(0x800, 0x1000)) << "covering it entirely";
}

TEST(MemoryRegistry, EraseNeedsTheExactBaseAndKind) {
  MemoryRegistry R;
  R.insert(make(0x1000, 0x100, MemoryKind::Device));
  EXPECT_FALSE(R.eraseAt(0x1004, {MemoryKind::Device})) << "interior pointer";
  EXPECT_FALSE(R.eraseAt(0x1000, {MemoryKind::PinnedHost})) << "wrong kind";
  EXPECT_TRUE(R.eraseAt(0x1000, {MemoryKind::Device, MemoryKind::Managed}));
  EXPECT_FALSE(R.find(0x1000)) << "erased";
  EXPECT_FALSE(R.eraseAt(0x1000, {MemoryKind::Device})) << "double free";
}

TEST(MemoryRegistry, TakeAllEmptiesAndSumsCharges) {
  MemoryRegistry R;
  Allocation A = make(0x1000, 0x100, MemoryKind::Device);
  A.Charged = 0x100;
  Allocation B = make(0x3000, 0x10, MemoryKind::Device);
  B.Charged = 0x100;
  R.insert(A);
  R.insert(B);
  EXPECT_EQ(R.chargedBytes(), 0x200u);
  EXPECT_EQ(R.takeAll().size(), 2u);
  EXPECT_EQ(R.chargedBytes(), 0u) << "nothing left after teardown";
}

//===- CopyEngineTest.cpp - Large copies split among workers --------------===//
#include "core/CopyEngine.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace cucpu;

namespace {

/// Bytes that differ from piece to piece and within each (no period that
/// a misplaced piece could match).
std::vector<unsigned char> pattern(size_t Bytes) {
  std::vector<unsigned char> V(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    V[I] = static_cast<unsigned char>((I * 2654435761u) >> 13);
  return V;
}

/// Larger than ParallelCopyBytes, not a whole number of pieces.
constexpr size_t Big = 3 * ParallelCopyBytes + CopyPieceBytes / 2 + 17;

TEST(CopyEngine, SplitCopyMovesEveryByte) {
  std::vector<unsigned char> From = pattern(Big), To(Big + 64, 0);
  moveMemory(To.data() + 3, From.data(), Big, /*DeviceOrdinal=*/0,
             /*Workers=*/4);
  EXPECT_EQ(std::memcmp(To.data() + 3, From.data(), Big), 0);
  EXPECT_EQ(To[2], 0) << "nothing before the destination";
  EXPECT_EQ(To[Big + 3], 0) << "nothing after it";
}

TEST(CopyEngine, OverlappingRangesMoveAsMemmove) {
  // The source starts 8 KiB into a buffer 16 KiB longer than it: both
  // shifts stay inside.
  for (long Shift : {-4099L, 4099L}) {
    std::vector<unsigned char> Buffer = pattern(Big + 16384);
    std::vector<unsigned char> Expected = Buffer;
    unsigned char *From = Buffer.data() + 8192;
    std::memmove(Expected.data() + 8192 + Shift, Expected.data() + 8192, Big);
    moveMemory(From + Shift, From, Big, 0, 4);
    EXPECT_TRUE(Buffer == Expected) << "shifted by " << Shift;
  }
}

TEST(CopyEngine, SmallCopiesAndOneWorker) {
  std::vector<unsigned char> From = pattern(Big), To(Big, 0);
  moveMemory(To.data(), From.data(), 1000, 0, 4);
  EXPECT_EQ(std::memcmp(To.data(), From.data(), 1000), 0);
  EXPECT_EQ(To[1000], 0);
  moveMemory(To.data(), From.data(), Big, 0, 1);
  EXPECT_TRUE(To == From);
}

} // namespace

//===- HostInfoTest.cpp - Host facts and environment parsing --------------===//
#include "core/HostInfo.h"

#include <gtest/gtest.h>

using namespace cucpu;

TEST(HostInfo, ParsesByteCountsWithBinarySuffixes) {
  EXPECT_EQ(host::parseByteCount("4096"), 4096u);
  EXPECT_EQ(host::parseByteCount("4K"), 4096u);
  EXPECT_EQ(host::parseByteCount("2M"), 2u << 20);
  EXPECT_EQ(host::parseByteCount("3G"), size_t(3) << 30);
  EXPECT_EQ(host::parseByteCount("3GiB"), size_t(3) << 30);
  EXPECT_EQ(host::parseByteCount("1t"), size_t(1) << 40);
}

TEST(HostInfo, RejectsMalformedByteCounts) {
  EXPECT_FALSE(host::parseByteCount("")) << "empty";
  EXPECT_FALSE(host::parseByteCount("G")) << "no digits";
  EXPECT_FALSE(host::parseByteCount("12X")) << "unknown suffix";
  EXPECT_FALSE(host::parseByteCount("12Gx")) << "trailing junk";
  EXPECT_FALSE(host::parseByteCount("-1")) << "negative";
  EXPECT_FALSE(host::parseByteCount("99999999999999999999T")) << "overflow";
}

TEST(HostInfo, DescribesTheMachine) {
  EXPECT_FALSE(host::cpuName().empty());
  EXPECT_GE(host::usableCores(), 1u);
  EXPECT_GT(host::physicalMemory(), size_t(64) << 20);
  EXPECT_EQ(host::machineId(), host::machineId()) << "stable";
}

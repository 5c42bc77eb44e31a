//===- HostMemoryTest.cpp - What the host can back ------------------------===//
#include "core/HostMemory.h"

#include "core/HostInfo.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

using namespace cucpu;

TEST(HostMemory, ParsesCgroupLimits) {
  EXPECT_EQ(host::parseCgroupLimit("4294967296"), size_t(4) << 30)
      << "a v1 or v2 byte count";
  EXPECT_FALSE(host::parseCgroupLimit("max")) << "v2's \"no limit\"";
  EXPECT_FALSE(host::parseCgroupLimit("9223372036854771712"))
      << "v1's \"no limit\": the largest page-aligned 63-bit value";
  EXPECT_FALSE(host::parseCgroupLimit("")) << "empty";
  EXPECT_FALSE(host::parseCgroupLimit("12x")) << "trailing junk";
  EXPECT_FALSE(host::parseCgroupLimit("-1")) << "negative";
}

TEST(HostMemory, LimitsAndHeadroomAreConsistent) {
  size_t Limit = host::memoryLimit();
  EXPECT_LE(Limit, host::physicalMemory()) << "a cgroup only lowers it";
  EXPECT_GT(Limit, size_t(64) << 20);
  size_t Headroom = host::memoryHeadroom();
  EXPECT_GE(Headroom, size_t(256) << 20) << "at least 256 MiB";
  EXPECT_LE(Headroom, size_t(2) << 30) << "at most 2 GiB";
  EXPECT_LE(host::allocatableMemory(), host::availableMemory())
      << "the headroom is kept back";
}

TEST(HostMemory, RefusesWhatTheHostCannotBack) {
  size_t TooMuch = host::availableMemory() + (size_t(1) << 40);
  llvm::Error E = host::checkHostCanBack(TooMuch, "the test's request");
  ASSERT_TRUE(bool(E)) << "a terabyte more than is available";
  EXPECT_NE(llvm::toString(std::move(E)).find("cannot back"), std::string::npos)
      << "the message says why";
  EXPECT_FALSE(bool(host::checkHostCanBack(4096, "a page")))
      << "a page is there";
}

TEST(HostMemory, CommitsWholePagesOnly) {
  size_t Page = host::pageBytes();
  std::vector<char> Buffer(4 * Page + 100);
  EXPECT_FALSE(bool(host::commitPages(Buffer.data() + 1, 3 * Page)))
      << "memory the process owns is committed";
  EXPECT_FALSE(bool(host::commitPages(Buffer.data() + 1, 10)))
      << "less than a page: nothing to do";
}

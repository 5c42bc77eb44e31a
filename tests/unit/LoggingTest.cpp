//===- LoggingTest.cpp - CUCPU_LOG and per-thread messages ----------------===//
#include "core/EntryPoint.h"

#include <cucpu/cucpu.h>
#include <cuda.h>

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <thread>

namespace {
class Logging : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

[[noreturn]] void callWithLog(const char *Level) {
  setenv("CUCPU_LOG", Level, 1);
  cuInit(0);
  CUdevice D;
  cuDeviceGet(&D, 42);
  std::exit(0);
}
} // namespace

TEST_F(Logging, CallsLogsEveryCallWithArgumentsAndResult) {
  EXPECT_EXIT(callWithLog("1"), ::testing::ExitedWithCode(0),
              "cucpu: cuInit\\(Flags=0\\) -> CUDA_SUCCESS\n"
              "cucpu: cuDeviceGet\\(Out=0x[0-9a-f]+, Ordinal=42\\) -> "
              "CUDA_ERROR_INVALID_DEVICE: Device ordinal 42 is out of range");
}

TEST_F(Logging, ErrorsLogsOnlyFailures) {
  EXPECT_EXIT(callWithLog("errors"), ::testing::ExitedWithCode(0),
              "^cucpu: cuDeviceGet -> CUDA_ERROR_INVALID_DEVICE: Device "
              "ordinal 42");
}

TEST(LastMessage, IsKeptPerThread) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice D;
  ASSERT_EQ(cuDeviceGet(&D, 1000), CUDA_ERROR_INVALID_DEVICE);
  std::string Main = cucpuGetLastErrorMessage();
  EXPECT_NE(Main.find("1000"), std::string::npos) << Main;
  std::string Other;
  std::thread([&] {
    Other = cucpuGetLastErrorMessage();
    cuDeviceGet(nullptr, 0);
  }).join();
  EXPECT_EQ(Other, "") << "a new thread has no failure yet";
  EXPECT_EQ(std::string(cucpuGetLastErrorMessage()), Main)
      << "another thread's failure does not overwrite this thread's message";
}

TEST(NotSupported, NamesTheFunctionAndTheFix) {
  EXPECT_EQ(cucpu::api::notSupported("cuGraphCreate", false),
            CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_NE(std::string(cucpuGetLastErrorMessage()).find("cuGraphCreate"),
            std::string::npos);
  EXPECT_EQ(cucpu::api::notSupported("cuMemAlloc", true),
            CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_NE(std::string(cucpuGetLastErrorMessage()).find("rebuild"),
            std::string::npos)
      << "legacy symbols tell the user to rebuild";
}

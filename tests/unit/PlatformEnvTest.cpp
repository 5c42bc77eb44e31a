//===- PlatformEnvTest.cpp - Devices chosen by the environment ------------===//
//
// cuInit reads the environment once per process, so every case runs in a
// fresh child process (gtest's "threadsafe" death-test style re-executes the
// binary) and reports what it saw on stderr.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

namespace {
/// Prints "count=N" and, per device, "dev[i]=<name>|sm=<workers>|mem=<bytes>"
/// then exits 0; or prints "init=<code>" and exits 1 if cuInit fails.
[[noreturn]] void reportDevices() {
  CUresult R = cuInit(0);
  if (R != CUDA_SUCCESS) {
    std::fprintf(stderr, "init=%d\n", static_cast<int>(R));
    std::exit(1);
  }
  int Count = 0;
  cuDeviceGetCount(&Count);
  std::fprintf(stderr, "count=%d\n", Count);
  for (int I = 0; I < Count; ++I) {
    CUdevice D;
    char Name[256];
    int Sms = 0;
    size_t Mem = 0;
    cuDeviceGet(&D, I);
    cuDeviceGetName(Name, sizeof(Name), D);
    cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, D);
    cuDeviceTotalMem(&Mem, D);
    CUuuid U;
    cuDeviceGetUuid(&U, D);
    std::fprintf(stderr, "dev[%d]=%s|sm=%d|mem=%zu|uuid0=%02x\n", I, Name, Sms,
                 Mem, static_cast<unsigned char>(U.bytes[8]));
  }
  std::exit(0);
}

void runWith(std::initializer_list<std::pair<const char *, const char *>> Env) {
  unsetenv("CUCPU_DEVICES");
  unsetenv("CUDA_VISIBLE_DEVICES");
  unsetenv("CUCPU_DEVICE_MEMORY");
  unsetenv("CUCPU_WORKERS");
  for (auto [Name, Value] : Env)
    setenv(Name, Value, 1);
  reportDevices();
}

class PlatformEnv : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
} // namespace

TEST_F(PlatformEnv, OneDeviceByDefault) {
  EXPECT_EXIT(runWith({}), ::testing::ExitedWithCode(0), "count=1\n");
}

TEST_F(PlatformEnv, CucpuDevicesSplitsTheMachine) {
  EXPECT_EXIT(
      runWith({{"CUCPU_DEVICES", "3"}, {"CUCPU_WORKERS", "2"}}),
      ::testing::ExitedWithCode(0),
      "count=3.*dev\\[0\\]=.*part 1 of 3.*\\|sm=2\\|.*dev\\[2\\]=.*part 3 "
      "of 3\\)\\|sm=2");
}

TEST_F(PlatformEnv, DeviceMemoryBudgetIsConfigurable) {
  EXPECT_EXIT(runWith({{"CUCPU_DEVICE_MEMORY", "1G"}}),
              ::testing::ExitedWithCode(0), "mem=1073741824\\|");
}

TEST_F(PlatformEnv, VisibleDevicesSelectAndReorder) {
  EXPECT_EXIT(
      runWith({{"CUCPU_DEVICES", "2"}, {"CUDA_VISIBLE_DEVICES", "1,0"}}),
      ::testing::ExitedWithCode(0),
      "count=2.*dev\\[0\\]=.*part 2 of 2.*.*dev\\[1\\]=.*part 1 of 2");
}

TEST_F(PlatformEnv, VisibleDevicesStopAtTheFirstInvalidEntry) {
  EXPECT_EXIT(
      runWith({{"CUCPU_DEVICES", "2"}, {"CUDA_VISIBLE_DEVICES", "1,7,0"}}),
      ::testing::ExitedWithCode(0), "count=1.*dev\\[0\\]=.*part 2 of 2");
}

TEST_F(PlatformEnv, NoVisibleDeviceFailsInit) {
  EXPECT_EXIT(runWith({{"CUDA_VISIBLE_DEVICES", ""}}),
              ::testing::ExitedWithCode(1),
              "init=" + std::to_string(CUDA_ERROR_NO_DEVICE));
}

TEST_F(PlatformEnv, MalformedSettingsFailInitWithInvalidValue) {
  std::string Expected = "init=" + std::to_string(CUDA_ERROR_INVALID_VALUE);
  EXPECT_EXIT(runWith({{"CUCPU_DEVICES", "many"}}),
              ::testing::ExitedWithCode(1), Expected);
  EXPECT_EXIT(runWith({{"CUCPU_DEVICE_MEMORY", "lots"}}),
              ::testing::ExitedWithCode(1), Expected);
  EXPECT_EXIT(runWith({{"CUCPU_WORKERS", "0"}}), ::testing::ExitedWithCode(1),
              Expected);
}

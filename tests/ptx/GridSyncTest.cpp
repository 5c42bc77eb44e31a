//===- GridSyncTest.cpp - PTX kernels: nvcc's grid-wide sync --------------===//
//
// nvcc's PTX of cooperative groups' grid sync (grid_sync.cu) finds the
// launch's grid workspace through %envreg1 and %envreg2 and counts the
// blocks with atomics on its barrier word: under a cooperative launch every
// block meets every other at each sync; in other launches the workspace is
// null and this_grid() is not valid.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace cucpu::test;

namespace {

std::string gridSyncPtx() {
  std::ifstream In(CUCPU_PTX_TEST_SOURCE_DIR "/grid_sync.sm_75.ptx");
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

using PtxGridSync = PtxKernelTest;

TEST_F(PtxGridSync, BlocksMeetAtEverySync) {
  ASSERT_TRUE(loads(gridSyncPtx()));
  CUfunction F = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&F, Module, "gridRounds"));
  int PerSm = 0, Sms = 0;
  ASSERT_EQ(CUDA_SUCCESS,
            cuOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, F, 64, 0));
  ASSERT_EQ(
      CUDA_SUCCESS,
      cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
  const int Blocks = std::min(PerSm * Sms, 16), Rounds = 5;
  ASSERT_GE(Blocks, 2);
  CUdeviceptr Partial = upload(std::vector<int>(Blocks, 0));
  CUdeviceptr Out = upload(std::vector<int>(Rounds * Blocks, -1));
  int Count = Rounds;
  void *Args[] = {&Partial, &Out, &Count};
  ASSERT_EQ(CUDA_SUCCESS, cuLaunchCooperativeKernel(F, Blocks, 1, 1, 64, 1, 1,
                                                    0, nullptr, Args));
  ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
  auto Host = download<int>(Out, Rounds * Blocks);
  for (int R = 0; R < Rounds; ++R)
    for (int B = 0; B < Blocks; ++B)
      ASSERT_EQ((R + 1) * Blocks * (Blocks + 1) / 2, Host[R * Blocks + B])
          << "round " << R << ", block " << B;
}

TEST_F(PtxGridSync, OnlyCooperativeLaunchesHaveAWorkspace) {
  ASSERT_TRUE(loads(gridSyncPtx()));
  CUfunction F = nullptr;
  ASSERT_EQ(CUDA_SUCCESS, cuModuleGetFunction(&F, Module, "gridValid"));
  CUdeviceptr Out = upload(std::vector<int>(1, -1));
  void *Args[] = {&Out};
  ASSERT_EQ(CUDA_SUCCESS,
            cuLaunchCooperativeKernel(F, 1, 1, 1, 1, 1, 1, 0, nullptr, Args));
  ASSERT_EQ(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(1, download<int>(Out, 1)[0]) << "a cooperative launch's grid";
  ASSERT_EQ(CUDA_SUCCESS, run("gridValid", 2, 1, {&Out}));
  EXPECT_EQ(0, download<int>(Out, 1)[0]) << "an ordinary launch's";
}

} // namespace

//===- OccupancyTest.cpp - The occupancy calculator
//------------------------===//
//
// cuOccupancyAvailableDynamicSMemPerBlock never grows with the number of
// blocks and never exceeds the function's dynamic shared memory limit. On
// cucpu the size it gives for n blocks lets n blocks be resident by
// cuOccupancyMaxActiveBlocksPerMultiprocessor; NVIDIA's two calculators
// disagree by a block at times (H200: 29,184 bytes for 8 blocks of 128
// threads, with which 7 are resident), so there it is reported. Kernels:
// kernels/async.cu.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <string>

using namespace cuapi;

namespace {

class Occupancy : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, CUCPU_API_ASYNC_MODULE));
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddOne, Mod, "addOne"));
  }
  void TearDown() override {
    if (Mod) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
    }
    DriverTest::TearDown();
  }
  CUmodule Mod = nullptr;
  CUfunction AddOne = nullptr;
};

TEST_F(Occupancy, AvailableDynamicSharedMemoryLetsThatManyBlocksReside) {
  constexpr int BlockSize = 128;
  int Limit = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&Limit,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               AddOne));
  size_t Previous = ~size_t(0);
  for (int Blocks : {1, 2, 4, 8}) {
    size_t Bytes = ~size_t(0);
    ASSERT_CU(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(
                                &Bytes, AddOne, Blocks, BlockSize));
    report("occupancy.available_dynamic_smem_" + std::to_string(Blocks) +
               "_blocks_of_128",
           Bytes);
    EXPECT_LE(Bytes, Previous) << "more blocks leave each no more";
    EXPECT_LE(Bytes, static_cast<size_t>(Limit))
        << "no more than the function may ask for";
    Previous = Bytes;
    int Resident = 0;
    ASSERT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(
                                &Resident, AddOne, BlockSize, Bytes));
    report("occupancy.resident_with_that_for_" + std::to_string(Blocks),
           Resident);
    if (!isNvidia()) {
      EXPECT_GE(Resident, Blocks)
          << Bytes << " bytes of dynamic shared memory each let " << Blocks
          << " blocks reside";
    }
  }
}

TEST_F(Occupancy, AvailableDynamicSharedMemoryChecksItsArguments) {
#if CUCPU_ONLY
  size_t Bytes = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyAvailableDynamicSMemPerBlock(nullptr, AddOne, 1, 128));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, nullptr, 1, 128));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyAvailableDynamicSMemPerBlock(&Bytes, AddOne, 0, 128));
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a NULL argument";
#endif
}

TEST_F(Occupancy, SharedMemConfigOfAFunctionIsAPreference) {
  EXPECT_CU(CUDA_SUCCESS,
            cuFuncSetSharedMemConfig(
                AddOne, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
  EXPECT_CU(CUDA_SUCCESS, cuFuncSetSharedMemConfig(
                              AddOne, CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuFuncSetSharedMemConfig(AddOne, static_cast<CUsharedconfig>(7)))
      << "not a bank size";
}

TEST_F(Occupancy, LaunchBoundsLimitLaunchesNotTheCalculator) {
  CUfunction Bounded = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&Bounded, Mod, "addOneBounded"));
  int Max = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&Max, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               Bounded));
  EXPECT_EQ(128, Max) << "__launch_bounds__(128) is the function's limit";
  int Blocks = -1;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(
                              &Blocks, Bounded, 256, 0))
      << "a block size above the bound is not an error for the calculator";
  report("occupancy.bounded_128_at_256_threads", Blocks);
  EXPECT_GT(Blocks, 0) << "observed on an H200: the calculator answers as "
                          "if there were no bound";
  CUdeviceptr Data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&Data, 256 * sizeof(int)));
  int N = 256;
  void *Args[] = {&Data, &N};
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(Bounded, 1, 1, 1, 256, 1, 1, 0, nullptr, Args, nullptr))
      << "a launch above the bound is an invalid block shape";
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(Bounded, 2, 1, 1, 128, 1, 1, 0,
                                         nullptr, Args, nullptr))
      << "at the bound it runs";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Data));
}

} // namespace

//===- ContextLifetimeTest.cpp - Faults and teardown of contexts ----------===//
#include "api/Handles.h"
#include "core/Context.h"
#include "core/CurrentContext.h"
#include "core/Device.h"

#include <cuda.h>

#include <gtest/gtest.h>
#include <set>
#include <thread>
#include <vector>

using namespace cucpu;

namespace {
class ContextLifetime : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuDeviceGet(&Dev, 0), CUDA_SUCCESS);
  }
  std::shared_ptr<Context> object(CUcontext H) {
    return HandleRegistry::get().findAs<Context>(H);
  }
  CUdevice Dev = 0;
};
} // namespace

TEST_F(ContextLifetime, AFaultIsStickyAndStaysInItsContext) {
  CUcontext Healthy, Faulty;
  ASSERT_EQ(cuCtxCreate_v2(&Healthy, 0, Dev), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxCreate_v2(&Faulty, 0, Dev), CUDA_SUCCESS);
  object(Faulty)->markFaulted(CUDA_ERROR_ILLEGAL_ADDRESS,
                              "a kernel wrote through a NULL pointer");
  CUdeviceptr P = 0;
  EXPECT_EQ(cuMemAlloc_v2(&P, 64), CUDA_ERROR_ILLEGAL_ADDRESS)
      << "every call in the faulted context fails";
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS) << "and stays so";
  EXPECT_EQ(cuCtxDestroy_v2(Faulty), CUDA_SUCCESS)
      << "a faulted context can still be destroyed";

  ASSERT_EQ(cuCtxSetCurrent(Healthy), CUDA_SUCCESS);
  EXPECT_EQ(cuMemAlloc_v2(&P, 64), CUDA_SUCCESS)
      << "other contexts carry on (better than NVIDIA, which poisons the "
         "process)";
  EXPECT_EQ(cuMemFree_v2(P), CUDA_SUCCESS);
  CUcontext Fresh;
  EXPECT_EQ(cuCtxCreate_v2(&Fresh, 0, Dev), CUDA_SUCCESS)
      << "new contexts can be created after a fault";
  EXPECT_EQ(cuCtxDestroy_v2(Fresh), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxDestroy_v2(Healthy), CUDA_SUCCESS);
}

TEST_F(ContextLifetime, DestroyReleasesMemoryAndOwnedObjects) {
  Device &D = *api::lookupDevice(Dev);
  size_t Before = D.usedMemory();
  CUcontext C;
  ASSERT_EQ(cuCtxCreate_v2(&C, 0, Dev), CUDA_SUCCESS);
  CUdeviceptr P;
  ASSERT_EQ(cuMemAlloc_v2(&P, 1 << 20), CUDA_SUCCESS);
  void *Host;
  ASSERT_EQ(cuMemAllocHost_v2(&Host, 4096), CUDA_SUCCESS);
  CUstream S;
  CUevent E;
  ASSERT_EQ(cuStreamCreate(&S, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&E, 0), CUDA_SUCCESS);
  EXPECT_GE(D.usedMemory(), Before + (1 << 20)) << "the budget is charged";

  ASSERT_EQ(cuCtxDestroy_v2(C), CUDA_SUCCESS);
  EXPECT_EQ(D.usedMemory(), Before) << "device memory returns to the budget";
  EXPECT_EQ(HandleRegistry::get().find(S, ObjectKind::Stream), nullptr)
      << "the context's stream is no longer a handle";
  EXPECT_EQ(HandleRegistry::get().find(E, ObjectKind::Event), nullptr)
      << "the context's event is no longer a handle";
  EXPECT_EQ(cuStreamQuery(S), CUDA_ERROR_INVALID_CONTEXT)
      << "no context is current any more";
  EXPECT_FALSE(current::hasEntry()) << "destroy popped it from this thread";
}

TEST_F(ContextLifetime, LargeAllocationsAreWholeHugePagesStaggeredInAPage) {
  Device &D = *api::lookupDevice(Dev);
  CUcontext C;
  ASSERT_EQ(cuCtxCreate_v2(&C, 0, Dev), CUDA_SUCCESS);
  size_t Before = D.usedMemory();
  CUdeviceptr Small, Large;
  ASSERT_EQ(cuMemAlloc_v2(&Small, HugePageBytes - 1), CUDA_SUCCESS);
  EXPECT_EQ(Small % AllocationAlignment, 0u);
  EXPECT_EQ(D.usedMemory(), Before + HugePageBytes)
      << "below a huge page: rounded to the allocation alignment";
  ASSERT_EQ(cuMemAlloc_v2(&Large, HugePageBytes + 1), CUDA_SUCCESS);
  EXPECT_EQ(Large % AllocationAlignment, 0u);
  EXPECT_LT(Large % HugePageBytes, 4096u) << "in a huge page's first page";
  EXPECT_EQ(D.usedMemory(), Before + 3 * HugePageBytes)
      << "charged whole huge pages";
  ASSERT_EQ(cuMemsetD8_v2(Large, 0x5a, HugePageBytes + 1), CUDA_SUCCESS);
  unsigned char Last = 0;
  ASSERT_EQ(cuMemcpyDtoH_v2(&Last, Large + HugePageBytes, 1), CUDA_SUCCESS);
  EXPECT_EQ(Last, 0x5a) << "every byte is usable";

  // Arrays a kernel streams together do not start at the same place in a
  // 4 KiB page (4K aliasing): consecutive large allocations differ there.
  std::vector<CUdeviceptr> Others(HugePageColors);
  std::set<CUdeviceptr> PlacesInPage{Large % 4096};
  for (CUdeviceptr &P : Others) {
    ASSERT_EQ(cuMemAlloc_v2(&P, 4 * HugePageBytes), CUDA_SUCCESS);
    EXPECT_EQ(P % AllocationAlignment, 0u);
    PlacesInPage.insert(P % 4096);
  }
  EXPECT_EQ(PlacesInPage.size(), HugePageColors)
      << "every place in a page is taken before one repeats";
  EXPECT_EQ(D.usedMemory(),
            Before + 3 * HugePageBytes + 4 * HugePageBytes * HugePageColors)
      << "still charged whole huge pages";
  for (CUdeviceptr P : Others)
    EXPECT_EQ(cuMemFree_v2(P), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree_v2(Large), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree_v2(Small), CUDA_SUCCESS);
  EXPECT_EQ(D.usedMemory(), Before) << "both return to the budget";
  EXPECT_EQ(cuCtxDestroy_v2(C), CUDA_SUCCESS);
}

TEST_F(ContextLifetime, ARecycledAddressIsNotTheOldContext) {
  CUcontext A;
  ASSERT_EQ(cuCtxCreate_v2(&A, 0, Dev), CUDA_SUCCESS);
  uint64_t OldId = object(A)->id();
  // Another thread keeps A current while this thread destroys it.
  std::shared_ptr<Context> Seen;
  ASSERT_EQ(cuCtxDestroy_v2(A), CUDA_SUCCESS);
  CUcontext B;
  ASSERT_EQ(cuCtxCreate_v2(&B, 0, Dev), CUDA_SUCCESS);
  EXPECT_NE(object(B)->id(), OldId) << "ids are never reused";
  EXPECT_EQ(cuCtxDestroy_v2(B), CUDA_SUCCESS);
}

TEST_F(ContextLifetime, DestroyedContextCurrentElsewhereReadsAsInvalid) {
  CUcontext C;
  ASSERT_EQ(cuCtxCreate_v2(&C, 0, Dev), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxPopCurrent_v2(nullptr), CUDA_SUCCESS);
  CUresult AfterDestroy = CUDA_SUCCESS;
  std::thread Other([&] {
    cuCtxPushCurrent_v2(C);
    // The main thread destroys C here.
    while (HandleRegistry::get().find(C, ObjectKind::Context))
      std::this_thread::yield();
    CUdeviceptr P;
    AfterDestroy = cuMemAlloc_v2(&P, 16);
  });
  ASSERT_EQ(cuCtxDestroy_v2(C), CUDA_SUCCESS);
  Other.join();
  EXPECT_EQ(AfterDestroy, CUDA_ERROR_INVALID_CONTEXT)
      << "a thread whose current context was destroyed gets a clean error";
}

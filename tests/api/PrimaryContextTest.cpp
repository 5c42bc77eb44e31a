//===- PrimaryContextTest.cpp - cuDevicePrimaryCtx* -----------------------===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

/// Every test leaves the primary context released, reset and with flags 0, so
/// the tests also pass when they share one process.
class Primary : public NoContextTest {
protected:
  void TearDown() override {
    EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(Dev, 0))
        << "restore the default flags";
    EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxReset(Dev))
        << "leave the primary context inactive";
    NoContextTest::TearDown();
  }

  int active() {
    unsigned Flags = 0;
    int Active = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(Dev, &Flags, &Active))
        << "query the primary context's state";
    return Active;
  }
  unsigned flags() {
    unsigned Flags = 0xdead;
    int Active = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(Dev, &Flags, &Active))
        << "query the primary context's state";
    return Flags;
  }
};

constexpr CUdevice BadOrdinal = 99;

TEST_F(Primary, InitiallyInactiveWithDefaultFlags) {
  EXPECT_EQ(0, active()) << "no one retained the primary context yet";
  unsigned F = flags();
  report("cuDevicePrimaryCtxGetState.flags(default)", F);
  EXPECT_EQ(0u, F & CU_CTX_SCHED_MASK) << "CU_CTX_SCHED_AUTO by default";
}

TEST_F(Primary, RetainActivatesReleaseDeactivates) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  ASSERT_NE(nullptr, P) << "a real handle";
  EXPECT_EQ(1, active()) << "a retained primary context is active";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
  EXPECT_EQ(0, active()) << "releasing the last reference deactivates it";
}

TEST_F(Primary, RetainDoesNotMakeCurrent) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  CUcontext Cur = reinterpret_cast<CUcontext>(0x1);
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&Cur)) << "query the current context";
  EXPECT_EQ(nullptr, Cur) << "retaining only keeps it alive";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
}

TEST_F(Primary, RetainTwiceGivesSameHandle) {
  CUcontext A = nullptr, B = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&A, Dev))
      << "retain the primary context";
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&B, Dev))
      << "retain the primary context";
  EXPECT_EQ(A, B) << "one primary context per device";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
  EXPECT_EQ(1, active()) << "one reference left";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
  EXPECT_EQ(0, active()) << "inactive again";
}

TEST_F(Primary, DistinctFromCreatedContexts) {
  CUcontext P = nullptr, C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  ASSERT_CU(CUDA_SUCCESS, createContext(&C)) << "setup: a context, now current";
  EXPECT_NE(P, C) << "cuCtxCreate makes a new, non-primary context";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C)) << "cleanup: destroy the context";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
}

TEST_F(Primary, UsableAsCurrentContext) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(P)) << "bind the context";
  CUdeviceptr Mem = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&Mem, 4096)) << "a working context";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(Mem)) << "cleanup: free the allocation";
  unsigned Version = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(P, &Version))
      << "query the API version";
  report("cuCtxGetApiVersion(primary)", Version);
  EXPECT_GE(Version, 3020u) << "a modern context";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetCurrent(nullptr)) << "bind the context";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
}

TEST_F(Primary, CtxDestroyOfPrimaryRejected) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(P))
      << "a primary context is released, never destroyed";
  EXPECT_EQ(1, active()) << "and it is still alive";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
}

TEST_F(Primary, RetainNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(nullptr, Dev))
      << "the output pointer is required";
}

TEST_F(Primary, RetainInvalidDeviceRejected) {
  CUcontext P;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&P, BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Primary, ReleaseWithoutRetainRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(Dev))
      << "nothing to release";
}

TEST_F(Primary, ReleaseInvalidDeviceRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRelease(BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Primary, SetFlagsReportedByGetState) {
  ASSERT_CU(CUDA_SUCCESS,
            cuDevicePrimaryCtxSetFlags(Dev, CU_CTX_SCHED_BLOCKING_SYNC))
      << "set primary context flags";
  EXPECT_EQ(unsigned(CU_CTX_SCHED_BLOCKING_SYNC), flags() & CU_CTX_SCHED_MASK)
      << "the flags apply to the next activation";
}

TEST_F(Primary, SetFlagsWhileActive) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(Dev, CU_CTX_SCHED_SPIN))
      << "_v2 (CUDA 11) allows changing flags of an active primary context";
  EXPECT_EQ(unsigned(CU_CTX_SCHED_SPIN), flags() & CU_CTX_SCHED_MASK)
      << "the new policy is reported";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(Dev))
      << "release the primary context";
}

TEST_F(Primary, SetFlagsUnknownRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(Dev, 0x10000))
      << "flags outside CU_CTX_FLAGS_MASK";
}

TEST_F(Primary, SetFlagsInvalidDeviceRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDevicePrimaryCtxSetFlags(BadOrdinal, 0))
      << "device 99 does not exist";
}

TEST_F(Primary, GetStateNullOutputsRejected) {
  int Active;
  unsigned Flags;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDevicePrimaryCtxGetState(Dev, nullptr, &Active))
      << "flags output is required";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDevicePrimaryCtxGetState(Dev, &Flags, nullptr))
      << "active output is required";
}

TEST_F(Primary, GetStateInvalidDeviceRejected) {
  int Active;
  unsigned Flags;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDevicePrimaryCtxGetState(BadOrdinal, &Flags, &Active))
      << "device 99 does not exist";
}

TEST_F(Primary, ResetDeactivates) {
  CUcontext P = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&P, Dev))
      << "retain the primary context";
  ASSERT_EQ(1, active()) << "retained, so active";
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxReset(Dev))
      << "reset destroys the primary context's state";
  EXPECT_EQ(0, active()) << "after a reset the primary context is inactive";
}

TEST_F(Primary, ResetInvalidDeviceRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxReset(BadOrdinal))
      << "device 99 does not exist";
}

} // namespace

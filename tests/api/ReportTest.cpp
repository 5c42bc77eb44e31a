//===- ReportTest.cpp - print what the driver reports ---------------------===//
//
// Not conformance checks but a record: run against NVIDIA's driver, these
// print the values cucpu should report to look like a real device ("REPORT"
// lines in the log). Each test only requires the queries to succeed.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

using Report = DriverTest;

TEST_F(Report, DeviceAttributes) {
  int Known = 0;
  for (int A = 1; A < static_cast<int>(CU_DEVICE_ATTRIBUTE_MAX); ++A) {
    int V = 0;
    CUresult R =
        cuDeviceGetAttribute(&V, static_cast<CUdevice_attribute>(A), Dev);
    if (R == CUDA_SUCCESS) {
      report("attribute." + std::to_string(A), V);
      ++Known;
    } else {
      report("attribute." + std::to_string(A), resultName(R).c_str());
    }
  }
  EXPECT_GT(Known, 100) << "a modern driver knows most attributes";
}

TEST_F(Report, ContextDefaults) {
  unsigned Flags = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetFlags(&Flags)) << "query the context flags";
  report("ctx.flags", Flags);
  CUfunc_cache Cache;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&Cache))
      << "query the cache preference";
  report("ctx.cacheConfig", int(Cache));
  for (int L = 0; L < 12; ++L) {
    size_t V = 0;
    CUresult R = cuCtxGetLimit(&V, static_cast<CUlimit>(L));
    report("ctx.limit." + std::to_string(L), R == CUDA_SUCCESS
                                                 ? std::to_string(V).c_str()
                                                 : resultName(R).c_str());
  }
  unsigned Version = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(Ctx, &Version))
      << "query the API version";
  report("ctx.apiVersion", Version);
  int Least = 0, Greatest = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&Least, &Greatest))
      << "query the priority range";
  report("ctx.streamPriority.least", Least);
  report("ctx.streamPriority.greatest", Greatest);
  size_t Free = 0, Total = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free, &Total))
      << "query free and total memory";
  report("mem.free", Free);
  report("mem.total", Total);
}

TEST_F(Report, PitchTable) {
  for (size_t Width : {1, 32, 100, 256, 511, 512, 513, 1000, 1024, 4096, 5000})
    for (unsigned Elem : {4u, 8u, 16u}) {
      CUdeviceptr P = 0;
      size_t Pitch = 0;
      ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&P, &Pitch, Width, 2, Elem))
          << "a valid pitched allocation";
      report("pitch(" + std::to_string(Width) + "," + std::to_string(Elem) +
                 ")",
             Pitch);
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
    }
}

TEST_F(Report, AllocationGranularity) {
  // Where consecutive small allocations land tells how NVIDIA sub-allocates.
  CUdeviceptr Prev = 0;
  for (int I = 0; I < 4; ++I) {
    CUdeviceptr P = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, 100)) << "setup: device memory";
    if (Prev)
      report("alloc100.delta", static_cast<long long>(P - Prev));
    size_t Size = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(nullptr, &Size, P))
        << "query the allocation's range";
    report("alloc100.rangeSize", Size);
    Prev = P;
  }
}

} // namespace

//===- ProcAddressTest.cpp - cuGetProcAddress -----------------------------===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

using ProcAddress = DriverTest;

TEST_F(ProcAddress, KnownNameIsCallable) {
  void *Fn = nullptr;
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  ASSERT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuDriverGetVersion", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, &Status))
      << "look up an entry point";
  EXPECT_EQ(CU_GET_PROC_ADDRESS_SUCCESS, Status) << "found";
  ASSERT_NE(nullptr, Fn) << "a function was found";
  int Via = 0, Direct = 0;
  auto *GetVersion = reinterpret_cast<CUresult (*)(int *)>(Fn);
  EXPECT_CU(CUDA_SUCCESS, GetVersion(&Via)) << "the pointer is the function";
  EXPECT_CU(CUDA_SUCCESS, cuDriverGetVersion(&Direct)) << "query the version";
  EXPECT_EQ(Direct, Via) << "the same answer as the direct call";
}

TEST_F(ProcAddress, VersionedNameGivesCurrentAbi) {
  void *Fn = nullptr;
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  ASSERT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuMemAlloc", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, &Status))
      << "plain names are looked up, not _v2 names";
  ASSERT_NE(nullptr, Fn) << "a function was found";
  // At CUDA 3.2 and later "cuMemAlloc" is the size_t/64-bit cuMemAlloc_v2.
  auto *Alloc = reinterpret_cast<CUresult (*)(CUdeviceptr *, size_t)>(Fn);
  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, Alloc(&P, size_t(1) << 20))
      << "call through the pointer";
  EXPECT_NE(0u, P) << "a real address";
  CUdeviceptr Base = 0;
  size_t Size = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&Base, &Size, P))
      << "query the allocation's range";
  EXPECT_EQ(size_t(1) << 20, Size) << "a 64-bit size went through";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P)) << "cleanup: free the allocation";
}

TEST_F(ProcAddress, UnknownNameReportedInStatus) {
  void *Fn = reinterpret_cast<void *>(0x1);
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SUCCESS;
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuNoSuchFunctionAnywhere", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, &Status))
      << "observed on NVIDIA: with a status output the call succeeds";
  EXPECT_EQ(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND, Status)
      << "and the status says why there is no function";
  EXPECT_EQ(nullptr, Fn) << "the output is cleared";
}

TEST_F(ProcAddress, UnknownNameWithoutStatusSucceeds) {
  void *Fn = reinterpret_cast<void *>(0x1);
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuNoSuchFunctionAnywhere", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, nullptr))
      << "observed on NVIDIA: success even without a status output; only "
         "the NULL function tells";
  EXPECT_EQ(nullptr, Fn) << "the output is cleared";
}

TEST_F(ProcAddress, VersionTooOldNotSufficient) {
  void *Fn = reinterpret_cast<void *>(0x1);
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SUCCESS;
  // cuGetProcAddress itself appeared in CUDA 11.3.
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuGetProcAddress", &Fn, 2000,
                             CU_GET_PROC_ADDRESS_DEFAULT, &Status))
      << "observed on NVIDIA: with a status output the call succeeds";
  EXPECT_EQ(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT, Status)
      << "the entry point is newer than the version asked for";
  EXPECT_EQ(nullptr, Fn) << "the output is cleared";
}

TEST_F(ProcAddress, StatusIsOptional) {
  void *Fn = nullptr;
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuInit", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, nullptr))
      << "the status output may be NULL";
  EXPECT_NE(nullptr, Fn) << "a function was found";
}

TEST_F(ProcAddress, NullSymbolRejected) {
#if CUCPU_ONLY
  void *Fn = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress(nullptr, &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, nullptr))
      << "the symbol name is required";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a NULL symbol";
#endif
}

TEST_F(ProcAddress, NullOutputRejected) {
#if CUCPU_ONLY
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress("cuInit", nullptr, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_DEFAULT, nullptr))
      << "the output pointer is required";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a NULL output";
#endif
}

TEST_F(ProcAddress, UnknownFlagsRejected) {
  void *Fn = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress("cuInit", &Fn, CUDA_VERSION, 0x100, nullptr))
      << "0x100 is no CU_GET_PROC_ADDRESS_* flag";
}

TEST_F(ProcAddress, PerThreadFlagFindsStreamFunctions) {
  void *Fn = nullptr;
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuStreamSynchronize", &Fn, CUDA_VERSION,
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                             nullptr))
      << "stream functions have per-thread-default-stream variants";
  ASSERT_NE(nullptr, Fn) << "a function was found";
  auto *Sync = reinterpret_cast<CUresult (*)(CUstream)>(Fn);
  EXPECT_CU(CUDA_SUCCESS, Sync(nullptr)) << "and they work";
}

} // namespace

//===- ContextLimitTest.cpp - limits, cache config, stream priorities -----===//

#include "DriverTest.h"

using namespace cuapi;

namespace {

using Limit = DriverTest;
using LimitNoContext = NoContextTest;
using CacheConfig = DriverTest;
using CacheConfigNoContext = NoContextTest;
using PriorityRange = DriverTest;
using PriorityRangeNoContext = NoContextTest;

// Limits past CU_LIMIT_PERSISTING_L2_CACHE_SIZE exist in newer headers only;
// name them by number so the suite builds against either header.
constexpr CUlimit LimitShmemSize = static_cast<CUlimit>(7);
constexpr CUlimit LimitCigEnabled = static_cast<CUlimit>(8);
constexpr CUlimit LimitCigShmemFallback = static_cast<CUlimit>(9);
constexpr CUlimit NoSuchLimit = static_cast<CUlimit>(0x100);

size_t getLimit(CUlimit L) {
  size_t V = ~size_t(0);
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetLimit(&V, L)) << "limit " << int(L);
  return V;
}

TEST_F(Limit, DefaultsOfSettableLimits) {
  const char *Names[] = {"STACK_SIZE",
                         "PRINTF_FIFO_SIZE",
                         "MALLOC_HEAP_SIZE",
                         "DEV_RUNTIME_SYNC_DEPTH",
                         "DEV_RUNTIME_PENDING_LAUNCH_COUNT",
                         "MAX_L2_FETCH_GRANULARITY",
                         "PERSISTING_L2_CACHE_SIZE"};
  for (int L = 0; L <= 6; ++L)
    if (L != CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH) // see SyncDepthUnsupported
      report(std::string("cuCtxGetLimit(CU_LIMIT_") + Names[L] + ")",
             getLimit(static_cast<CUlimit>(L)));
  EXPECT_GT(getLimit(CU_LIMIT_STACK_SIZE), 0u) << "threads have a stack";
  EXPECT_GT(getLimit(CU_LIMIT_PRINTF_FIFO_SIZE), 0u) << "printf has a FIFO";
  EXPECT_GT(getLimit(CU_LIMIT_MALLOC_HEAP_SIZE), 0u) << "malloc has a heap";
}

TEST_F(Limit, ShmemSizeIsTheOptInMaximum) {
  int OptIn = 0;
  ASSERT_CU(
      CUDA_SUCCESS,
      cuDeviceGetAttribute(
          &OptIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, Dev))
      << "query an attribute";
  EXPECT_EQ(size_t(OptIn), getLimit(LimitShmemSize))
      << "observed on NVIDIA: outside a CIG context the limit is the "
         "per-block opt-in maximum";
}

TEST_F(Limit, CigLimitsOfPlainContext) {
  EXPECT_EQ(0u, getLimit(LimitCigEnabled))
      << "a cuCtxCreate context is not a CIG context";
  size_t V = 0;
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT,
            cuCtxGetLimit(&V, LimitCigShmemFallback))
      << "observed on NVIDIA: the fallback switch exists in CIG contexts only";
}

TEST_F(Limit, DocumentedDefaults) {
  EXPECT_EQ(1024u, getLimit(CU_LIMIT_STACK_SIZE)) << "1 KiB per thread";
  EXPECT_EQ(size_t(8) << 20, getLimit(CU_LIMIT_MALLOC_HEAP_SIZE))
      << "an 8 MiB device heap";
  EXPECT_EQ(2048u, getLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT))
      << "2048 pending device launches";
}

TEST_F(Limit, StackSizeRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096))
      << "set the limit";
  EXPECT_EQ(4096u, getLimit(CU_LIMIT_STACK_SIZE)) << "the value set is kept";
}

TEST_F(Limit, PrintfFifoRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 2 << 20))
      << "set the limit";
  EXPECT_EQ(size_t(2) << 20, getLimit(CU_LIMIT_PRINTF_FIFO_SIZE))
      << "the value set is kept";
}

TEST_F(Limit, MallocHeapRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20))
      << "set the limit";
  EXPECT_EQ(size_t(16) << 20, getLimit(CU_LIMIT_MALLOC_HEAP_SIZE))
      << "the value set is kept";
}

TEST_F(Limit, PendingLaunchCountRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS,
            cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 4096))
      << "set the limit";
  EXPECT_EQ(4096u, getLimit(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT))
      << "the value set is kept";
}

TEST_F(Limit, SyncDepthUnsupported) {
  size_t V = 0;
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT,
            cuCtxGetLimit(&V, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH))
      << "observed on NVIDIA (compute capability 9.0): the CUDA-1 dynamic "
         "parallelism limit is gone";
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT,
            cuCtxSetLimit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 4))
      << "and cannot be set either";
}

TEST_F(Limit, L2FetchGranularityRoundTrips) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 64))
      << "set the limit";
  EXPECT_EQ(64u, getLimit(CU_LIMIT_MAX_L2_FETCH_GRANULARITY))
      << "64 is in 0..128";
}

TEST_F(Limit, PersistingL2CanBeZero) {
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0))
      << "no persisting lines";
  EXPECT_EQ(0u, getLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE))
      << "the zero was kept";
}

TEST_F(Limit, QueryOnlyLimitCannotBeSet) {
  EXPECT_CU(CUDA_ERROR_NOT_PERMITTED, cuCtxSetLimit(LimitCigEnabled, 1))
      << "observed on NVIDIA: CU_LIMIT_CIG_ENABLED can only be queried";
}

TEST_F(Limit, UnknownLimitGetRejected) {
  size_t V;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&V, NoSuchLimit))
      << "observed on NVIDIA: 0x100 is no CUlimit (not UNSUPPORTED_LIMIT)";
}

TEST_F(Limit, UnknownLimitSetRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit(NoSuchLimit, 1))
      << "observed on NVIDIA: 0x100 is no CUlimit (not UNSUPPORTED_LIMIT)";
}

TEST_F(Limit, GetNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuCtxGetLimit(nullptr, CU_LIMIT_STACK_SIZE))
      << "the output pointer is required";
}

TEST_F(LimitNoContext, GetWithoutContextRejected) {
  size_t V;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetLimit(&V, CU_LIMIT_STACK_SIZE))
      << "limits belong to the current context";
}

TEST_F(LimitNoContext, SetWithoutContextRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096))
      << "limits belong to the current context";
}

TEST_F(CacheConfig, DefaultIsPreferNone) {
  CUfunc_cache C = CU_FUNC_CACHE_PREFER_EQUAL;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&C))
      << "query the cache preference";
  EXPECT_EQ(CU_FUNC_CACHE_PREFER_NONE, C) << "the documented default";
}

TEST_F(CacheConfig, SetIsReportedBack) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1))
      << "set a cache preference";
  CUfunc_cache C = CU_FUNC_CACHE_PREFER_NONE;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&C))
      << "query the cache preference";
  report("cuCtxGetCacheConfig(after PREFER_L1)", int(C));
  EXPECT_EQ(CU_FUNC_CACHE_PREFER_L1, C) << "the preference set is kept";
}

TEST_F(CacheConfig, UnknownConfigRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuCtxSetCacheConfig(static_cast<CUfunc_cache>(0x10)))
      << "0x10 is no CUfunc_cache";
}

TEST_F(CacheConfig, GetNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetCacheConfig(nullptr))
      << "the output pointer is required";
}

TEST_F(CacheConfigNoContext, WithoutContextRejected) {
  CUfunc_cache C;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetCacheConfig(&C))
      << "R-CTX-4: no current context";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED))
      << "R-CTX-4: no current context";
}

TEST_F(PriorityRange, LeastIsNotBelowGreatest) {
  int Least = 99, Greatest = 99;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&Least, &Greatest))
      << "query the priority range";
  report("cuCtxGetStreamPriorityRange.least", Least);
  report("cuCtxGetStreamPriorityRange.greatest", Greatest);
  EXPECT_EQ(0, Least) << "the default priority is the least";
  EXPECT_LE(Greatest, Least) << "lower numbers mean higher priority";
}

TEST_F(PriorityRange, OutputsAreOptional) {
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(nullptr, nullptr))
      << "either output may be NULL";
  int Greatest = 99;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(nullptr, &Greatest))
      << "query the priority range";
  EXPECT_LE(Greatest, 0) << "priorities count down from 0";
}

TEST_F(PriorityRangeNoContext, WithoutContextRejected) {
  int Least, Greatest;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuCtxGetStreamPriorityRange(&Least, &Greatest))
      << "R-CTX-4: no current context";
}

} // namespace

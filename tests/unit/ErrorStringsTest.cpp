//===- ErrorStringsTest.cpp - cuGetErrorName and cuGetErrorString ---------===//
#include "core/ErrorStrings.h"

#include <cuda.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// Every CUresult value of CUDA 13.0, spelled through our cuda.h.
#define CUCPU_ALL_RESULTS(X)                                                   \
  X(CUDA_SUCCESS)                                                              \
  X(CUDA_ERROR_INVALID_VALUE)                                                  \
  X(CUDA_ERROR_OUT_OF_MEMORY)                                                  \
  X(CUDA_ERROR_NOT_INITIALIZED)                                                \
  X(CUDA_ERROR_DEINITIALIZED)                                                  \
  X(CUDA_ERROR_PROFILER_DISABLED)                                              \
  X(CUDA_ERROR_PROFILER_NOT_INITIALIZED)                                       \
  X(CUDA_ERROR_PROFILER_ALREADY_STARTED)                                       \
  X(CUDA_ERROR_PROFILER_ALREADY_STOPPED)                                       \
  X(CUDA_ERROR_STUB_LIBRARY)                                                   \
  X(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER)                                     \
  X(CUDA_ERROR_DEVICE_UNAVAILABLE)                                             \
  X(CUDA_ERROR_NO_DEVICE)                                                      \
  X(CUDA_ERROR_INVALID_DEVICE)                                                 \
  X(CUDA_ERROR_DEVICE_NOT_LICENSED)                                            \
  X(CUDA_ERROR_INVALID_IMAGE)                                                  \
  X(CUDA_ERROR_INVALID_CONTEXT)                                                \
  X(CUDA_ERROR_CONTEXT_ALREADY_CURRENT)                                        \
  X(CUDA_ERROR_MAP_FAILED)                                                     \
  X(CUDA_ERROR_UNMAP_FAILED)                                                   \
  X(CUDA_ERROR_ARRAY_IS_MAPPED)                                                \
  X(CUDA_ERROR_ALREADY_MAPPED)                                                 \
  X(CUDA_ERROR_NO_BINARY_FOR_GPU)                                              \
  X(CUDA_ERROR_ALREADY_ACQUIRED)                                               \
  X(CUDA_ERROR_NOT_MAPPED)                                                     \
  X(CUDA_ERROR_NOT_MAPPED_AS_ARRAY)                                            \
  X(CUDA_ERROR_NOT_MAPPED_AS_POINTER)                                          \
  X(CUDA_ERROR_ECC_UNCORRECTABLE)                                              \
  X(CUDA_ERROR_UNSUPPORTED_LIMIT)                                              \
  X(CUDA_ERROR_CONTEXT_ALREADY_IN_USE)                                         \
  X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED)                                        \
  X(CUDA_ERROR_INVALID_PTX)                                                    \
  X(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT)                                       \
  X(CUDA_ERROR_NVLINK_UNCORRECTABLE)                                           \
  X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND)                                         \
  X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)                                        \
  X(CUDA_ERROR_JIT_COMPILATION_DISABLED)                                       \
  X(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY)                                      \
  X(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC)                                       \
  X(CUDA_ERROR_CONTAINED)                                                      \
  X(CUDA_ERROR_INVALID_SOURCE)                                                 \
  X(CUDA_ERROR_FILE_NOT_FOUND)                                                 \
  X(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND)                                 \
  X(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)                                      \
  X(CUDA_ERROR_OPERATING_SYSTEM)                                               \
  X(CUDA_ERROR_INVALID_HANDLE)                                                 \
  X(CUDA_ERROR_ILLEGAL_STATE)                                                  \
  X(CUDA_ERROR_LOSSY_QUERY)                                                    \
  X(CUDA_ERROR_NOT_FOUND)                                                      \
  X(CUDA_ERROR_NOT_READY)                                                      \
  X(CUDA_ERROR_ILLEGAL_ADDRESS)                                                \
  X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)                                        \
  X(CUDA_ERROR_LAUNCH_TIMEOUT)                                                 \
  X(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING)                                  \
  X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)                                    \
  X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)                                        \
  X(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE)                                         \
  X(CUDA_ERROR_CONTEXT_IS_DESTROYED)                                           \
  X(CUDA_ERROR_ASSERT)                                                         \
  X(CUDA_ERROR_TOO_MANY_PEERS)                                                 \
  X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)                                 \
  X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)                                     \
  X(CUDA_ERROR_HARDWARE_STACK_ERROR)                                           \
  X(CUDA_ERROR_ILLEGAL_INSTRUCTION)                                            \
  X(CUDA_ERROR_MISALIGNED_ADDRESS)                                             \
  X(CUDA_ERROR_INVALID_ADDRESS_SPACE)                                          \
  X(CUDA_ERROR_INVALID_PC)                                                     \
  X(CUDA_ERROR_LAUNCH_FAILED)                                                  \
  X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)                                   \
  X(CUDA_ERROR_TENSOR_MEMORY_LEAK)                                             \
  X(CUDA_ERROR_NOT_PERMITTED)                                                  \
  X(CUDA_ERROR_NOT_SUPPORTED)                                                  \
  X(CUDA_ERROR_SYSTEM_NOT_READY)                                               \
  X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)                                         \
  X(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)                                 \
  X(CUDA_ERROR_MPS_CONNECTION_FAILED)                                          \
  X(CUDA_ERROR_MPS_RPC_FAILURE)                                                \
  X(CUDA_ERROR_MPS_SERVER_NOT_READY)                                           \
  X(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED)                                        \
  X(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED)                                    \
  X(CUDA_ERROR_MPS_CLIENT_TERMINATED)                                          \
  X(CUDA_ERROR_CDP_NOT_SUPPORTED)                                              \
  X(CUDA_ERROR_CDP_VERSION_MISMATCH)                                           \
  X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)                                     \
  X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)                                     \
  X(CUDA_ERROR_STREAM_CAPTURE_MERGE)                                           \
  X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED)                                       \
  X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED)                                        \
  X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION)                                       \
  X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)                                        \
  X(CUDA_ERROR_CAPTURED_EVENT)                                                 \
  X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD)                                    \
  X(CUDA_ERROR_TIMEOUT)                                                        \
  X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)                                      \
  X(CUDA_ERROR_EXTERNAL_DEVICE)                                                \
  X(CUDA_ERROR_INVALID_CLUSTER_SIZE)                                           \
  X(CUDA_ERROR_FUNCTION_NOT_LOADED)                                            \
  X(CUDA_ERROR_INVALID_RESOURCE_TYPE)                                          \
  X(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION)                                 \
  X(CUDA_ERROR_KEY_ROTATION)                                                   \
  X(CUDA_ERROR_UNKNOWN)

struct Known {
  CUresult Code;
  const char *Name;
};

constexpr Known AllResults[] = {
#define CUCPU_KNOWN(Code) {Code, #Code},
    CUCPU_ALL_RESULTS(CUCPU_KNOWN)
#undef CUCPU_KNOWN
};

TEST(ErrorStringsTest, FewWellKnownCodes) {
  const char *Str = nullptr;
  EXPECT_EQ(cuGetErrorName(CUDA_SUCCESS, &Str), CUDA_SUCCESS);
  EXPECT_STREQ(Str, "CUDA_SUCCESS");
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &Str), CUDA_SUCCESS);
  EXPECT_STREQ(Str, "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_NOT_SUPPORTED, &Str), CUDA_SUCCESS);
  EXPECT_STREQ(Str, "CUDA_ERROR_NOT_SUPPORTED");
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_UNKNOWN, &Str), CUDA_SUCCESS);
  EXPECT_STREQ(Str, "CUDA_ERROR_UNKNOWN");
  EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(801), &Str), CUDA_SUCCESS);
  EXPECT_STREQ(Str, "CUDA_ERROR_NOT_SUPPORTED") << "801 by value";

  EXPECT_EQ(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &Str), CUDA_SUCCESS);
  ASSERT_NE(Str, nullptr);
  EXPECT_NE(std::string(Str).find("memory"), std::string::npos) << Str;
  EXPECT_EQ(cuGetErrorString(CUDA_SUCCESS, &Str), CUDA_SUCCESS);
  ASSERT_NE(Str, nullptr);
}

TEST(ErrorStringsTest, EveryCodeHasItsExactNameAndNvidiasText) {
  for (const Known &K : AllResults) {
    const char *Name = nullptr;
    EXPECT_EQ(cuGetErrorName(K.Code, &Name), CUDA_SUCCESS) << K.Name;
    EXPECT_STREQ(Name, K.Name) << "the name programs compare against";

    const char *Text = nullptr;
    EXPECT_EQ(cuGetErrorString(K.Code, &Text), CUDA_SUCCESS) << K.Name;
    ASSERT_NE(Text, nullptr) << K.Name;
    std::string S(Text);
    EXPECT_GT(S.size(), 5u) << K.Name << ": " << S;
    EXPECT_NE(S, K.Name) << "a description, not the name again";
  }
  // Spot checks of NVIDIA's wording (driver 580, tools/driver-facts).
  const char *Text = nullptr;
  cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &Text);
  EXPECT_STREQ(Text, "out of memory");
  cuGetErrorString(CUDA_ERROR_ILLEGAL_ADDRESS, &Text);
  EXPECT_STREQ(Text, "an illegal memory access was encountered");
  cuGetErrorString(CUDA_ERROR_NO_BINARY_FOR_GPU, &Text);
  EXPECT_STREQ(Text,
               "no kernel image is available for execution on the device");
}

TEST(ErrorStringsTest, NoOtherValueHasAName) {
  // Every value that has a name is one of the CUDA 13.0 codes above.
  size_t Named = 0;
  for (int V = -10; V <= 1100; ++V) {
    const char *Name = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(V), &Name) == CUDA_SUCCESS)
      ++Named;
  }
  EXPECT_EQ(Named, std::size(AllResults));
}

TEST(ErrorStringsTest, UnknownCodeIsInvalidValueWithNullString) {
  for (int V : {9, 1234, 998, 100000, -1}) {
    const char *Str = "sentinel";
    EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(V), &Str),
              CUDA_ERROR_INVALID_VALUE)
        << V;
    EXPECT_EQ(Str, nullptr) << V;
    Str = "sentinel";
    EXPECT_EQ(cuGetErrorString(static_cast<CUresult>(V), &Str),
              CUDA_ERROR_INVALID_VALUE)
        << V;
    EXPECT_EQ(Str, nullptr) << V;
  }
}

TEST(ErrorStringsTest, NullOutputIsInvalidValue) {
  EXPECT_EQ(cuGetErrorName(CUDA_SUCCESS, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGetErrorString(CUDA_SUCCESS, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(1234), nullptr),
            CUDA_ERROR_INVALID_VALUE);
}

TEST(ErrorStringsTest, InternalNameForLogs) {
  EXPECT_STREQ(cucpu::errorName(CUDA_ERROR_INVALID_CONTEXT),
               "CUDA_ERROR_INVALID_CONTEXT");
  EXPECT_STREQ(cucpu::errorName(static_cast<CUresult>(1234)),
               "CUDA_ERROR_UNKNOWN_CODE(1234)")
      << "never null, and shows the value";
  EXPECT_STREQ(cucpu::errorName(static_cast<CUresult>(-5)),
               "CUDA_ERROR_UNKNOWN_CODE(-5)");
  EXPECT_EQ(cucpu::knownErrorName(static_cast<CUresult>(1234)), nullptr);
  EXPECT_EQ(cucpu::errorDescription(static_cast<CUresult>(1234)), nullptr);
}

/// Runs in a fresh process: asks for error text before cuInit. Exits 0 on
/// success.
[[noreturn]] void describeErrorBeforeInit() {
  const char *Name = nullptr, *Text = nullptr;
  bool Ok =
      cuGetErrorName(CUDA_ERROR_NOT_INITIALIZED, &Name) == CUDA_SUCCESS &&
      Name && std::strcmp(Name, "CUDA_ERROR_NOT_INITIALIZED") == 0 &&
      cuGetErrorString(CUDA_ERROR_NOT_INITIALIZED, &Text) == CUDA_SUCCESS &&
      Text;
  // And the driver really is uninitialized here.
  int Count = 0;
  Ok = Ok && cuDeviceGetCount(&Count) == CUDA_ERROR_NOT_INITIALIZED;
  std::exit(Ok ? 0 : 1);
}

TEST(ErrorStringsTest, WorkBeforeCuInit) {
  // A fresh process, since cuInit cannot be undone.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(describeErrorBeforeInit(), ::testing::ExitedWithCode(0), "");
}

} // namespace

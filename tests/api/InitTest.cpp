//===- InitTest.cpp - cuInit, cuDriverGetVersion, error names -------------===//

#include "DriverTest.h"

#include <cstring>

using namespace cuapi;

namespace {

TEST(Init, ZeroFlagsSucceeds) {
  EXPECT_CU(CUDA_SUCCESS, cuInit(0)) << "cuInit(0) is the documented call";
}

TEST(Init, IsIdempotent) {
  ASSERT_CU(CUDA_SUCCESS, cuInit(0)) << "first call";
  EXPECT_CU(CUDA_SUCCESS, cuInit(0)) << "a second cuInit(0) is harmless";
}

TEST(Init, NonZeroFlagsRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuInit(1))
      << "E.1.1: Flags must be 0 (NVIDIA: INVALID_VALUE)";
}

TEST(Init, NonZeroFlagsAfterInitStillRejected) {
  ASSERT_CU(CUDA_SUCCESS, cuInit(0)) << "initialise the driver";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuInit(0x80000000u))
      << "flags are checked even once the driver is initialised";
}

TEST(DriverVersion, ReportsAtLeastTheHeaderVersion) {
  int Version = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDriverGetVersion(&Version))
      << "cuDriverGetVersion needs no context";
  report("cuDriverGetVersion", Version);
  EXPECT_GE(Version, CUDA_VERSION)
      << "the driver must be at least as new as the header the suite was "
         "built with (the API is backward compatible only, seed 004 §3.3)";
  EXPECT_EQ(0, Version % 10) << "versions are major*1000 + minor*10";
}

TEST(DriverVersion, NullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr))
      << "the output pointer is required";
}

TEST(ErrorName, NamesKnownCodes) {
  const char *Name = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorName(CUDA_SUCCESS, &Name))
      << "name a known code";
  ASSERT_NE(nullptr, Name) << "a name, not NULL";
  EXPECT_STREQ("CUDA_SUCCESS", Name) << "names are the enumerator spellings";
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &Name))
      << "name a known code";
  EXPECT_STREQ("CUDA_ERROR_INVALID_VALUE", Name) << "the enumerator spelling";
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_INVALID_CONTEXT, &Name))
      << "name a known code";
  EXPECT_STREQ("CUDA_ERROR_INVALID_CONTEXT", Name) << "the enumerator spelling";
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorName(CUDA_ERROR_NOT_READY, &Name))
      << "name a known code";
  EXPECT_STREQ("CUDA_ERROR_NOT_READY", Name) << "the enumerator spelling";
}

TEST(ErrorName, EveryCommonCodeHasItsOwnName) {
  struct Case {
    CUresult Code;
    const char *Name;
  };
  const Case Cases[] = {
      {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
      {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"},
      {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED"},
      {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
      {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
      {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
      {CUDA_ERROR_CONTEXT_ALREADY_CURRENT,
       "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
      {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
      {CUDA_ERROR_FILE_NOT_FOUND, "CUDA_ERROR_FILE_NOT_FOUND"},
      {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE"},
      {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
      {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
      {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
       "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
      {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED"},
      {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"},
  };
  for (const Case &C : Cases) {
    const char *Name = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGetErrorName(C.Code, &Name)) << C.Name;
    EXPECT_STREQ(C.Name, Name) << "each code is named by its enumerator";
  }
}

TEST(ErrorName, UnknownCodeRejected) {
  const char *Name = "sentinel";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetErrorName(static_cast<CUresult>(12345), &Name))
      << "12345 is no CUresult";
  EXPECT_EQ(nullptr, Name) << "NVIDIA clears the output for an unknown code";
}

TEST(ErrorName, NullOutputRejected) {
#if CUCPU_ONLY
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, nullptr))
      << "the output pointer is required";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a NULL output";
#endif
}

TEST(ErrorString, DescribesKnownCodes) {
  struct Case {
    CUresult Code;
    const char *Text;
  };
  // NVIDIA's wording, which programs print and scripts grep for.
  const Case Cases[] = {
      {CUDA_SUCCESS, "no error"},
      {CUDA_ERROR_INVALID_VALUE, "invalid argument"},
      {CUDA_ERROR_OUT_OF_MEMORY, "out of memory"},
      {CUDA_ERROR_NOT_INITIALIZED, "initialization error"},
      {CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"},
      {CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"},
      {CUDA_ERROR_INVALID_CONTEXT, "invalid device context"},
      {CUDA_ERROR_FILE_NOT_FOUND, "file not found"},
      {CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"},
      {CUDA_ERROR_NOT_FOUND, "named symbol not found"},
      {CUDA_ERROR_NOT_READY, "device not ready"},
  };
  for (const Case &C : Cases) {
    const char *Text = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGetErrorString(C.Code, &Text)) << C.Text;
    ASSERT_NE(nullptr, Text) << "every known code has a description";
    EXPECT_STREQ(C.Text, Text) << "description of " << resultName(C.Code);
  }
}

TEST(ErrorString, DescriptionsDiffer) {
  const char *A = nullptr, *B = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &A))
      << "describe a known code";
  ASSERT_CU(CUDA_SUCCESS, cuGetErrorString(CUDA_ERROR_INVALID_CONTEXT, &B))
      << "describe a known code";
  EXPECT_STRNE(A, B) << "each code is described on its own";
}

TEST(ErrorString, UnknownCodeRejected) {
  const char *Text = "sentinel";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetErrorString(static_cast<CUresult>(12345), &Text))
      << "12345 is no CUresult";
  EXPECT_EQ(nullptr, Text) << "NVIDIA clears the output for an unknown code";
}

TEST(ErrorString, NullOutputRejected) {
#if CUCPU_ONLY
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetErrorString(CUDA_ERROR_INVALID_VALUE, nullptr))
      << "the output pointer is required";
#else
  GTEST_SKIP() << "cucpu-only: NVIDIA's driver segfaults on a NULL output";
#endif
}

} // namespace

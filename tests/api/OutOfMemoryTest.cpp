//===- OutOfMemoryTest.cpp - Running out of device memory -----------------===//
//
// Allocates device memory until the driver says no, touching all of it: the
// answer must be CUDA_ERROR_OUT_OF_MEMORY, never a process killed by the
// host's out-of-memory killer, and the context must keep working. Its own
// executable, run alone (RUN_SERIAL): it takes most of the machine's memory
// for a moment.
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"

#include <fstream>
#include <string>
#include <vector>

using namespace cuapi;

namespace {

constexpr size_t MiB = size_t(1) << 20;

/// MemAvailable of /proc/meminfo, in bytes.
size_t hostAvailable() {
  std::ifstream In("/proc/meminfo");
  std::string Key, Unit;
  size_t Value = 0;
  while (In >> Key >> Value >> Unit)
    if (Key == "MemAvailable:")
      return Value * 1024;
  return 0;
}

using OutOfMemory = DriverTest;

TEST_F(OutOfMemory, FreeMemoryIsMemoryTheHostHas) {
  size_t Free = 0, Total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free, &Total));
  EXPECT_LE(Free, Total) << "free memory is part of the total";
  if (!isNvidia()) {
    EXPECT_LE(Free, hostAvailable() + 256 * MiB)
        << "device memory is host memory: no more is free than the host has";
  }
}

TEST_F(OutOfMemory, AllocatingUntilFailureEndsInAnError) {
  size_t Free = 0, Total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&Free, &Total));
  size_t Chunk = std::max<size_t>(Total / 64, 64 * MiB);
  std::vector<CUdeviceptr> Taken;
  CUresult Last = CUDA_SUCCESS;
  // Twice the total is more than any device or host can give.
  while (Taken.size() < 128) {
    CUdeviceptr P = 0;
    Last = cuMemAlloc(&P, Chunk);
    if (Last != CUDA_SUCCESS)
      break;
    Taken.push_back(P);
    // Every byte is used, so that memory the host only promised would show.
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 0x5a, Chunk))
        << "allocation " << Taken.size() << " is memory that can be written";
  }
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, Last)
      << "after " << Taken.size() << " allocations of " << Chunk << " bytes";
  EXPECT_GE(Taken.size(), 1u) << "some memory was there to be had";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize())
      << "running out of memory does not break the context";
  for (CUdeviceptr P : Taken)
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));

  CUdeviceptr P = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&P, MiB)) << "memory is back after frees";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(P, 7, MiB / 4));
  unsigned Word = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Word, P + 1000, sizeof(Word)));
  EXPECT_EQ(7u, Word) << "the context still works";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(P));
}

} // namespace

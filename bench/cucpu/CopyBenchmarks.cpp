//===- CopyBenchmarks.cpp - cuMemcpyHtoD / cuMemcpyDtoH
//--------------------===//
//
// CopyBytes (64 MiB) between one device allocation and page-locked host
// memory from cuMemAllocHost, or pageable memory from operator new (touched
// before timing). Each direction is checked once, before it is timed, by a
// round trip through the device.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "CucpuHarness.h"

#include <cstring>
#include <memory>

namespace bench::cucpu {
namespace {

/// The buffers of the copy benchmarks, allocated on first use.
struct CopyBuffers {
  size_t Bytes = 0;
  CUdeviceptr Device = 0;
  unsigned char *Pinned = nullptr;
  std::unique_ptr<unsigned char[]> Pageable, Scratch;

  explicit CopyBuffers(size_t N) : Bytes(N) {
    context();
    CU_CHECK(cuMemAlloc(&Device, Bytes));
    void *P;
    CU_CHECK(cuMemAllocHost(&P, Bytes));
    Pinned = static_cast<unsigned char *>(P);
    Pageable.reset(new unsigned char[Bytes]);
    Scratch.reset(new unsigned char[Bytes]);
    std::memset(Pinned, 0, Bytes);
    std::memset(Pageable.get(), 0, Bytes);
    std::memset(Scratch.get(), 0, Bytes);
  }
  ~CopyBuffers() {
    CU_CHECK(cuMemFree(Device));
    CU_CHECK(cuMemFreeHost(Pinned));
  }
};

std::unique_ptr<CopyBuffers> &buffers(size_t Bytes) {
  static std::unique_ptr<CopyBuffers> B;
  if (!B && Bytes)
    B = std::make_unique<CopyBuffers>(Bytes);
  return B;
}

void fill(unsigned char *P, size_t N, unsigned Seed) {
  for (size_t I = 0; I < N; ++I)
    P[I] = static_cast<unsigned char>((I * 131 + Seed) >> 3);
}

/// Copies host -> device (\p ToDevice) or back with the host buffer \p Host;
/// the first call checks a round trip.
void copyBenchmark(benchmark::State &S, const char *Name, bool Pinned,
                   bool ToDevice, size_t Bytes) {
  CopyBuffers &B = *buffers(Bytes);
  unsigned char *Host = Pinned ? B.Pinned : B.Pageable.get();
  unsigned char *Other = B.Scratch.get();
  // Check: the host buffer's pattern reaches the device and comes back.
  unsigned Seed = (ToDevice ? 2u : 0u) + (Pinned ? 1u : 0u) + 1u;
  if (ToDevice) {
    fill(Host, B.Bytes, Seed);
    CU_CHECK(cuMemcpyHtoD(B.Device, Host, B.Bytes));
    CU_CHECK(cuMemcpyDtoH(Other, B.Device, B.Bytes));
  } else {
    fill(Other, B.Bytes, Seed);
    CU_CHECK(cuMemcpyHtoD(B.Device, Other, B.Bytes));
    CU_CHECK(cuMemcpyDtoH(Host, B.Device, B.Bytes));
  }
  if (std::memcmp(Host, Other, B.Bytes) != 0) {
    reportFailure(std::string("cucpu ") + Name +
                  ": the bytes that came back differ from those sent.");
    S.SkipWithError("wrong result");
    return;
  }
  for (auto _ : S) {
    if (ToDevice)
      CU_CHECK(cuMemcpyHtoD(B.Device, Host, B.Bytes));
    else
      CU_CHECK(cuMemcpyDtoH(Host, B.Device, B.Bytes));
  }
  S.SetBytesProcessed(int64_t(S.iterations()) * int64_t(B.Bytes));
}

} // namespace

void registerCopyBenchmarks(const Options &O) {
  struct Case {
    const char *Name;
    bool Pinned, ToDevice;
  };
  static const Case Cases[] = {{"copy.htod_pinned", true, true},
                               {"copy.htod_pageable", false, true},
                               {"copy.dtoh_pinned", true, false},
                               {"copy.dtoh_pageable", false, false}};
  size_t Bytes = O.Size.CopyBytes;
  for (const Case &C : Cases)
    timed(benchmark::RegisterBenchmark(C.Name,
                                       [C, Bytes](benchmark::State &S) {
                                         copyBenchmark(S, C.Name, C.Pinned,
                                                       C.ToDevice, Bytes);
                                       }),
          O);
}

void releaseCopyBenchmarks() { buffers(0).reset(); }

} // namespace bench::cucpu

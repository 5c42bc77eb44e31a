//===- CopyBenchmarks.cpp - Host-device copies, any form ------------------===//
#include "CopyBenchmarks.h"

#include "Form.h"
#include "Run.h"

#include <cstring>
#include <string>

namespace bench {
namespace {

/// The buffers of the copy benchmarks, allocated on first use.
struct CopyBuffers {
  size_t Bytes = 0;
  std::unique_ptr<CopyDevice> Device;
  std::unique_ptr<unsigned char[]> Pageable, Scratch;

  explicit CopyBuffers(size_t N) : Bytes(N), Device(form::makeCopyDevice(N)) {
    Pageable.reset(new unsigned char[Bytes]);
    Scratch.reset(new unsigned char[Bytes]);
    std::memset(Device->pinned(), 0, Bytes);
    std::memset(Pageable.get(), 0, Bytes);
    std::memset(Scratch.get(), 0, Bytes);
  }
};

std::unique_ptr<CopyBuffers> &buffers() {
  static std::unique_ptr<CopyBuffers> B;
  return B;
}

void fill(unsigned char *P, size_t N, unsigned Seed) {
  for (size_t I = 0; I < N; ++I)
    P[I] = static_cast<unsigned char>((I * 131 + Seed) >> 3);
}

/// One copy.* benchmark: its name, its host memory and its direction.
struct CopyCase {
  const char *Name;
  bool Pinned, ToDevice;
};

/// Copies host -> device (C.ToDevice) or back; checks a round trip first.
void copyBenchmark(benchmark::State &S, const CopyCase &C, size_t Bytes) {
  if (!buffers())
    buffers() = std::make_unique<CopyBuffers>(Bytes);
  CopyBuffers &B = *buffers();
  CopyDevice &D = *B.Device;
  unsigned char *Host = C.Pinned ? D.pinned() : B.Pageable.get();
  unsigned char *Other = B.Scratch.get();
  // Check: the host buffer's pattern reaches the device and comes back.
  unsigned Seed = (C.ToDevice ? 2u : 0u) + (C.Pinned ? 1u : 0u) + 1u;
  if (C.ToDevice) {
    fill(Host, B.Bytes, Seed);
    D.toDevice(Host);
    D.toHost(Other);
  } else {
    fill(Other, B.Bytes, Seed);
    D.toDevice(Other);
    D.toHost(Host);
  }
  if (std::memcmp(Host, Other, B.Bytes) != 0) {
    reportFailure(std::string(form::name()) + " " + C.Name +
                  ": the bytes that came back differ from those sent.");
    S.SkipWithError("wrong result");
    return;
  }
  for (auto _ : S) {
    if (C.ToDevice)
      D.toDevice(Host);
    else
      D.toHost(Host);
  }
  S.SetBytesProcessed(int64_t(S.iterations()) * int64_t(B.Bytes));
}

} // namespace

void registerCopyBenchmarks(const Options &O) {
  static const CopyCase Cases[] = {{"copy.htod_pinned", true, true},
                                   {"copy.htod_pageable", false, true},
                                   {"copy.dtoh_pinned", true, false},
                                   {"copy.dtoh_pageable", false, false}};
  size_t Bytes = O.Size.CopyBytes;
  for (const CopyCase &C : Cases)
    timed(benchmark::RegisterBenchmark(
              C.Name,
              [&C, Bytes](benchmark::State &S) { copyBenchmark(S, C, Bytes); }),
          O);
}

void releaseCopyBenchmarks() { buffers().reset(); }

} // namespace bench

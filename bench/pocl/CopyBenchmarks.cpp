//===- CopyBenchmarks.cpp - clEnqueueWriteBuffer / clEnqueueReadBuffer ----===//
//
// CopyBytes (64 MiB), blocking, between one device buffer and pinned host
// memory (a mapped CL_MEM_ALLOC_HOST_PTR buffer, OpenCL's idiom for
// page-locked memory) or pageable memory from operator new (touched before
// timing). Each direction is checked once, before it is timed, by a round
// trip through the device.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "PoclHarness.h"

#include <cstring>
#include <memory>

namespace bench::pocl {
namespace {

/// The buffers of the copy benchmarks, allocated on first use.
struct CopyBuffers {
  size_t Bytes = 0;
  cl_mem Dev = nullptr, PinnedMem = nullptr;
  unsigned char *Pinned = nullptr;
  std::unique_ptr<unsigned char[]> Pageable, Scratch;

  explicit CopyBuffers(size_t N) : Bytes(N) {
    Device &D = device();
    cl_int Err;
    Dev = clCreateBuffer(D.Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
    CL_CHECK(Err);
    PinnedMem =
        clCreateBuffer(D.Context, CL_MEM_ALLOC_HOST_PTR, Bytes, nullptr, &Err);
    CL_CHECK(Err);
    Pinned = static_cast<unsigned char *>(clEnqueueMapBuffer(
        D.Queue, PinnedMem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, Bytes, 0,
        nullptr, nullptr, &Err));
    CL_CHECK(Err);
    Pageable.reset(new unsigned char[Bytes]);
    Scratch.reset(new unsigned char[Bytes]);
    std::memset(Pinned, 0, Bytes);
    std::memset(Pageable.get(), 0, Bytes);
    std::memset(Scratch.get(), 0, Bytes);
  }
  ~CopyBuffers() {
    Device &D = device();
    CL_CHECK(clEnqueueUnmapMemObject(D.Queue, PinnedMem, Pinned, 0, nullptr,
                                     nullptr));
    CL_CHECK(clFinish(D.Queue));
    CL_CHECK(clReleaseMemObject(PinnedMem));
    CL_CHECK(clReleaseMemObject(Dev));
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

void write(CopyBuffers &B, const unsigned char *Host) {
  CL_CHECK(clEnqueueWriteBuffer(device().Queue, B.Dev, CL_TRUE, 0, B.Bytes,
                                Host, 0, nullptr, nullptr));
}

void read(CopyBuffers &B, unsigned char *Host) {
  CL_CHECK(clEnqueueReadBuffer(device().Queue, B.Dev, CL_TRUE, 0, B.Bytes, Host,
                               0, nullptr, nullptr));
}

/// Copies host -> device (\p ToDevice) or back; checks a round trip first.
void copyBenchmark(benchmark::State &S, const char *Name, bool Pinned,
                   bool ToDevice, size_t Bytes) {
  CopyBuffers &B = *buffers(Bytes);
  unsigned char *Host = Pinned ? B.Pinned : B.Pageable.get();
  unsigned char *Other = B.Scratch.get();
  unsigned Seed = (ToDevice ? 2u : 0u) + (Pinned ? 1u : 0u) + 1u;
  if (ToDevice) {
    fill(Host, B.Bytes, Seed);
    write(B, Host);
    read(B, Other);
  } else {
    fill(Other, B.Bytes, Seed);
    write(B, Other);
    read(B, Host);
  }
  if (std::memcmp(Host, Other, B.Bytes) != 0) {
    reportFailure(std::string("pocl ") + Name +
                  ": the bytes that came back differ from those sent.");
    S.SkipWithError("wrong result");
    return;
  }
  for (auto _ : S) {
    if (ToDevice)
      write(B, Host);
    else
      read(B, Host);
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

} // namespace bench::pocl

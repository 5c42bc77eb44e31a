//===- KernelBenchmarks.cpp - The kernels as native C++ -------------------===//
//
// A timed run is one call of the kernel's native function (after zeroing
// the buffers a Workload zeroes each run) on working copies of its buffers.
// Before timing, one run from the initial contents is checked against the
// host reference; it doubles as the warm-up run.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "NativeHarness.h"

#include <cstring>
#include <memory>
#include <omp.h>

namespace bench::native {
namespace {

/// The Workload being timed (one at a time, as in bench-cucpu).
struct Current {
  std::string Name;
  Workload W;
  Contents Work;
  std::vector<void *> Ptrs;
  NativeKernel Fn = nullptr;
  bool Bad = false;

  void run() {
    for (size_t I = 0; I < W.Buffers.size(); ++I)
      if (W.Buffers[I].ZeroEachRun)
        std::memset(Ptrs[I], 0, Work[I].size());
    Fn(W, Ptrs);
  }
};

Current &current() {
  static Current C;
  return C;
}

} // namespace

int threads() { return omp_get_max_threads(); }

NativeKernel kernelFor(const char *Name) {
  static const struct {
    const char *Name;
    NativeKernel Fn;
  } Table[] = {{"saxpy", saxpy},         {"matmul", matmul},
               {"reduce", reduce},       {"transpose", transpose},
               {"histogram", histogram}, {"blackscholes", blackScholes},
               {"nbody", nbody},         {"stencil", stencil}};
  for (const auto &E : Table)
    if (std::strcmp(E.Name, Name) == 0)
      return E.Fn;
  return nullptr;
}

void registerKernelBenchmarks(const Options &O) {
  for (const WorkloadInfo &Info : workloadList()) {
    if (O.ScalingOnly && !Info.ComputeBound)
      continue;
    auto *B =
        benchmark::RegisterBenchmark(Info.Name, [Info, O](benchmark::State &S) {
          Current &C = current();
          if (C.Name != Info.Name) {
            C = Current();
            C.Name = Info.Name;
            C.W = Info.Make(O.Size);
            C.Fn = kernelFor(Info.Name);
            if (!C.Fn)
              fatal(std::string("No native form of ") + Info.Name + ".");
            C.Work = C.W.initial();
            for (auto &Bytes : C.Work)
              C.Ptrs.push_back(Bytes.data());
            C.run();
            std::string Msg = C.W.Check(C.W, C.Work);
            C.Bad = !Msg.empty();
            if (C.Bad)
              reportFailure(std::string("native ") + Info.Name + ": " + Msg);
          }
          if (C.Bad) {
            S.SkipWithError("wrong result");
            return;
          }
          for (auto _ : S)
            C.run();
        });
    timed(B, O);
  }
}

} // namespace bench::native

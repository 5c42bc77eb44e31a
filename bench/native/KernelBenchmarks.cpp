//===- KernelBenchmarks.cpp - The kernels as native C++ -------------------===//
//
// A timed run is one call of the kernel's native function (after zeroing
// the buffers a Workload zeroes each run) on working copies of its buffers,
// which the check reads directly.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "NativeHarness.h"

#include <cstring>
#include <omp.h>

namespace bench::native {
namespace {

/// A Workload's working buffers and its native function.
class HostWorkload final : public DeviceWorkload {
  NativeKernel Fn;
  Contents Work;
  std::vector<void *> Ptrs;

public:
  HostWorkload(Workload Built, NativeKernel Fn)
      : DeviceWorkload(std::move(Built)), Fn(Fn), Work(W.initial()) {
    for (auto &Bytes : Work)
      Ptrs.push_back(Bytes.data());
  }

  void run() override {
    for (size_t I = 0; I < W.Buffers.size(); ++I)
      if (W.Buffers[I].ZeroEachRun)
        std::memset(Ptrs[I], 0, Work[I].size());
    Fn(W, Ptrs);
  }

  std::string check() override { return W.Check(W, Work); }
};

} // namespace

NativeKernel kernelFor(const char *Name) {
  static const struct {
    const char *Name;
    NativeKernel Fn;
  } Table[] = {{"saxpy", saxpy},           {"matmul", matmul},
               {"reduce", reduce},         {"transpose", transpose},
               {"histogram", histogram},   {"blackscholes", blackScholes},
               {"nbody", nbody},           {"stencil", stencil},
               {"reduce_warpsync", reduce}};
  for (const auto &E : Table)
    if (std::strcmp(E.Name, Name) == 0)
      return E.Fn;
  return nullptr;
}

} // namespace bench::native

const char *bench::form::name() { return "native"; }

int bench::form::threads() { return omp_get_max_threads(); }

std::unique_ptr<bench::DeviceWorkload>
bench::form::prepareWorkload(Workload W) {
  native::NativeKernel Fn = native::kernelFor(W.Name.c_str());
  if (!Fn)
    fatal("No native form of " + W.Name + ".");
  return std::make_unique<native::HostWorkload>(std::move(W), Fn);
}

bool bench::form::takesPtx() { return false; }

// No module loads: a native program has nothing to load.
const bench::ModuleLoads *bench::form::moduleLoads() { return nullptr; }

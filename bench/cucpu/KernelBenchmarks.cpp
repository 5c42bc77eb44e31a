//===- KernelBenchmarks.cpp - The kernels through cuLaunchKernel ----------===//
//
// A timed run is cuLaunchKernel + cuCtxSynchronize (plus a cuMemsetD32 of
// the buffers a Workload zeroes each run); the data stays on the device.
// Before timing, one run from the initial contents is copied back and
// checked against the host reference; it doubles as the warm-up run.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "../common/Workload.h"
#include "CucpuHarness.h"

#include <memory>

namespace bench::cucpu {
namespace {

/// A Workload on the device: its buffers, its arguments, its kernel.
class DeviceWorkload {
public:
  explicit DeviceWorkload(Workload W) : W(std::move(W)) {
    F = function(this->W.Name, this->W.Kernel);
    for (const BufferSpec &B : this->W.Buffers) {
      CUdeviceptr P;
      CU_CHECK(cuMemAlloc(&P, B.Initial.size()));
      CU_CHECK(cuMemcpyHtoD(P, B.Initial.data(), B.Initial.size()));
      Ptrs.push_back(P);
    }
    // cuLaunchKernel takes a pointer to each argument's value.
    for (const KernelArg &A : this->W.Args)
      Params.push_back(
          A.K == KernelArg::Kind::Buffer ? static_cast<void *>(&Ptrs[A.Buffer])
          : A.K == KernelArg::Kind::Int
              ? static_cast<void *>(const_cast<int32_t *>(&A.Int))
              : static_cast<void *>(const_cast<float *>(&A.Float)));
  }
  ~DeviceWorkload() {
    for (CUdeviceptr P : Ptrs)
      CU_CHECK(cuMemFree(P));
  }

  /// One run: zero what must be zeroed, launch, wait.
  void run() {
    for (size_t I = 0; I < W.Buffers.size(); ++I)
      if (W.Buffers[I].ZeroEachRun)
        CU_CHECK(cuMemsetD32(Ptrs[I], 0, W.Buffers[I].Initial.size() / 4));
    CU_CHECK(cuLaunchKernel(F, W.Grid.X, W.Grid.Y, W.Grid.Z, W.Block.X,
                            W.Block.Y, W.Block.Z, 0, nullptr, Params.data(),
                            nullptr));
    CU_CHECK(cuCtxSynchronize());
  }

  /// One run from the initial contents, checked: "" or what is wrong.
  std::string runAndCheck() {
    run();
    Contents After;
    for (size_t I = 0; I < W.Buffers.size(); ++I) {
      After.emplace_back(W.Buffers[I].Initial.size());
      CU_CHECK(cuMemcpyDtoH(After.back().data(), Ptrs[I], After.back().size()));
    }
    return W.Check(W, After);
  }

private:
  Workload W;
  CUfunction F = nullptr;
  std::vector<CUdeviceptr> Ptrs;
  std::vector<void *> Params;
};

/// The Workload being timed. Google Benchmark runs all repetitions of one
/// benchmark before the next, so one at a time is on the device.
struct Current {
  std::string Name;
  std::unique_ptr<DeviceWorkload> Device;
  bool Bad = false;
};
Current &current() {
  static Current C;
  return C;
}

} // namespace

void registerKernelBenchmarks(const Options &O) {
  for (const WorkloadInfo &Info : workloadList()) {
    if (O.ScalingOnly && !Info.ComputeBound)
      continue;
    auto *B =
        benchmark::RegisterBenchmark(Info.Name, [Info, O](benchmark::State &S) {
          // Called once per repetition (and while the iteration count is
          // sized): set up and check only on the first call.
          Current &C = current();
          if (C.Name != Info.Name) {
            C.Device.reset();
            C.Name = Info.Name;
            C.Device = std::make_unique<DeviceWorkload>(Info.Make(O.Size));
            std::string Msg = C.Device->runAndCheck();
            C.Bad = !Msg.empty();
            if (C.Bad)
              reportFailure(std::string("cucpu ") + Info.Name + ": " + Msg);
          }
          if (C.Bad) {
            S.SkipWithError("wrong result");
            return;
          }
          for (auto _ : S)
            C.Device->run();
        });
    timed(B, O);
  }
}

void releaseKernelBenchmarks() { current() = Current(); }

} // namespace bench::cucpu

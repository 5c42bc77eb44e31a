//===- KernelBenchmarks.cpp - One benchmark per Workload, any form --------===//
#include "KernelBenchmarks.h"

#include "Form.h"
#include "Run.h"

namespace bench {
namespace {

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

/// Registers the benchmark of \p Info, of its kernel from nvcc's PTX when
/// \p FromPtx (named <name>.ptx).
void registerKernel(const WorkloadInfo &Info, bool FromPtx, const Options &O) {
  std::string Name = std::string(Info.Name) + (FromPtx ? ".ptx" : "");
  auto *B = benchmark::RegisterBenchmark(
      Name.c_str(), [Info, Name, FromPtx, O](benchmark::State &S) {
        // Called once per repetition (and while the iteration count is
        // sized): set up and check only on the first call.
        Current &C = current();
        if (C.Name != Name) {
          C.Device.reset(); // the previous Workload's memory first
          C.Name = Name;
          Workload W = Info.Make(O.Size);
          W.FromPtx = FromPtx;
          C.Device = form::prepareWorkload(std::move(W));
          C.Device->run();
          std::string Msg = C.Device->check();
          C.Bad = !Msg.empty();
          if (C.Bad)
            reportFailure(std::string(form::name()) + " " + Name + ": " + Msg);
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

} // namespace

void registerKernelBenchmarks(const Options &O) {
  for (const WorkloadInfo &Info : workloadList()) {
    if (O.ScalingOnly && !Info.ComputeBound)
      continue;
    registerKernel(Info, /*FromPtx=*/false, O);
    // Right after the image's, so that both meet the machine in one state.
    if (O.Ptx)
      registerKernel(Info, /*FromPtx=*/true, O);
  }
}

void releaseKernelBenchmarks() { current() = Current(); }

} // namespace bench

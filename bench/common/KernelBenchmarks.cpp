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
            C.Device.reset(); // the previous Workload's memory first
            C.Name = Info.Name;
            C.Device = form::prepareWorkload(Info.Make(O.Size));
            C.Device->run();
            std::string Msg = C.Device->check();
            C.Bad = !Msg.empty();
            if (C.Bad)
              reportFailure(std::string(form::name()) + " " + Info.Name + ": " +
                            Msg);
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

} // namespace bench

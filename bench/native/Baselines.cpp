//===- Baselines.cpp - Native counterparts of launches and copies ---------===//
//
// A native program has no kernel launch: its closest cost is an OpenMP
// parallel region's fork and join, timed alone (launch.sync) and back to
// back (launch.queued, per region). A host-device copy's counterpart is a
// plain memcpy of the same size between touched buffers.
//
//===----------------------------------------------------------------------===//
#include "../common/LaunchBenchmarks.h"
#include "NativeHarness.h"

#include <cstring>
#include <omp.h>

namespace bench::native {
namespace {

/// Keeps the empty region from being optimized away.
volatile int Sink;

/// An empty parallel region as the "kernel" (registerLaunchBenchmarks<>):
/// the region's join is its wait.
struct EmptyRegion {
  /// One region.
  void sync() {
#pragma omp parallel
    {
      if (omp_get_thread_num() == -1)
        Sink = 1;
    }
  }
  /// One region (it has ended when this returns).
  void launch() { sync(); }
  /// Nothing to wait for.
  void wait() {}
};

/// The "device" buffer and the "pinned" one are plain host memory (the host
/// has only one kind); both directions are a memcpy.
class HostCopyDevice final : public CopyDevice {
  size_t Bytes;
  std::unique_ptr<unsigned char[]> Device, Pinned;

public:
  explicit HostCopyDevice(size_t Bytes)
      : Bytes(Bytes), Device(new unsigned char[Bytes]),
        Pinned(new unsigned char[Bytes]) {
    std::memset(Device.get(), 0, Bytes);
  }

  unsigned char *pinned() override { return Pinned.get(); }
  void toDevice(const unsigned char *Host) override {
    std::memcpy(Device.get(), Host, Bytes);
  }
  void toHost(unsigned char *Host) override {
    std::memcpy(Host, Device.get(), Bytes);
  }
};

} // namespace
} // namespace bench::native

void bench::form::registerLaunchBenchmarks(const Options &O) {
  bench::registerLaunchBenchmarks<native::EmptyRegion>(O);
}

std::unique_ptr<bench::CopyDevice> bench::form::makeCopyDevice(size_t Bytes) {
  return std::make_unique<native::HostCopyDevice>(Bytes);
}

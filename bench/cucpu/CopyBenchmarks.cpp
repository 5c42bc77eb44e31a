//===- CopyBenchmarks.cpp - cuMemcpyHtoD / cuMemcpyDtoH -------------------===//
//
// The copy benchmarks' device side: one cuMemAlloc allocation and, as the
// page-locked host memory, one from cuMemAllocHost.
//
//===----------------------------------------------------------------------===//
#include "CucpuHarness.h"

namespace bench::cucpu {
namespace {

/// A device allocation and page-locked host memory of Bytes each.
class CuCopyDevice final : public CopyDevice {
  size_t Bytes;
  CUdeviceptr Device = 0;
  unsigned char *Pinned = nullptr;

public:
  explicit CuCopyDevice(size_t Bytes) : Bytes(Bytes) {
    context();
    CU_CHECK(cuMemAlloc(&Device, Bytes));
    void *P;
    CU_CHECK(cuMemAllocHost(&P, Bytes));
    Pinned = static_cast<unsigned char *>(P);
  }
  ~CuCopyDevice() override {
    CU_CHECK(cuMemFree(Device));
    CU_CHECK(cuMemFreeHost(Pinned));
  }

  unsigned char *pinned() override { return Pinned; }
  void toDevice(const unsigned char *Host) override {
    CU_CHECK(cuMemcpyHtoD(Device, Host, Bytes));
  }
  void toHost(unsigned char *Host) override {
    CU_CHECK(cuMemcpyDtoH(Host, Device, Bytes));
  }
};

} // namespace
} // namespace bench::cucpu

std::unique_ptr<bench::CopyDevice> bench::form::makeCopyDevice(size_t Bytes) {
  return std::make_unique<cucpu::CuCopyDevice>(Bytes);
}

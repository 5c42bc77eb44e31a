//===- CopyBenchmarks.cpp - clEnqueueWriteBuffer / clEnqueueReadBuffer ----===//
//
// The copy benchmarks' device side: blocking copies to and from one device
// buffer; the pinned host memory is a mapped CL_MEM_ALLOC_HOST_PTR buffer,
// OpenCL's idiom for page-locked memory.
//
//===----------------------------------------------------------------------===//
#include "PoclHarness.h"

namespace bench::pocl {
namespace {

/// A device buffer and a mapped host buffer of Bytes each.
class ClCopyDevice final : public CopyDevice {
  size_t Bytes;
  cl_mem Dev = nullptr, PinnedMem = nullptr;
  unsigned char *Pinned = nullptr;

public:
  explicit ClCopyDevice(size_t Bytes) : Bytes(Bytes) {
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
  }
  ~ClCopyDevice() override {
    Device &D = device();
    CL_CHECK(clEnqueueUnmapMemObject(D.Queue, PinnedMem, Pinned, 0, nullptr,
                                     nullptr));
    CL_CHECK(clFinish(D.Queue));
    CL_CHECK(clReleaseMemObject(PinnedMem));
    CL_CHECK(clReleaseMemObject(Dev));
  }

  unsigned char *pinned() override { return Pinned; }
  void toDevice(const unsigned char *Host) override {
    CL_CHECK(clEnqueueWriteBuffer(device().Queue, Dev, CL_TRUE, 0, Bytes, Host,
                                  0, nullptr, nullptr));
  }
  void toHost(unsigned char *Host) override {
    CL_CHECK(clEnqueueReadBuffer(device().Queue, Dev, CL_TRUE, 0, Bytes, Host,
                                 0, nullptr, nullptr));
  }
};

} // namespace
} // namespace bench::pocl

std::unique_ptr<bench::CopyDevice> bench::form::makeCopyDevice(size_t Bytes) {
  return std::make_unique<pocl::ClCopyDevice>(Bytes);
}

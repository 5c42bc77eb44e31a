//===- KernelBenchmarks.cpp - The kernels through cuLaunchKernel ----------===//
//
// A timed run is cuLaunchKernel + cuCtxSynchronize (plus a cuMemsetD32 of
// the buffers a Workload zeroes each run); the data stays on the device.
// The checked run's buffers are copied back with cuMemcpyDtoH. The kernel
// comes from cucc's cubin or (Workload::FromPtx) from nvcc's PTX.
//
//===----------------------------------------------------------------------===//
#include "CucpuHarness.h"

namespace bench::cucpu {
namespace {

/// A Workload on the device: its buffers, its arguments, its kernel.
class CuWorkload final : public DeviceWorkload {
  CUfunction F = nullptr;
  std::vector<CUdeviceptr> Ptrs;
  std::vector<void *> Params;

public:
  explicit CuWorkload(Workload Built) : DeviceWorkload(std::move(Built)) {
    F = function(W.Name, W.Kernel, W.FromPtx);
    for (const BufferSpec &B : W.Buffers) {
      CUdeviceptr P;
      CU_CHECK(cuMemAlloc(&P, B.Initial.size()));
      CU_CHECK(cuMemcpyHtoD(P, B.Initial.data(), B.Initial.size()));
      Ptrs.push_back(P);
    }
    // cuLaunchKernel takes a pointer to each argument's value.
    for (const KernelArg &A : W.Args)
      Params.push_back(
          A.K == KernelArg::Kind::Buffer ? static_cast<void *>(&Ptrs[A.Buffer])
          : A.K == KernelArg::Kind::Int
              ? static_cast<void *>(const_cast<int32_t *>(&A.Int))
              : static_cast<void *>(const_cast<float *>(&A.Float)));
  }
  ~CuWorkload() override {
    for (CUdeviceptr P : Ptrs)
      CU_CHECK(cuMemFree(P));
  }

  void run() override {
    for (size_t I = 0; I < W.Buffers.size(); ++I)
      if (W.Buffers[I].ZeroEachRun)
        CU_CHECK(cuMemsetD32(Ptrs[I], 0, W.Buffers[I].Initial.size() / 4));
    CU_CHECK(cuLaunchKernel(F, W.Grid.X, W.Grid.Y, W.Grid.Z, W.Block.X,
                            W.Block.Y, W.Block.Z, 0, nullptr, Params.data(),
                            nullptr));
    CU_CHECK(cuCtxSynchronize());
  }

  std::string check() override {
    return checkCopiedBack(W, [&](size_t I, std::vector<unsigned char> &To) {
      CU_CHECK(cuMemcpyDtoH(To.data(), Ptrs[I], To.size()));
    });
  }
};

} // namespace
} // namespace bench::cucpu

std::unique_ptr<bench::DeviceWorkload>
bench::form::prepareWorkload(Workload W) {
  return std::make_unique<cucpu::CuWorkload>(std::move(W));
}

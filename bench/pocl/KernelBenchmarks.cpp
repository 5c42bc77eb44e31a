//===- KernelBenchmarks.cpp - The kernels through clEnqueueNDRangeKernel --===//
//
// A timed run is clEnqueueNDRangeKernel + clFinish (plus a
// clEnqueueFillBuffer of the buffers a Workload zeroes each run), with
// global size = CUDA grid * block and local size = block; the data stays on
// the device. The checked run (which also makes PoCL compile the work-group
// function for this local size) is read back with clEnqueueReadBuffer.
//
//===----------------------------------------------------------------------===//
#include "PoclHarness.h"

namespace bench::pocl {
namespace {

/// A Workload on the device: its buffers and its kernel with arguments set.
class ClWorkload final : public DeviceWorkload {
  cl_kernel K = nullptr;
  std::vector<cl_mem> Mems;
  cl_uint Dims = 1;
  size_t Global[3] = {1, 1, 1}, Local[3] = {1, 1, 1};

public:
  explicit ClWorkload(Workload Built) : DeviceWorkload(std::move(Built)) {
    Device &D = device();
    K = kernel(W.Name, W.Kernel);
    for (const BufferSpec &B : W.Buffers) {
      cl_int Err;
      cl_mem M = clCreateBuffer(D.Context, CL_MEM_READ_WRITE, B.Initial.size(),
                                nullptr, &Err);
      CL_CHECK(Err);
      CL_CHECK(clEnqueueWriteBuffer(D.Queue, M, CL_TRUE, 0, B.Initial.size(),
                                    B.Initial.data(), 0, nullptr, nullptr));
      Mems.push_back(M);
    }
    for (cl_uint I = 0; I < W.Args.size(); ++I) {
      const KernelArg &A = W.Args[I];
      if (A.K == KernelArg::Kind::Buffer)
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_mem), &Mems[A.Buffer]));
      else if (A.K == KernelArg::Kind::Int)
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_int), &A.Int));
      else
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_float), &A.Float));
    }
    const Dim3 &G = W.Grid, &L = W.Block;
    Dims = (G.Z > 1 || L.Z > 1) ? 3 : (G.Y > 1 || L.Y > 1) ? 2 : 1;
    Global[0] = size_t(G.X) * L.X;
    Global[1] = size_t(G.Y) * L.Y;
    Global[2] = size_t(G.Z) * L.Z;
    Local[0] = L.X;
    Local[1] = L.Y;
    Local[2] = L.Z;
  }
  ~ClWorkload() override {
    for (cl_mem M : Mems)
      CL_CHECK(clReleaseMemObject(M));
    CL_CHECK(clReleaseKernel(K));
  }

  void run() override {
    cl_command_queue Q = device().Queue;
    const cl_uint Zero = 0;
    for (size_t I = 0; I < W.Buffers.size(); ++I)
      if (W.Buffers[I].ZeroEachRun)
        CL_CHECK(clEnqueueFillBuffer(Q, Mems[I], &Zero, sizeof(Zero), 0,
                                     W.Buffers[I].Initial.size(), 0, nullptr,
                                     nullptr));
    CL_CHECK(clEnqueueNDRangeKernel(Q, K, Dims, nullptr, Global, Local, 0,
                                    nullptr, nullptr));
    CL_CHECK(clFinish(Q));
  }

  std::string check() override {
    return checkCopiedBack(W, [&](size_t I, std::vector<unsigned char> &To) {
      CL_CHECK(clEnqueueReadBuffer(device().Queue, Mems[I], CL_TRUE, 0,
                                   To.size(), To.data(), 0, nullptr, nullptr));
    });
  }
};

} // namespace
} // namespace bench::pocl

std::unique_ptr<bench::DeviceWorkload>
bench::form::prepareWorkload(Workload W) {
  return std::make_unique<pocl::ClWorkload>(std::move(W));
}

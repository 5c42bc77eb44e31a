//===- KernelBenchmarks.cpp - The kernels through clEnqueueNDRangeKernel --===//
//
// A timed run is clEnqueueNDRangeKernel + clFinish (plus a
// clEnqueueFillBuffer of the buffers a Workload zeroes each run), with
// global size = CUDA grid * block and local size = block; the data stays on
// the device. Before timing, one run from the initial contents is read back
// and checked against the host reference; it doubles as the warm-up run
// (and makes PoCL compile the work-group function for this local size).
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "../common/Workload.h"
#include "PoclHarness.h"

#include <memory>

namespace bench::pocl {
namespace {

/// A Workload on the device: its buffers and its kernel with arguments set.
class DeviceWorkload {
public:
  explicit DeviceWorkload(Workload W) : W(std::move(W)) {
    Device &D = device();
    K = kernel(this->W.Name, this->W.Kernel);
    for (const BufferSpec &B : this->W.Buffers) {
      cl_int Err;
      cl_mem M = clCreateBuffer(D.Context, CL_MEM_READ_WRITE, B.Initial.size(),
                                nullptr, &Err);
      CL_CHECK(Err);
      CL_CHECK(clEnqueueWriteBuffer(D.Queue, M, CL_TRUE, 0, B.Initial.size(),
                                    B.Initial.data(), 0, nullptr, nullptr));
      Mems.push_back(M);
    }
    for (cl_uint I = 0; I < this->W.Args.size(); ++I) {
      const KernelArg &A = this->W.Args[I];
      if (A.K == KernelArg::Kind::Buffer)
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_mem), &Mems[A.Buffer]));
      else if (A.K == KernelArg::Kind::Int)
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_int), &A.Int));
      else
        CL_CHECK(clSetKernelArg(K, I, sizeof(cl_float), &A.Float));
    }
    const Dim3 &G = this->W.Grid, &L = this->W.Block;
    Dims = (G.Z > 1 || L.Z > 1) ? 3 : (G.Y > 1 || L.Y > 1) ? 2 : 1;
    Global[0] = size_t(G.X) * L.X;
    Global[1] = size_t(G.Y) * L.Y;
    Global[2] = size_t(G.Z) * L.Z;
    Local[0] = L.X;
    Local[1] = L.Y;
    Local[2] = L.Z;
  }
  ~DeviceWorkload() {
    for (cl_mem M : Mems)
      CL_CHECK(clReleaseMemObject(M));
    CL_CHECK(clReleaseKernel(K));
  }

  /// One run: zero what must be zeroed, enqueue, wait.
  void run() {
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

  /// One run from the initial contents, checked: "" or what is wrong.
  std::string runAndCheck() {
    run();
    Contents After;
    for (size_t I = 0; I < W.Buffers.size(); ++I) {
      After.emplace_back(W.Buffers[I].Initial.size());
      CL_CHECK(clEnqueueReadBuffer(device().Queue, Mems[I], CL_TRUE, 0,
                                   After.back().size(), After.back().data(), 0,
                                   nullptr, nullptr));
    }
    return W.Check(W, After);
  }

private:
  Workload W;
  cl_kernel K = nullptr;
  std::vector<cl_mem> Mems;
  cl_uint Dims = 1;
  size_t Global[3] = {1, 1, 1}, Local[3] = {1, 1, 1};
};

/// The Workload being timed (one at a time, as in bench-cucpu).
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
          Current &C = current();
          if (C.Name != Info.Name) {
            C.Device.reset();
            C.Name = Info.Name;
            C.Device = std::make_unique<DeviceWorkload>(Info.Make(O.Size));
            std::string Msg = C.Device->runAndCheck();
            C.Bad = !Msg.empty();
            if (C.Bad)
              reportFailure(std::string("pocl ") + Info.Name + ": " + Msg);
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

} // namespace bench::pocl

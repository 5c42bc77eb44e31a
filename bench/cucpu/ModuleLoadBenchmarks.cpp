//===- ModuleLoadBenchmarks.cpp - cuModuleLoad in a fresh process ---------===//
//
// The matrixMul sample's kernel (cucc-compiled from samples/matrixMul at
// build time), loaded by the first cuModuleLoad of a new process, which is
// timed there (common/ModuleLoadBenchmarks.h):
//   module_load.cold  CUDA_CACHE_DISABLE=1: the JIT compiles the IR.
//   module_load.warm  CUDA_CACHE_PATH=<a directory a first child populated>:
//                     a compute-cache hit.
// With --ptx, module_load.cold.ptx and module_load.warm.ptx load nvcc's
// PTX of the same kernel (kernels/ptx-nvcc-13.0/matrixMul_kernel.ptx): the
// PTX JIT translates it, then the same JIT (or compute-cache hit, in a
// cache directory of their own) follows.
//
//===----------------------------------------------------------------------===//
#include "../common/MatrixMulCheck.h"
#include "../common/Stopwatch.h"
#include "CucpuHarness.h"

#include <vector>

namespace bench::cucpu {
namespace {

/// Runs matrixMul(C, A, B, WA, WB) of the loaded module on the
/// MatrixMulCheck and compares with the host's product.
bool matrixMulWorks(CUmodule M) {
  using P = MatrixMulCheck;
  P Check;
  CUfunction F;
  CU_CHECK(cuModuleGetFunction(&F, M, "matrixMul"));
  std::vector<float> C(P::HA * P::WB);
  CUdeviceptr DA, DB, DC;
  CU_CHECK(cuMemAlloc(&DA, Check.A.size() * 4));
  CU_CHECK(cuMemAlloc(&DB, Check.B.size() * 4));
  CU_CHECK(cuMemAlloc(&DC, C.size() * 4));
  CU_CHECK(cuMemcpyHtoD(DA, Check.A.data(), Check.A.size() * 4));
  CU_CHECK(cuMemcpyHtoD(DB, Check.B.data(), Check.B.size() * 4));
  int Wa = P::WA, Wb = P::WB;
  void *Params[] = {&DC, &DA, &DB, &Wa, &Wb};
  CU_CHECK(cuLaunchKernel(F, P::WB / 16, P::HA / 16, 1, 16, 16, 1, 0, nullptr,
                          Params, nullptr));
  CU_CHECK(cuMemcpyDtoH(C.data(), DC, C.size() * 4));
  CU_CHECK(cuMemFree(DA));
  CU_CHECK(cuMemFree(DB));
  CU_CHECK(cuMemFree(DC));
  return Check.matches(C);
}

bool loadAndCheck(const std::string &Cubin, double &Seconds) {
  context();
  CUmodule M;
  Seconds = secondsOf([&] { CU_CHECK(cuModuleLoad(&M, Cubin.c_str())); });
  bool Ok = matrixMulWorks(M);
  CU_CHECK(cuModuleUnload(M));
  return Ok;
}

ChildEnv childEnv(bool Warm, bool FromPtx) {
  if (!Warm)
    return {{{"CUDA_CACHE_DISABLE", "1"}}, ""};
  // The PTX's loads have a cache of their own, so that its warm-up is what
  // fills it (an image's entry is no hit for the PTX).
  const std::string &Dir = [FromPtx]() -> const std::string & {
    if (FromPtx) {
      static const std::string D = cacheDir("cuda-cache-ptx", "compute-cache");
      return D;
    }
    static const std::string D = cacheDir("cuda-cache", "compute-cache");
    return D;
  }();
  return {{{"CUDA_CACHE_DISABLE", "0"}, {"CUDA_CACHE_PATH", Dir}}, Dir};
}

} // namespace
} // namespace bench::cucpu

const bench::ModuleLoads *bench::form::moduleLoads() {
  static const ModuleLoads L = {.Job = "load",
                                .Takes = "the cubin's path",
                                .Cache = "compute cache",
                                .File = cucpu::cubinPath("matrixMul_kernel"),
                                .PtxFile = cucpu::ptxPath("matrixMul_kernel"),
                                .Env = cucpu::childEnv,
                                .LoadAndCheck = cucpu::loadAndCheck};
  return &L;
}

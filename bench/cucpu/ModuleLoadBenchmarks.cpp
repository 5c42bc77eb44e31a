//===- ModuleLoadBenchmarks.cpp - cuModuleLoad in a fresh process ---------===//
//
// The matrixMul sample's kernel (cucc-compiled from samples/matrixMul at
// build time), loaded by the first cuModuleLoad of a new process, which is
// timed there (Subprocess.h):
//   module_load.cold  CUDA_CACHE_DISABLE=1: the JIT compiles the IR.
//   module_load.warm  CUDA_CACHE_PATH=<a directory a first child populated>:
//                     a compute-cache hit.
// Each child checks the loaded kernel by multiplying small matrices.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "../common/Subprocess.h"
#include "CucpuHarness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace bench::cucpu {
namespace {

/// Runs matrixMul(C, A, B, WA, WB) of the loaded module on 32 x 48 times
/// 48 x 64 matrices and compares with the host's product.
bool matrixMulWorks(CUmodule M) {
  const int HA = 32, WA = 48, WB = 64;
  CUfunction F;
  CU_CHECK(cuModuleGetFunction(&F, M, "matrixMul"));
  std::vector<float> A(HA * WA), B(WA * WB), C(HA * WB);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = float(I % 7) - 3;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(I % 5) * 0.5f;
  CUdeviceptr DA, DB, DC;
  CU_CHECK(cuMemAlloc(&DA, A.size() * 4));
  CU_CHECK(cuMemAlloc(&DB, B.size() * 4));
  CU_CHECK(cuMemAlloc(&DC, C.size() * 4));
  CU_CHECK(cuMemcpyHtoD(DA, A.data(), A.size() * 4));
  CU_CHECK(cuMemcpyHtoD(DB, B.data(), B.size() * 4));
  int Wa = WA, Wb = WB;
  void *Params[] = {&DC, &DA, &DB, &Wa, &Wb};
  CU_CHECK(cuLaunchKernel(F, WB / 16, HA / 16, 1, 16, 16, 1, 0, nullptr, Params,
                          nullptr));
  CU_CHECK(cuMemcpyDtoH(C.data(), DC, C.size() * 4));
  CU_CHECK(cuMemFree(DA));
  CU_CHECK(cuMemFree(DB));
  CU_CHECK(cuMemFree(DC));
  for (int R = 0; R < HA; ++R)
    for (int Col = 0; Col < WB; ++Col) {
      float Want = 0; // small integers and halves: exact in float
      for (int K = 0; K < WA; ++K)
        Want += A[R * WA + K] * B[K * WB + Col];
      if (C[R * WB + Col] != Want) {
        std::fprintf(stderr, "matrixMul: C[%d][%d] is %g, expected %g\n", R,
                     Col, double(C[R * WB + Col]), double(Want));
        return false;
      }
    }
  return true;
}

/// Times one child per iteration with \p Env; the first call first runs an
/// untimed child (the warm-up, which for the warm case fills the cache).
void timeChildren(benchmark::State &S, const char *Name, const EnvList &Env,
                  const std::string &CacheDir) {
  std::string Cubin = cubinPath("matrixMul_kernel");
  static std::vector<std::string> WarmedUp;
  if (std::find(WarmedUp.begin(), WarmedUp.end(), Name) == WarmedUp.end()) {
    WarmedUp.push_back(Name);
    ChildResult R = runChild("load", {Cubin}, Env);
    if (!R.Ok)
      fatal(std::string("cucpu ") + Name + ": " + R.Error);
    if (!CacheDir.empty() && std::filesystem::is_empty(CacheDir))
      reportFailure(std::string("cucpu ") + Name + ": the first load left " +
                    CacheDir + " empty; no compute cache to hit.");
  }
  for (auto _ : S) {
    ChildResult R = runChild("load", {Cubin}, Env);
    if (!R.Ok)
      fatal(std::string("cucpu ") + Name + ": " + R.Error);
    S.SetIterationTime(R.Seconds);
  }
}

} // namespace

void registerModuleLoadBenchmarks(const Options &O) {
  auto *Cold =
      benchmark::RegisterBenchmark("module_load.cold", [](benchmark::State &S) {
        timeChildren(S, "module_load.cold", {{"CUDA_CACHE_DISABLE", "1"}}, "");
      });
  auto *Warm =
      benchmark::RegisterBenchmark("module_load.warm", [](benchmark::State &S) {
        static TempDir Cache("cuda-cache");
        if (Cache.path().empty())
          fatal("Could not create a temporary compute-cache directory.");
        timeChildren(
            S, "module_load.warm",
            {{"CUDA_CACHE_DISABLE", "0"}, {"CUDA_CACHE_PATH", Cache.path()}},
            Cache.path());
      });
  for (auto *B : {Cold, Warm})
    timed(B, O, Clock::Manual, 1);
}

int runLoadChild(const Options &O) {
  if (O.ChildArgs.size() != 1)
    fatal("--child=load takes the cubin's path.");
  context();
  CUmodule M;
  auto T0 = std::chrono::steady_clock::now();
  CU_CHECK(cuModuleLoad(&M, O.ChildArgs[0].c_str()));
  std::chrono::duration<double> T = std::chrono::steady_clock::now() - T0;
  bool Ok = matrixMulWorks(M);
  CU_CHECK(cuModuleUnload(M));
  if (!Ok)
    return 1;
  std::printf("%.9f\n", T.count());
  return 0;
}

} // namespace bench::cucpu

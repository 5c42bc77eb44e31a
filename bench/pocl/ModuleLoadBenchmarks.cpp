//===- ModuleLoadBenchmarks.cpp - clBuildProgram in a fresh process -------===//
//
// The OpenCL form of the matrixMul sample's kernel (kernels/matrixMul.cl),
// built by the first clBuildProgram of a new process, which is timed there
// (Subprocess.h):
//   module_load.cold  POCL_KERNEL_CACHE=0: clang compiles the source.
//   module_load.warm  POCL_KERNEL_CACHE=1 with a POCL_CACHE_DIR that a first
//                     child populated: a kernel-cache hit.
// PoCL compiles a kernel's work-group function at its first enqueue, not in
// clBuildProgram; that part is not timed here. Each child checks the kernel
// by multiplying small matrices.
//
//===----------------------------------------------------------------------===//
#include "../common/Run.h"
#include "../common/Subprocess.h"
#include "PoclHarness.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace bench::pocl {
namespace {

/// Runs matrixMul(C, A, B, WA, WB) of \p P on 32 x 48 times 48 x 64
/// matrices and compares with the host's product.
bool matrixMulWorks(cl_program P) {
  const int HA = 32, WA = 48, WB = 64;
  Device &D = device();
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "matrixMul", &Err);
  CL_CHECK(Err);
  std::vector<float> A(HA * WA), B(WA * WB), C(HA * WB);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = float(I % 7) - 3;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = float(I % 5) * 0.5f;
  auto Make = [&](std::vector<float> &V, cl_mem_flags Flags) {
    cl_mem M = clCreateBuffer(D.Context, Flags, V.size() * 4, V.data(), &Err);
    CL_CHECK(Err);
    return M;
  };
  cl_mem DA = Make(A, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem DB = Make(B, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem DC = Make(C, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_int Wa = WA, Wb = WB;
  CL_CHECK(clSetKernelArg(K, 0, sizeof(cl_mem), &DC));
  CL_CHECK(clSetKernelArg(K, 1, sizeof(cl_mem), &DA));
  CL_CHECK(clSetKernelArg(K, 2, sizeof(cl_mem), &DB));
  CL_CHECK(clSetKernelArg(K, 3, sizeof(cl_int), &Wa));
  CL_CHECK(clSetKernelArg(K, 4, sizeof(cl_int), &Wb));
  size_t Global[2] = {WB, HA}, Local[2] = {16, 16};
  CL_CHECK(clEnqueueNDRangeKernel(D.Queue, K, 2, nullptr, Global, Local, 0,
                                  nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(D.Queue, DC, CL_TRUE, 0, C.size() * 4, C.data(),
                               0, nullptr, nullptr));
  for (cl_mem M : {DA, DB, DC})
    CL_CHECK(clReleaseMemObject(M));
  CL_CHECK(clReleaseKernel(K));
  for (int R = 0; R < HA; ++R)
    for (int Col = 0; Col < WB; ++Col) {
      float Want = 0; // small integers and halves: exact in float
      for (int Kk = 0; Kk < WA; ++Kk)
        Want += A[R * WA + Kk] * B[Kk * WB + Col];
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
  std::string Source = sourcePath("matrixMul");
  static std::vector<std::string> WarmedUp;
  if (std::find(WarmedUp.begin(), WarmedUp.end(), Name) == WarmedUp.end()) {
    WarmedUp.push_back(Name);
    ChildResult R = runChild("build", {Source}, Env);
    if (!R.Ok)
      fatal(std::string("pocl ") + Name + ": " + R.Error);
    if (!CacheDir.empty() && std::filesystem::is_empty(CacheDir))
      reportFailure(std::string("pocl ") + Name + ": the first build left " +
                    CacheDir + " empty; no kernel cache to hit.");
  }
  for (auto _ : S) {
    ChildResult R = runChild("build", {Source}, Env);
    if (!R.Ok)
      fatal(std::string("pocl ") + Name + ": " + R.Error);
    S.SetIterationTime(R.Seconds);
  }
}

/// A directory for PoCL's cache; made once.
const std::string &cacheDir(const char *Tag) {
  static std::vector<std::unique_ptr<TempDir>> Dirs;
  Dirs.push_back(std::make_unique<TempDir>(Tag));
  if (Dirs.back()->path().empty())
    fatal("Could not create a temporary kernel-cache directory.");
  return Dirs.back()->path();
}

} // namespace

void registerModuleLoadBenchmarks(const Options &O) {
  auto *Cold =
      benchmark::RegisterBenchmark("module_load.cold", [](benchmark::State &S) {
        // PoCL writes its temporary files under POCL_CACHE_DIR even with
        // the cache off: keep them out of $HOME.
        static const std::string Dir = cacheDir("pocl-cold");
        timeChildren(S, "module_load.cold",
                     {{"POCL_KERNEL_CACHE", "0"}, {"POCL_CACHE_DIR", Dir}}, "");
      });
  auto *Warm =
      benchmark::RegisterBenchmark("module_load.warm", [](benchmark::State &S) {
        static const std::string Dir = cacheDir("pocl-cache");
        timeChildren(S, "module_load.warm",
                     {{"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", Dir}},
                     Dir);
      });
  for (auto *B : {Cold, Warm})
    timed(B, O, Clock::Manual, 1);
}

int runBuildChild(const Options &O) {
  if (O.ChildArgs.size() != 1)
    fatal("--child=build takes the OpenCL source's path.");
  std::string Source = readFile(O.ChildArgs[0]);
  const char *Text = Source.c_str();
  cl_int Err;
  cl_program P =
      clCreateProgramWithSource(device().Context, 1, &Text, nullptr, &Err);
  CL_CHECK(Err);
  auto T0 = std::chrono::steady_clock::now();
  build(P, O.ChildArgs[0]);
  std::chrono::duration<double> T = std::chrono::steady_clock::now() - T0;
  bool Ok = matrixMulWorks(P);
  CL_CHECK(clReleaseProgram(P));
  if (!Ok)
    return 1;
  std::printf("%.9f\n", T.count());
  return 0;
}

} // namespace bench::pocl

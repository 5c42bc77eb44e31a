//===- ModuleLoadBenchmarks.cpp - clBuildProgram in a fresh process -------===//
//
// The OpenCL form of the matrixMul sample's kernel (kernels/matrixMul.cl),
// built by the first clBuildProgram of a new process, which is timed there
// (common/ModuleLoadBenchmarks.h):
//   module_load.cold  POCL_KERNEL_CACHE=0: clang compiles the source.
//   module_load.warm  POCL_KERNEL_CACHE=1 with a POCL_CACHE_DIR that a first
//                     child populated: a kernel-cache hit.
// PoCL compiles a kernel's work-group function at its first enqueue, not in
// clBuildProgram; that part is not timed here.
//
//===----------------------------------------------------------------------===//
#include "../common/MatrixMulCheck.h"
#include "../common/Stopwatch.h"
#include "PoclHarness.h"

#include <vector>

namespace bench::pocl {
namespace {

/// Runs matrixMul(C, A, B, WA, WB) of \p P on the MatrixMulCheck and
/// compares with the host's product.
bool matrixMulWorks(cl_program P) {
  using M = MatrixMulCheck;
  M Check;
  Device &D = device();
  cl_int Err;
  cl_kernel K = clCreateKernel(P, "matrixMul", &Err);
  CL_CHECK(Err);
  std::vector<float> C(M::HA * M::WB);
  auto Make = [&](std::vector<float> &V, cl_mem_flags Flags) {
    cl_mem Mem = clCreateBuffer(D.Context, Flags, V.size() * 4, V.data(), &Err);
    CL_CHECK(Err);
    return Mem;
  };
  cl_mem DA = Make(Check.A, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem DB = Make(Check.B, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_mem DC = Make(C, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR);
  cl_int Wa = M::WA, Wb = M::WB;
  CL_CHECK(clSetKernelArg(K, 0, sizeof(cl_mem), &DC));
  CL_CHECK(clSetKernelArg(K, 1, sizeof(cl_mem), &DA));
  CL_CHECK(clSetKernelArg(K, 2, sizeof(cl_mem), &DB));
  CL_CHECK(clSetKernelArg(K, 3, sizeof(cl_int), &Wa));
  CL_CHECK(clSetKernelArg(K, 4, sizeof(cl_int), &Wb));
  size_t Global[2] = {M::WB, M::HA}, Local[2] = {16, 16};
  CL_CHECK(clEnqueueNDRangeKernel(D.Queue, K, 2, nullptr, Global, Local, 0,
                                  nullptr, nullptr));
  CL_CHECK(clEnqueueReadBuffer(D.Queue, DC, CL_TRUE, 0, C.size() * 4, C.data(),
                               0, nullptr, nullptr));
  for (cl_mem Mem : {DA, DB, DC})
    CL_CHECK(clReleaseMemObject(Mem));
  CL_CHECK(clReleaseKernel(K));
  return Check.matches(C);
}

bool buildAndCheck(const std::string &Path, double &Seconds) {
  std::string Source = readFile(Path);
  const char *Text = Source.c_str();
  cl_int Err;
  cl_program P =
      clCreateProgramWithSource(device().Context, 1, &Text, nullptr, &Err);
  CL_CHECK(Err);
  Seconds = secondsOf([&] { build(P, Path); });
  bool Ok = matrixMulWorks(P);
  CL_CHECK(clReleaseProgram(P));
  return Ok;
}

// There is no PTX variant (takesPtx), so \p FromPtx is always false.
ChildEnv childEnv(bool Warm, bool /*FromPtx*/) {
  if (Warm) {
    static const std::string Dir = cacheDir("pocl-cache", "kernel-cache");
    return {{{"POCL_KERNEL_CACHE", "1"}, {"POCL_CACHE_DIR", Dir}}, Dir};
  }
  // PoCL writes its temporary files under POCL_CACHE_DIR even with the
  // cache off: keep them out of $HOME.
  static const std::string Dir = cacheDir("pocl-cold", "kernel-cache");
  return {{{"POCL_KERNEL_CACHE", "0"}, {"POCL_CACHE_DIR", Dir}}, ""};
}

} // namespace
} // namespace bench::pocl

const bench::ModuleLoads *bench::form::moduleLoads() {
  static const ModuleLoads L = {.Job = "build",
                                .Takes = "the OpenCL source's path",
                                .Cache = "kernel cache",
                                .File = pocl::sourcePath("matrixMul"),
                                .PtxFile = "", // no PTX: takesPtx()
                                .Env = pocl::childEnv,
                                .LoadAndCheck = pocl::buildAndCheck};
  return &L;
}

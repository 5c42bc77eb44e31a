//===- CucpuHarness.cpp - Driver-API helpers of bench-cucpu ---------------===//
#include "CucpuHarness.h"

#include "../common/Run.h"

#include <map>

namespace bench::cucpu {

void check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return;
  const char *Name = nullptr, *Text = nullptr;
  cuGetErrorName(R, &Name);
  cuGetErrorString(R, &Text);
  fatal(std::string(What) + " returned " + (Name ? Name : "?") + " (" +
        std::to_string(int(R)) + "): " + (Text ? Text : "no description"));
}

CUcontext context() {
  static CUcontext Ctx = [] {
    CUdevice Dev;
    CUcontext C;
    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&Dev, 0));
    CU_CHECK(cuCtxCreate(&C, 0, Dev));
    return C;
  }();
  // Google Benchmark runs everything on the main thread, but be explicit.
  CU_CHECK(cuCtxSetCurrent(Ctx));
  return Ctx;
}

std::string cubinPath(const std::string &Name) {
  return std::string(CUCPU_BENCH_CUBIN_DIR) + "/" + Name + ".cubin";
}

std::string ptxPath(const std::string &Name) {
  return std::string(CUCPU_BENCH_PTX_DIR) + "/" + Name + ".ptx";
}

CUfunction function(const std::string &File, const std::string &Kernel,
                    bool FromPtx) {
  static std::map<std::string, CUmodule> Modules;
  context();
  std::string Path = FromPtx ? ptxPath(File) : cubinPath(File);
  CUmodule &M = Modules[Path];
  if (!M)
    CU_CHECK(cuModuleLoad(&M, Path.c_str()));
  CUfunction F;
  CU_CHECK(cuModuleGetFunction(&F, M, Kernel.c_str()));
  return F;
}

} // namespace bench::cucpu

const char *bench::form::name() { return "cucpu"; }

bool bench::form::takesPtx() { return true; }

// The device's worker count (its multiprocessor count).
int bench::form::threads() {
  cucpu::context();
  CUdevice Dev;
  int N = 0;
  CU_CHECK(cuCtxGetDevice(&Dev));
  CU_CHECK(
      cuDeviceGetAttribute(&N, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev));
  return N;
}

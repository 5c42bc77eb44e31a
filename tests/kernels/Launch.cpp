//===- Launch.cpp - The driver-API side of a kernel test ------------------===//
//
// cuFuncGetParamInfo lets the runner check the ARGs against the kernel before
// launching it, so that a wrong registration line fails with a message
// rather than with whatever the kernel makes of bad parameters.
//
//===----------------------------------------------------------------------===//

#include "Launch.h"

#include "Report.h"

#include <string>

namespace kernelrunner {

int loadKernel(const char *Cubin, const char *Name, Kernel &K) {
  CUdevice Dev;
  if (CUresult R = cuInit(0))
    return fail("cuInit: %s", resultName(R));
  if (cuDeviceGet(&Dev, 0) || cuCtxCreate(&K.Ctx, nullptr, 0, Dev))
    return fail("no context");
  if (CUresult R = cuModuleLoad(&K.Mod, Cubin))
    return fail("cuModuleLoad(%s): %s", Cubin, resultName(R));
  if (CUresult R = cuModuleGetFunction(&K.Fn, K.Mod, Name))
    return fail("cuModuleGetFunction(%s): %s", Name, resultName(R));
  return 0;
}

int kernelParams(CUfunction Fn, std::vector<Arg> &Args,
                 std::vector<void *> &Params) {
  // The arguments must match the kernel's parameters one for one.
  for (size_t K = 0; K < Args.size(); ++K) {
    if (!Args[K].Param)
      continue;
    size_t Offset = 0, Size = 0, Index = Params.size();
    if (CUresult R = cuFuncGetParamInfo(Fn, Index, &Offset, &Size))
      return fail("argument %s: the kernel has no such parameter (%s)",
                  std::to_string(K), resultName(R));
    if (Size != Args[K].Bytes)
      return fail("argument %s does not have the parameter's size (%s bytes)",
                  std::to_string(K), std::to_string(Size));
    Params.push_back(Args[K].data());
  }
  size_t Offset = 0, Size = 0;
  if (cuFuncGetParamInfo(Fn, Params.size(), &Offset, &Size) == CUDA_SUCCESS)
    return fail("the kernel takes more than %s parameters",
                std::to_string(Params.size()));
  return 0;
}

CUresult launch(const Kernel &K, const unsigned Grid[3],
                const unsigned Block[3], unsigned Shared,
                std::vector<void *> &Params) {
  CUresult R = cuLaunchKernel(
      K.Fn, Grid[0], Grid[1], Grid[2], Block[0], Block[1], Block[2], Shared,
      nullptr, Params.empty() ? nullptr : Params.data(), nullptr);
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  return R;
}

void release(Kernel &K, std::vector<Arg> &Args) {
  // Module variables (global:) belong to the module.
  for (Arg &A : Args)
    if (A.Dev && A.Param)
      cuMemFree(A.Dev);
  cuModuleUnload(K.Mod);
  cuCtxDestroy(K.Ctx);
}

} // namespace kernelrunner

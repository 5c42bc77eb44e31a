//===- ThirdParty.cpp - A library that borrows the application's context --===//
#include "ThirdParty.h"

#define TRY(Call)                                                              \
  do {                                                                         \
    CUresult R_ = (Call);                                                      \
    if (R_ != CUDA_SUCCESS)                                                    \
      return R_;                                                               \
  } while (0)

namespace {
CUresult scaleIn(CUdeviceptr Data, int N, float Factor) {
  CUmodule Module = nullptr;
  TRY(cuModuleLoad(&Module, THIRDPARTY_CUBIN));
  CUfunction Scale = nullptr;
  CUresult R = cuModuleGetFunction(&Scale, Module, "scale");
  if (R == CUDA_SUCCESS) {
    void *Args[] = {&Data, &N, &Factor};
    R = cuLaunchKernel(Scale, (N + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr,
                       Args, nullptr);
  }
  if (R == CUDA_SUCCESS)
    R = cuCtxSynchronize();
  CUresult Unload = cuModuleUnload(Module);
  return R != CUDA_SUCCESS ? R : Unload;
}
} // namespace

CUresult thirdPartyScale(CUdeviceptr Data, int N, float Factor) {
  CUcontext Ctx = nullptr;
  TRY(cuCtxAttach(&Ctx, 0));
  CUresult R = scaleIn(Data, N, Factor);
  CUresult Detach = cuCtxDetach(Ctx);
  return R != CUDA_SUCCESS ? R : Detach;
}

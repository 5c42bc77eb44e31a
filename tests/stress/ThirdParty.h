//===- ThirdParty.h - A library that borrows the application's context ----===//
#ifndef CUCPU_TESTS_STRESS_THIRDPARTY_H
#define CUCPU_TESTS_STRESS_THIRDPARTY_H

#include <cuda.h>

extern "C" {
/// Multiplies the N floats at Data by Factor in the context current to the
/// calling thread, the way the seeds (§4.5.3.3) tell a library to: it
/// attaches to the context (cuCtxAttach), loads its own module, launches,
/// and detaches. Returns CUDA_SUCCESS or the first error.
__attribute__((visibility("default"))) CUresult
thirdPartyScale(CUdeviceptr Data, int N, float Factor);
}

#endif // CUCPU_TESTS_STRESS_THIRDPARTY_H

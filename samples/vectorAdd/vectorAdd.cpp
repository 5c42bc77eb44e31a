//===- vectorAdd.cpp - C = A + B with cuLaunchKernel ----------------------===//
//
// A driver-API program using nothing but <cuda.h>: loads vectorAdd.cubin
// (compiled by `cucc -cubin`, found next to the executable), launches it with
// cuLaunchKernel's kernelParams and checks every element. Prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
bool check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "%s failed: %s (%d)\n", What, Name ? Name : "?", R);
  return false;
}

/// The directory of this executable, where the build puts the .cubin.
std::string exeDir() {
  char Path[4096];
  ssize_t N = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return ".";
  std::string S(Path, static_cast<size_t>(N));
  return S.substr(0, S.rfind('/'));
}
} // namespace

#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)

int main() {
  const int N = 50000;
  const size_t Bytes = N * sizeof(float);
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Fn;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  std::string Cubin = exeDir() + "/vectorAdd_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Fn, Mod, "vectorAdd"));

  std::vector<float> A(N), B(N), C(N);
  for (int I = 0; I < N; ++I) {
    A[I] = static_cast<float>(std::rand()) / RAND_MAX;
    B[I] = static_cast<float>(std::rand()) / RAND_MAX;
  }
  CUdeviceptr DA, DB, DC;
  CHECK(cuMemAlloc(&DA, Bytes));
  CHECK(cuMemAlloc(&DB, Bytes));
  CHECK(cuMemAlloc(&DC, Bytes));
  CHECK(cuMemcpyHtoD(DA, A.data(), Bytes));
  CHECK(cuMemcpyHtoD(DB, B.data(), Bytes));

  int Count = N;
  void *Args[] = {&DA, &DB, &DC, &Count};
  unsigned Threads = 256, Blocks = (N + Threads - 1) / Threads;
  std::printf("CUDA kernel launch with %u blocks of %u threads\n", Blocks,
              Threads);
  CHECK(cuLaunchKernel(Fn, Blocks, 1, 1, Threads, 1, 1, 0, nullptr, Args,
                       nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(C.data(), DC, Bytes));
  for (int I = 0; I < N; ++I)
    if (std::fabs(A[I] + B[I] - C[I]) > 1e-5f) {
      std::fprintf(stderr, "Result verification failed at element %d\n", I);
      return 1;
    }
  CHECK(cuMemFree(DA));
  CHECK(cuMemFree(DB));
  CHECK(cuMemFree(DC));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  std::printf("PASSED\n");
  return 0;
}

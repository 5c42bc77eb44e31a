//===- threadMigration.cpp - One context handed between host threads -----===//
//
// The seeds' context stack (§4.5.3.3): the main thread creates a context,
// allocates the data and pops the context; then each of 8 host threads in
// turn pushes the floating context (cuCtxPushCurrent), launches a kernel on
// its slice of the data, synchronizes and pops the context again
// (cuCtxPopCurrent) to hand it to the next thread. Finally the main thread
// takes the context back and checks every element. Prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <string>
#include <thread>
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
  const int Threads = 8, Slice = 10000, N = Threads * Slice;
  CUdevice Dev;
  CUcontext Ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  CUmodule Mod;
  CUfunction Add;
  std::string Cubin = exeDir() + "/threadMigration_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Add, Mod, "addToSlice"));
  CUdeviceptr Data;
  CHECK(cuMemAlloc(&Data, N * sizeof(int)));
  CHECK(cuMemsetD32(Data, 1000, N));
  CUcontext Floating;
  CHECK(cuCtxPopCurrent(&Floating)); // No thread holds the context now.

  bool Ok = true;
  for (int T = 0; T < Threads && Ok; ++T) {
    std::thread([&, T] {
      Ok = check(cuCtxPushCurrent(Floating), "cuCtxPushCurrent");
      if (!Ok)
        return;
      int Offset = T * Slice, Count = Slice, Value = T + 1;
      void *Args[] = {&Data, &Offset, &Count, &Value};
      Ok = check(cuLaunchKernel(Add, (Slice + 255) / 256, 1, 1, 256, 1, 1, 0,
                                nullptr, Args, nullptr),
                 "cuLaunchKernel") &&
           check(cuCtxSynchronize(), "cuCtxSynchronize");
      CUcontext Popped = nullptr;
      Ok = check(cuCtxPopCurrent(&Popped), "cuCtxPopCurrent") && Ok &&
           Popped == Floating;
      std::printf("thread %d used the context and handed it on\n", T);
    }).join();
  }
  if (!Ok)
    return 1;

  CHECK(cuCtxPushCurrent(Floating));
  std::vector<int> Result(N);
  CHECK(cuMemcpyDtoH(Result.data(), Data, N * sizeof(int)));
  int Wrong = 0;
  for (int I = 0; I < N; ++I)
    Wrong += Result[I] != 1000 + I / Slice + 1;
  CHECK(cuMemFree(Data));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  std::printf("%d threads shared one context; %d of %d elements wrong\n",
              Threads, Wrong, N);
  std::printf("%s\n", Wrong == 0 ? "PASSED" : "FAILED");
  return Wrong == 0 ? 0 : 1;
}

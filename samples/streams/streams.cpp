//===- streams.cpp - The seeds' streams and event-timing example ----------===//
//
// Programming Guide 1.1 §4.5.3.7-4.5.3.8 made runnable: two streams each copy
// their half of a page-locked buffer to the device (cuMemcpyHtoDAsync),
// process it with a legacy launch (cuParamSet* + cuLaunchGridAsync on a
// 100-block grid of 512 threads) and copy the result back
// (cuMemcpyDtoHAsync), all timed with two events recorded in stream 0.
// Every call returns before its work is done; cuEventSynchronize waits.
// Checks every element and prints the elapsed time and PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

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

float expected(float X) { return ((0.5f * X + 2.0f) * X - 1.0f) * X + 3.0f; }
} // namespace

#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)

int main() {
  const int Streams = 2;
  const int Count = 4 << 20;                 // floats per stream
  const size_t Size = Count * sizeof(float); // bytes per stream
  CUdevice Dev;
  CUcontext Ctx;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  CUmodule Mod;
  CUfunction Process;
  std::string Cubin = exeDir() + "/streams_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Process, Mod, "process"));

  CUstream Stream[Streams];
  for (int I = 0; I < Streams; ++I)
    CHECK(cuStreamCreate(&Stream[I], 0));
  // "hostPtr must point to page-locked host memory for any overlap to occur."
  float *HostPtr = nullptr;
  CHECK(cuMemAllocHost(reinterpret_cast<void **>(&HostPtr), Streams * Size));
  for (int I = 0; I < Streams * Count; ++I)
    HostPtr[I] = static_cast<float>(I % 1000) / 250.0f - 2.0f;
  CUdeviceptr InputDevPtr, OutputDevPtr;
  CHECK(cuMemAlloc(&InputDevPtr, Streams * Size));
  CHECK(cuMemAlloc(&OutputDevPtr, Streams * Size));

  CUevent Start, Stop;
  CHECK(cuEventCreate(&Start, 0));
  CHECK(cuEventCreate(&Stop, 0));
  CHECK(cuEventRecord(Start, 0));
  for (int I = 0; I < Streams; ++I)
    CHECK(cuMemcpyHtoDAsync(InputDevPtr + I * Size, HostPtr + I * Count, Size,
                            Stream[I]));
  for (int I = 0; I < Streams; ++I) {
    CHECK(cuFuncSetBlockShape(Process, 512, 1, 1));
    // Parameters at their natural alignment: two pointers, then the count.
    CUdeviceptr Out = OutputDevPtr + I * Size, In = InputDevPtr + I * Size;
    int Offset = 0;
    CHECK(cuParamSetv(Process, Offset, &Out, sizeof(Out)));
    Offset += sizeof(Out);
    CHECK(cuParamSetv(Process, Offset, &In, sizeof(In)));
    Offset += sizeof(In);
    CHECK(cuParamSeti(Process, Offset, Count));
    Offset += sizeof(int);
    CHECK(cuParamSetSize(Process, Offset));
    CHECK(cuLaunchGridAsync(Process, 100, 1, Stream[I]));
  }
  for (int I = 0; I < Streams; ++I)
    CHECK(cuMemcpyDtoHAsync(HostPtr + I * Count, OutputDevPtr + I * Size, Size,
                            Stream[I]));
  CHECK(cuEventRecord(Stop, 0));
  CUresult Pending = cuEventQuery(Stop);
  CHECK(cuEventSynchronize(Stop));
  float ElapsedMs = 0;
  CHECK(cuEventElapsedTime(&ElapsedMs, Start, Stop));

  int Wrong = 0;
  for (int I = 0; I < Streams * Count; ++I) {
    float X = static_cast<float>(I % 1000) / 250.0f - 2.0f;
    if (std::fabs(HostPtr[I] - expected(X)) >
        1e-4f * (1.0f + std::fabs(expected(X))))
      ++Wrong;
  }
  std::printf("%d streams x %d floats: copy in, process, copy out in %.3f ms "
              "(the stop event was %s when first queried)\n",
              Streams, Count, ElapsedMs,
              Pending == CUDA_ERROR_NOT_READY ? "still pending" : "complete");
  for (int I = 0; I < Streams; ++I)
    CHECK(cuStreamDestroy(Stream[I]));
  CHECK(cuEventDestroy(Start));
  CHECK(cuEventDestroy(Stop));
  CHECK(cuMemFree(InputDevPtr));
  CHECK(cuMemFree(OutputDevPtr));
  CHECK(cuMemFreeHost(HostPtr));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  if (Wrong) {
    std::printf("%d wrong elements\nFAILED\n", Wrong);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

//===- matrixMul.cpp - Tiled matrix product through the legacy launch API -===//
//
// The seeds' launch path: cuFuncSetBlockShape, cuParamSetv/cuParamSeti at
// the kernel's real parameter offsets (8-byte pointers, natural alignment),
// cuParamSetSize, cuFuncSetSharedSize and cuLaunchGrid. Checks C = A * B
// against the host's product and prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cmath>
#include <cstdio>
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
  const int Tile = 16;
  const int HA = 8 * Tile, WA = 6 * Tile, WB = 10 * Tile;
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Fn;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  std::string Cubin = exeDir() + "/matrixMul_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Fn, Mod, "matrixMul"));

  std::vector<float> A(HA * WA), B(WA * WB), C(HA * WB);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>(I % 7) * 0.5f;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = static_cast<float>(I % 5) - 1.0f;
  CUdeviceptr DA, DB, DC;
  CHECK(cuMemAlloc(&DA, A.size() * sizeof(float)));
  CHECK(cuMemAlloc(&DB, B.size() * sizeof(float)));
  CHECK(cuMemAlloc(&DC, C.size() * sizeof(float)));
  CHECK(cuMemcpyHtoD(DA, A.data(), A.size() * sizeof(float)));
  CHECK(cuMemcpyHtoD(DB, B.data(), B.size() * sizeof(float)));

  // matrixMul(float *C, const float *A, const float *B, int WA, int WB):
  // three 8-byte pointers, then two ints.
  CHECK(cuFuncSetBlockShape(Fn, Tile, Tile, 1));
  int Offset = 0;
  CHECK(cuParamSetv(Fn, Offset, &DC, sizeof(DC)));
  Offset += sizeof(DC);
  CHECK(cuParamSetv(Fn, Offset, &DA, sizeof(DA)));
  Offset += sizeof(DA);
  CHECK(cuParamSetv(Fn, Offset, &DB, sizeof(DB)));
  Offset += sizeof(DB);
  CHECK(cuParamSeti(Fn, Offset, WA));
  Offset += sizeof(int);
  CHECK(cuParamSeti(Fn, Offset, WB));
  Offset += sizeof(int);
  CHECK(cuParamSetSize(Fn, Offset));
  CHECK(cuFuncSetSharedSize(Fn, 0)); // The tiles are static shared memory.
  CHECK(cuLaunchGrid(Fn, WB / Tile, HA / Tile));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(C.data(), DC, C.size() * sizeof(float)));

  for (int R = 0; R < HA; ++R)
    for (int Col = 0; Col < WB; ++Col) {
      double Want = 0;
      for (int K = 0; K < WA; ++K)
        Want += double(A[R * WA + K]) * B[K * WB + Col];
      if (std::fabs(Want - C[R * WB + Col]) > 1e-3 * (1 + std::fabs(Want))) {
        std::fprintf(stderr, "C[%d][%d] = %f, expected %f\n", R, Col,
                     C[R * WB + Col], Want);
        return 1;
      }
    }
  CHECK(cuMemFree(DA));
  CHECK(cuMemFree(DB));
  CHECK(cuMemFree(DC));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  std::printf("PASSED\n");
  return 0;
}

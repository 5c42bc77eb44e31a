//===- legacyDriver.cpp - The seeds' §4.5.3 examples made runnable --------===//
//
// Block shape, parameters at explicit byte offsets, dynamic shared memory and
// cuLaunchGrid (§4.5.3.5), a kernel walking pitched memory (§4.5.3.6), and
// the parameter layout NVIDIA's driver uses today (8-byte pointers, natural
// alignment). Uses nothing but <cuda.h>; prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <cstring>
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

bool expect(bool Ok, const char *What) {
  if (!Ok)
    std::fprintf(stderr, "check failed: %s\n", What);
  return Ok;
}
} // namespace

#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)
#define EXPECT(Cond)                                                           \
  do {                                                                         \
    if (!expect((Cond), #Cond))                                                \
      return 1;                                                                \
  } while (0)

int main() {
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  std::string Cubin = exeDir() + "/legacyDriver_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));

  // §4.5.3.5: block shape, an int, a float, 32 bytes, dynamic shared memory.
  {
    CUfunction Fn;
    CHECK(cuModuleGetFunction(&Fn, Mod, "myKernel"));
    const int BlockWidth = 8, BlockHeight = 4;
    CHECK(cuFuncSetBlockShape(Fn, BlockWidth, BlockHeight, 1));
    int Offset = 0;
    int I = 1234;
    CHECK(cuParamSeti(Fn, Offset, I));
    Offset += sizeof(I);
    float F = 0.5f;
    CHECK(cuParamSetf(Fn, Offset, F));
    Offset += sizeof(F);
    char Data[32];
    for (int K = 0; K < 32; ++K)
      Data[K] = static_cast<char>('A' + K % 26);
    CHECK(cuParamSetv(Fn, Offset, Data, sizeof(Data)));
    Offset += sizeof(Data);
    CHECK(cuParamSetSize(Fn, Offset)); // 4 + 4 + 32 = 40 bytes.
    const int NumElements = BlockWidth * BlockHeight;
    CHECK(cuFuncSetSharedSize(Fn, NumElements * sizeof(float)));
    CHECK(cuLaunchGrid(Fn, 3, 2));
    CHECK(cuCtxSynchronize());

    CUdeviceptr P;
    size_t Bytes;
    int GotI = 0;
    float GotF = 0, GotShared = 0;
    char GotData[32] = {};
    CHECK(cuModuleGetGlobal(&P, &Bytes, Mod, "ResultInt"));
    EXPECT(Bytes == sizeof(int));
    CHECK(cuMemcpyDtoH(&GotI, P, sizeof(GotI)));
    CHECK(cuModuleGetGlobal(&P, &Bytes, Mod, "ResultFloat"));
    CHECK(cuMemcpyDtoH(&GotF, P, sizeof(GotF)));
    CHECK(cuModuleGetGlobal(&P, &Bytes, Mod, "ResultData"));
    EXPECT(Bytes == 32);
    CHECK(cuMemcpyDtoH(GotData, P, sizeof(GotData)));
    CHECK(cuModuleGetGlobal(&P, &Bytes, Mod, "ResultShared"));
    CHECK(cuMemcpyDtoH(&GotShared, P, sizeof(GotShared)));
    EXPECT(GotI == I);
    EXPECT(GotF == F);
    EXPECT(std::memcmp(GotData, Data, 32) == 0);
    // Sum of F * T for T in [0, 32): 0.5 * 496.
    EXPECT(GotShared == 248.0f);
  }

  // §4.5.3.6: pitched memory and a kernel walking it row by row.
  {
    const int Width = 1000, Height = 7;
    CUdeviceptr DevPtr;
    size_t Pitch;
    CHECK(cuMemAllocPitch(&DevPtr, &Pitch, Width * sizeof(float), Height, 4));
    CUfunction Fn;
    CHECK(cuModuleGetFunction(&Fn, Mod, "myKernel2"));
    CHECK(cuFuncSetBlockShape(Fn, 512, 1, 1));
    // myKernel2(float *DevPtr, unsigned Pitch, int Width, int Height).
    int Offset = 0;
    CHECK(cuParamSetv(Fn, Offset, &DevPtr, sizeof(DevPtr)));
    Offset += sizeof(DevPtr);
    CHECK(cuParamSeti(Fn, Offset, static_cast<unsigned>(Pitch)));
    Offset += sizeof(unsigned);
    CHECK(cuParamSeti(Fn, Offset, Width));
    Offset += sizeof(int);
    CHECK(cuParamSeti(Fn, Offset, Height));
    Offset += sizeof(int);
    CHECK(cuParamSetSize(Fn, Offset));
    CHECK(cuLaunchGrid(Fn, (Width + 511) / 512, 1));
    CHECK(cuCtxSynchronize());
    std::vector<float> Host(Width * Height);
    CUDA_MEMCPY2D Copy;
    std::memset(&Copy, 0, sizeof(Copy));
    Copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    Copy.srcDevice = DevPtr;
    Copy.srcPitch = Pitch;
    Copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    Copy.dstHost = Host.data();
    Copy.dstPitch = Width * sizeof(float);
    Copy.WidthInBytes = Width * sizeof(float);
    Copy.Height = Height;
    CHECK(cuMemcpy2D(&Copy));
    for (int R = 0; R < Height; ++R)
      for (int C = 0; C < Width; ++C)
        EXPECT(Host[R * Width + C] == R * 1000.0f + C);
    CHECK(cuMemFree(DevPtr));
  }

  // The layout NVIDIA uses today: k(int *out, int a, float f, char c) has
  // its parameters at 0, 8, 12 and 16 (17 bytes).
  {
    CUfunction Fn;
    CHECK(cuModuleGetFunction(&Fn, Mod, "probe"));
    CUdeviceptr Out;
    CHECK(cuMemAlloc(&Out, 9 * sizeof(int)));
    CHECK(cuParamSetv(Fn, 0, &Out, 8));
    CHECK(cuParamSeti(Fn, 8, 42));
    CHECK(cuParamSetf(Fn, 12, 1.5f));
    char C = 'x';
    CHECK(cuParamSetv(Fn, 16, &C, 1));
    CHECK(cuParamSetSize(Fn, 17));
    CHECK(cuFuncSetBlockShape(Fn, 2, 3, 4));
    CHECK(cuLaunchGrid(Fn, 5, 6));
    CHECK(cuCtxSynchronize());
    int Got[9];
    CHECK(cuMemcpyDtoH(Got, Out, sizeof(Got)));
    const int Want[9] = {42, 1500, 'x', 2, 3, 4, 5, 6, 1};
    EXPECT(std::memcmp(Got, Want, sizeof(Want)) == 0);
    CHECK(cuLaunch(Fn)); // A 1x1 grid.
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(Got, Out, sizeof(Got)));
    EXPECT(Got[6] == 1 && Got[7] == 1 && Got[8] == 1);
    CHECK(cuMemFree(Out));
  }

  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  std::printf("PASSED\n");
  return 0;
}

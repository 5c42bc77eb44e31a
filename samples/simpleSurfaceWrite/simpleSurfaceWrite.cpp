//===- simpleSurfaceWrite.cpp - Copy an array through surfaces ------------===//
//
// The surface example of the CUDA 4 guide (3.2.10.2.1) in the driver API:
// two CUDA arrays of uchar4 created with CUDA_ARRAY3D_SURFACE_LDST, bound to
// the module's surface references inputSurfRef and outputSurfRef
// (cuModuleGetSurfRef, cuSurfRefSetArray); copyKernel copies the input to
// the output element by element with surf2Dread and surf2Dwrite. Then the
// same arrays through surface objects (cuSurfObjectCreate): copyObjectKernel
// writes every channel + 1 back into the input. Both results are checked on
// the host. Prints PASSED.
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

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
#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)

/// The directory of this executable, where the build puts the .cubin.
std::string exeDir() {
  char Path[4096];
  ssize_t N = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return ".";
  std::string S(Path, static_cast<size_t>(N));
  return S.substr(0, S.rfind('/'));
}

/// Copies \p Height rows of \p Width uchar4 between host memory and \p A.
CUresult copy(CUarray A, std::vector<unsigned char> &Host, size_t Width,
              size_t Height, bool ToArray) {
  CUDA_MEMCPY2D C{};
  if (ToArray) {
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Host.data();
    C.srcPitch = Width * 4;
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = A;
  } else {
    C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    C.srcArray = A;
    C.dstMemoryType = CU_MEMORYTYPE_HOST;
    C.dstHost = Host.data();
    C.dstPitch = Width * 4;
  }
  C.WidthInBytes = Width * 4;
  C.Height = Height;
  return cuMemcpy2D(&C);
}
} // namespace

int main() {
  const int Width = 256, Height = 192;
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, nullptr, 0, Dev));
  std::string Path = exeDir() + "/simpleSurfaceWrite_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Path.c_str()));

  // Allocate CUDA arrays in device memory: 8-bit unsigned, 4 channels,
  // with surface load/store.
  CUDA_ARRAY3D_DESCRIPTOR Desc{};
  Desc.Width = Width;
  Desc.Height = Height;
  Desc.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  Desc.NumChannels = 4;
  Desc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUarray Input, Output;
  CHECK(cuArray3DCreate(&Input, &Desc));
  CHECK(cuArray3DCreate(&Output, &Desc));
  std::vector<unsigned char> Host(size_t(Width) * Height * 4);
  for (size_t I = 0; I < Host.size(); ++I)
    Host[I] = static_cast<unsigned char>((I * 37 + I / 1024) & 0xff);
  CHECK(copy(Input, Host, Width, Height, /*ToArray=*/true));

  // Bind the arrays to the surface references and copy.
  CUsurfref InputRef, OutputRef;
  CHECK(cuModuleGetSurfRef(&InputRef, Mod, "inputSurfRef"));
  CHECK(cuModuleGetSurfRef(&OutputRef, Mod, "outputSurfRef"));
  CHECK(cuSurfRefSetArray(InputRef, Input, 0));
  CHECK(cuSurfRefSetArray(OutputRef, Output, 0));
  CUfunction Copy, CopyObjects;
  CHECK(cuModuleGetFunction(&Copy, Mod, "copyKernel"));
  CHECK(cuModuleGetFunction(&CopyObjects, Mod, "copyObjectKernel"));
  int W = Width, H = Height;
  void *Args[] = {&W, &H};
  const unsigned Block = 16;
  CHECK(cuLaunchKernel(Copy, (Width + Block - 1) / Block,
                       (Height + Block - 1) / Block, 1, Block, Block, 1, 0,
                       nullptr, Args, nullptr));
  CHECK(cuCtxSynchronize());
  std::vector<unsigned char> Result(Host.size());
  CHECK(copy(Output, Result, Width, Height, /*ToArray=*/false));
  size_t Wrong = 0;
  for (size_t I = 0; I < Host.size(); ++I)
    Wrong += Result[I] != Host[I];
  std::printf("copy through surface references: %zu of %zu bytes differ\n",
              Wrong, Host.size());

  // The output, + 1 per channel, back into the input through objects.
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  CUsurfObject InputObject, OutputObject;
  Res.res.array.hArray = Output;
  CHECK(cuSurfObjectCreate(&InputObject, &Res));
  Res.res.array.hArray = Input;
  CHECK(cuSurfObjectCreate(&OutputObject, &Res));
  void *ObjectArgs[] = {&InputObject, &OutputObject, &W, &H};
  CHECK(cuLaunchKernel(CopyObjects, (Width + Block - 1) / Block,
                       (Height + Block - 1) / Block, 1, Block, Block, 1, 0,
                       nullptr, ObjectArgs, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(copy(Input, Result, Width, Height, /*ToArray=*/false));
  size_t WrongObjects = 0;
  for (size_t I = 0; I < Host.size(); ++I)
    WrongObjects += Result[I] != static_cast<unsigned char>(Host[I] + 1);
  std::printf("copy + 1 through surface objects: %zu of %zu bytes differ\n",
              WrongObjects, Host.size());

  CHECK(cuSurfObjectDestroy(InputObject));
  CHECK(cuSurfObjectDestroy(OutputObject));
  CHECK(cuArrayDestroy(Input));
  CHECK(cuArrayDestroy(Output));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  if (Wrong || WrongObjects) {
    std::printf("FAILED\n");
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

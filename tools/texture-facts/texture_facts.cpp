//===- texture_facts.cpp - Print how a driver treats arrays and textures --===//
//
// Prints, one fact per line, what the libcuda it is linked against answers
// for CUDA arrays, array copies, texture references and texture objects:
// validation results, defaults, offsets. Built against NVIDIA's driver and
// against cucpu's, the outputs diff line by line (docs/conformance.md).
// Texture references come from a hand-written PTX module on NVIDIA's driver
// (nvcc no longer compiles them) and from a cucc image on cucpu's: the file
// named by the first argument, which must declare `t1` (1D) and `t2` (2D).
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {
/// Prints "Name -> code" for the result of one call.
void say(const char *Name, CUresult R) {
  std::printf("%s -> %d\n", Name, static_cast<int>(R));
}
#define SAY(Call) say(#Call, (Call))

CUDA_ARRAY_DESCRIPTOR desc2D(size_t W, size_t H, CUarray_format F, unsigned C) {
  CUDA_ARRAY_DESCRIPTOR D{};
  D.Width = W;
  D.Height = H;
  D.Format = F;
  D.NumChannels = C;
  return D;
}

CUDA_ARRAY3D_DESCRIPTOR desc3D(size_t W, size_t H, size_t Dp, unsigned Flags) {
  CUDA_ARRAY3D_DESCRIPTOR D{};
  D.Width = W;
  D.Height = H;
  D.Depth = Dp;
  D.Format = CU_AD_FORMAT_FLOAT;
  D.NumChannels = 1;
  D.Flags = Flags;
  return D;
}

void arrayCreation() {
  const CUarray_format Formats[] = {
      CU_AD_FORMAT_UNSIGNED_INT8,  CU_AD_FORMAT_UNSIGNED_INT16,
      CU_AD_FORMAT_UNSIGNED_INT32, CU_AD_FORMAT_SIGNED_INT8,
      CU_AD_FORMAT_SIGNED_INT16,   CU_AD_FORMAT_SIGNED_INT32,
      CU_AD_FORMAT_HALF,           CU_AD_FORMAT_FLOAT};
  for (CUarray_format F : Formats)
    for (unsigned C : {0u, 1u, 2u, 3u, 4u, 5u}) {
      CUarray A = nullptr;
      CUDA_ARRAY_DESCRIPTOR D = desc2D(16, 4, F, C);
      CUresult R = cuArrayCreate(&A, &D);
      std::printf("array_create format=0x%x channels=%u -> %d\n", F, C, R);
      if (R == CUDA_SUCCESS)
        cuArrayDestroy(A);
    }
  for (int F : {0, 4, 7, 0x11, 0x30, 0x50}) {
    CUarray A = nullptr;
    CUDA_ARRAY_DESCRIPTOR D = desc2D(16, 4, CUarray_format(F), 1);
    CUresult R = cuArrayCreate(&A, &D);
    std::printf("array_create format=0x%x channels=1 -> %d\n", F, R);
    if (R == CUDA_SUCCESS)
      cuArrayDestroy(A);
  }
  struct Shape {
    size_t W, H;
  } Shapes[] = {{0, 0},      {0, 4},      {1, 0},          {131072, 0},
                {131073, 0}, {131072, 1}, {131072, 65536}, {131073, 2},
                {2, 65537},  {1, 1}};
  for (Shape S : Shapes) {
    CUarray A = nullptr;
    CUDA_ARRAY_DESCRIPTOR D = desc2D(S.W, S.H, CU_AD_FORMAT_UNSIGNED_INT8, 1);
    CUresult R = cuArrayCreate(&A, &D);
    std::printf("array_create %zux%zu -> %d\n", S.W, S.H, R);
    if (R == CUDA_SUCCESS)
      cuArrayDestroy(A);
  }
  CUDA_ARRAY_DESCRIPTOR D = desc2D(4, 4, CU_AD_FORMAT_FLOAT, 1);
  CUarray A = nullptr;
  SAY(cuArrayCreate(nullptr, &D));
  SAY(cuArrayCreate(&A, nullptr));

  struct Shape3 {
    size_t W, H, D;
    unsigned Flags;
  } Shapes3[] = {{8, 0, 0, 0},     {8, 4, 0, 0},      {8, 4, 2, 0},
                 {8, 0, 2, 0},     {0, 0, 0, 0},      {8, 0, 2, 1},
                 {8, 4, 2, 1},     {8, 4, 0, 1},      {8, 8, 6, 4},
                 {8, 4, 6, 4},     {8, 8, 12, 5},     {8, 8, 0, 2},
                 {8, 8, 0, 8},     {8, 8, 2, 8},      {8, 8, 0, 0x20},
                 {8, 8, 0, 0x40},  {8, 8, 0, 0x1000}, {16384, 16384, 1, 0},
                 {16385, 2, 2, 0}, {8, 8, 2049, 1}};
  for (Shape3 S : Shapes3) {
    CUDA_ARRAY3D_DESCRIPTOR D3 = desc3D(S.W, S.H, S.D, S.Flags);
    CUarray A3 = nullptr;
    CUresult R = cuArray3DCreate(&A3, &D3);
    std::printf("array3d_create %zux%zux%zu flags=0x%x -> %d\n", S.W, S.H, S.D,
                S.Flags, R);
    if (R != CUDA_SUCCESS)
      continue;
    CUDA_ARRAY_DESCRIPTOR Back{};
    CUresult R2 = cuArrayGetDescriptor(&Back, A3);
    std::printf("  get_descriptor -> %d %zux%zu fmt=0x%x ch=%u\n", R2,
                Back.Width, Back.Height, Back.Format, Back.NumChannels);
    CUDA_ARRAY3D_DESCRIPTOR Back3{};
    R2 = cuArray3DGetDescriptor(&Back3, A3);
    std::printf("  get_descriptor3d -> %d %zux%zux%zu flags=0x%x\n", R2,
                Back3.Width, Back3.Height, Back3.Depth, Back3.Flags);
    cuArrayDestroy(A3);
  }
  CUarray A2 = nullptr;
  CUDA_ARRAY_DESCRIPTOR D2 = desc2D(5, 3, CU_AD_FORMAT_SIGNED_INT16, 2);
  SAY(cuArrayCreate(&A2, &D2));
  CUDA_ARRAY3D_DESCRIPTOR Back3{};
  CUresult R = cuArray3DGetDescriptor(&Back3, A2);
  std::printf("2d array get_descriptor3d -> %d %zux%zux%zu fmt=0x%x ch=%u "
              "flags=0x%x\n",
              R, Back3.Width, Back3.Height, Back3.Depth, Back3.Format,
              Back3.NumChannels, Back3.Flags);
  SAY(cuArrayGetDescriptor(nullptr, A2));
  SAY(cuArray3DGetDescriptor(nullptr, A2));
  CUDA_ARRAY_DESCRIPTOR Back{};
  SAY(cuArrayGetDescriptor(&Back, nullptr));
  SAY(cuArrayDestroy(nullptr));
  SAY(cuArrayDestroy(A2));
  SAY(cuArrayGetDescriptor(&Back, A2));
  SAY(cuArrayDestroy(A2));
}

void arrayCopies() {
  // 1D float array of 16 elements, 2D float array of 4x4, 2D uchar4 4x4.
  CUarray A1 = nullptr, A2 = nullptr, B1 = nullptr, C1 = nullptr, D1 = nullptr;
  CUDA_ARRAY_DESCRIPTOR D = desc2D(16, 0, CU_AD_FORMAT_FLOAT, 1);
  cuArrayCreate(&A1, &D);
  D = desc2D(4, 4, CU_AD_FORMAT_FLOAT, 1);
  cuArrayCreate(&A2, &D);
  D = desc2D(16, 0, CU_AD_FORMAT_SIGNED_INT32, 1);
  cuArrayCreate(&B1, &D);
  D = desc2D(16, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4);
  cuArrayCreate(&C1, &D);
  D = desc2D(8, 0, CU_AD_FORMAT_FLOAT, 2);
  cuArrayCreate(&D1, &D);
  float Host[64];
  for (int I = 0; I < 64; ++I)
    Host[I] = float(I);
  for (size_t Off : {0, 1, 2, 4, 60, 64})
    for (size_t Count : {0, 1, 4, 8, 64}) {
      CUresult R = cuMemcpyHtoA(A1, Off, Host, Count);
      std::printf("htoa 1d offset=%zu count=%zu -> %d\n", Off, Count, R);
    }
  SAY(cuMemcpyHtoA(A1, 0, nullptr, 4));
  SAY(cuMemcpyHtoA(nullptr, 0, Host, 4));
  // A 2D array through the 1D copies.
  for (size_t Off : {0, 16, 20})
    for (size_t Count : {16, 32, 48, 64}) {
      CUresult R = cuMemcpyHtoA(A2, Off, Host, Count);
      std::printf("htoa 2d offset=%zu count=%zu -> %d\n", Off, Count, R);
    }
  float Out[64] = {};
  CUresult R = cuMemcpyHtoA(A2, 0, Host, 64);
  std::memset(Out, 0, sizeof(Out));
  R = cuMemcpyHtoA(A2, 20, Host + 40, 8);
  std::printf("htoa 2d offset=20 count=8 -> %d\n", R);
  R = cuMemcpyAtoH(Out, A2, 0, 64);
  std::printf("atoh 2d all -> %d:", R);
  for (int I = 0; I < 16; ++I)
    std::printf(" %g", Out[I]);
  std::printf("\n");
  for (size_t Off : {0, 2, 4, 60})
    for (size_t Count : {4, 6, 8}) {
      R = cuMemcpyAtoH(Out, A1, Off, Count);
      std::printf("atoh 1d offset=%zu count=%zu -> %d\n", Off, Count, R);
    }
  SAY(cuMemcpyAtoA(B1, 0, A1, 0, 64));
  SAY(cuMemcpyAtoA(C1, 0, A1, 0, 64));
  SAY(cuMemcpyAtoA(D1, 0, A1, 0, 64));
  SAY(cuMemcpyAtoA(B1, 4, A1, 8, 16));
  SAY(cuMemcpyAtoA(B1, 2, A1, 0, 16));
  SAY(cuMemcpyAtoA(B1, 0, A1, 0, 6));
  SAY(cuMemcpyAtoA(B1, 60, A1, 0, 8));
  SAY(cuMemcpyAtoA(A2, 0, A1, 0, 64));
  SAY(cuMemcpyAtoA(A1, 0, A2, 0, 64));
  CUdeviceptr Dev = 0;
  cuMemAlloc(&Dev, 256);
  SAY(cuMemcpyDtoA(A1, 0, Dev, 64));
  SAY(cuMemcpyDtoA(A1, 0, Dev + 1, 4));
  SAY(cuMemcpyDtoA(A1, 2, Dev, 4));
  SAY(cuMemcpyDtoA(A1, 0, Dev, 6));
  SAY(cuMemcpyDtoA(A1, 0, Dev + 200, 64));
  SAY(cuMemcpyAtoD(Dev, A1, 0, 64));
  SAY(cuMemcpyAtoD(Dev + 2, A1, 0, 4));
  SAY(cuMemcpyAtoD(Dev, A1, 6, 4));
  SAY(cuMemcpyAtoD(Dev, A1, 0, 65));
  SAY(cuMemcpyAtoD(Dev, A2, 0, 64));
  CUstream S = nullptr;
  cuStreamCreate(&S, 0);
  SAY(cuMemcpyHtoAAsync(A1, 0, Host, 64, S));
  SAY(cuMemcpyAtoHAsync(Out, A1, 0, 64, S));
  void *Pinned = nullptr;
  cuMemAllocHost(&Pinned, 256);
  SAY(cuMemcpyHtoAAsync(A1, 0, Pinned, 64, S));
  SAY(cuMemcpyAtoHAsync(Pinned, A1, 0, 64, S));
  SAY(cuMemcpyHtoAAsync(A1, 2, Pinned, 64, S));
  cuStreamSynchronize(S);

  // 2D copies with an array on one side.
  auto Copy2D = [&](const char *What, size_t DstX, size_t DstY, size_t Width,
                    size_t Height, size_t SrcPitch) {
    CUDA_MEMCPY2D C{};
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Host;
    C.srcPitch = SrcPitch;
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = A2;
    C.dstXInBytes = DstX;
    C.dstY = DstY;
    C.WidthInBytes = Width;
    C.Height = Height;
    std::printf("memcpy2d %s dstX=%zu dstY=%zu w=%zu h=%zu pitch=%zu -> %d "
                "unaligned -> %d\n",
                What, DstX, DstY, Width, Height, SrcPitch,
                static_cast<int>(cuMemcpy2D(&C)),
                static_cast<int>(cuMemcpy2DUnaligned(&C)));
  };
  Copy2D("htoa", 0, 0, 16, 4, 16);
  Copy2D("htoa", 4, 1, 8, 2, 16);
  Copy2D("htoa", 2, 0, 8, 1, 16);
  Copy2D("htoa", 0, 0, 6, 2, 16);
  Copy2D("htoa", 8, 0, 12, 1, 16);
  Copy2D("htoa", 0, 3, 16, 2, 16);
  Copy2D("htoa", 0, 0, 16, 4, 12);
  Copy2D("htoa", 0, 0, 16, 1, 0);
  Copy2D("htoa", 0, 0, 20, 1, 20);
  {
    CUDA_MEMCPY2D C{};
    C.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    C.srcArray = A2;
    C.srcXInBytes = 4;
    C.srcY = 1;
    C.srcPitch = 12345; // ignored for arrays?
    C.dstMemoryType = CU_MEMORYTYPE_HOST;
    C.dstHost = Out;
    C.dstPitch = 8;
    C.WidthInBytes = 8;
    C.Height = 3;
    std::memset(Out, 0, sizeof(Out));
    cuMemcpyHtoA(A2, 0, Host, 64);
    R = cuMemcpy2D(&C);
    std::printf("memcpy2d atoh sub-rect -> %d:", R);
    for (int I = 0; I < 6; ++I)
      std::printf(" %g", Out[I]);
    std::printf("\n");
  }
  // 3D copies.
  CUarray A3 = nullptr;
  CUDA_ARRAY3D_DESCRIPTOR D3 = desc3D(4, 3, 2, 0);
  cuArray3DCreate(&A3, &D3);
  {
    CUDA_MEMCPY3D C{};
    C.srcMemoryType = CU_MEMORYTYPE_HOST;
    C.srcHost = Host;
    C.srcPitch = 16;
    C.srcHeight = 3;
    C.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C.dstArray = A3;
    C.WidthInBytes = 16;
    C.Height = 3;
    C.Depth = 2;
    SAY(cuMemcpy3D(&C));
    C.dstZ = 1;
    SAY(cuMemcpy3D(&C));
    C.dstZ = 0;
    C.dstXInBytes = 2;
    C.WidthInBytes = 8;
    SAY(cuMemcpy3D(&C));
    CUDA_MEMCPY3D Back{};
    Back.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    Back.srcArray = A3;
    Back.srcXInBytes = 4;
    Back.srcY = 1;
    Back.srcZ = 1;
    Back.dstMemoryType = CU_MEMORYTYPE_HOST;
    Back.dstHost = Out;
    Back.dstPitch = 8;
    Back.dstHeight = 2;
    Back.WidthInBytes = 8;
    Back.Height = 2;
    Back.Depth = 1;
    std::memset(Out, 0, sizeof(Out));
    C.dstXInBytes = 0;
    C.WidthInBytes = 16;
    cuMemcpy3D(&C);
    R = cuMemcpy3D(&Back);
    std::printf("memcpy3d atoh sub-box -> %d:", R);
    for (int I = 0; I < 4; ++I)
      std::printf(" %g", Out[I]);
    std::printf("\n");
    // A 2D array through cuMemcpy3D, and a 3D array through cuMemcpy2D.
    C.dstArray = A2;
    C.Height = 4;
    C.srcHeight = 4;
    C.Depth = 1;
    SAY(cuMemcpy3D(&C));
    C.Depth = 2;
    SAY(cuMemcpy3D(&C));
    CUDA_MEMCPY2D C2{};
    C2.srcMemoryType = CU_MEMORYTYPE_HOST;
    C2.srcHost = Host;
    C2.srcPitch = 16;
    C2.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    C2.dstArray = A3;
    C2.WidthInBytes = 16;
    C2.Height = 3;
    SAY(cuMemcpy2D(&C2));
    C2.Height = 6;
    SAY(cuMemcpy2D(&C2));
  }
  cuArrayDestroy(A3);
  cuMemFreeHost(Pinned);
  cuStreamDestroy(S);
  cuMemFree(Dev);
  cuArrayDestroy(A1);
  cuArrayDestroy(A2);
  cuArrayDestroy(B1);
  cuArrayDestroy(C1);
  cuArrayDestroy(D1);
}

void printTexRef(const char *What, CUtexref T) {
  CUarray_format F = CUarray_format(-1);
  int Channels = -1;
  CUresult RF = cuTexRefGetFormat(&F, &Channels, T);
  CUaddress_mode M[3] = {CUaddress_mode(-1), CUaddress_mode(-1),
                         CUaddress_mode(-1)};
  CUresult RM[4];
  for (int I = 0; I < 3; ++I)
    RM[I] = cuTexRefGetAddressMode(&M[I], T, I);
  CUaddress_mode M3 = CUaddress_mode(-1);
  RM[3] = cuTexRefGetAddressMode(&M3, T, 3);
  CUfilter_mode Filter = CUfilter_mode(-1);
  CUresult RFi = cuTexRefGetFilterMode(&Filter, T);
  unsigned Flags = 0xdead;
  CUresult RFl = cuTexRefGetFlags(&Flags, T);
  float Border[4] = {-1, -1, -1, -1};
  CUresult RB = cuTexRefGetBorderColor(Border, T);
  CUdeviceptr Address = 0xdead;
  CUresult RA = cuTexRefGetAddress(&Address, T);
  CUarray Array = reinterpret_cast<CUarray>(0xdead);
  CUresult RAr = cuTexRefGetArray(&Array, T);
  int Aniso = -1;
  CUresult RAn = cuTexRefGetMaxAnisotropy(&Aniso, T);
  std::printf("texref %s: format -> %d 0x%x ch=%d; mode -> %d %d %d %d = %d %d "
              "%d; filter -> %d %d; flags -> %d 0x%x; border -> %d %g %g %g "
              "%g; address -> %d %s; array -> %d %s; aniso -> %d %d\n",
              What, RF, F, Channels, RM[0], RM[1], RM[2], RM[3], M[0], M[1],
              M[2], RFi, Filter, RFl, Flags, RB, Border[0], Border[1],
              Border[2], Border[3], RA,
              Address == 0xdead ? "untouched"
              : Address         ? "set"
                                : "0",
              RAr,
              Array == reinterpret_cast<CUarray>(0xdead) ? "untouched"
              : Array                                    ? "set"
                                                         : "null",
              RAn, Aniso);
}

void textureReferences(CUmodule Mod) {
  CUtexref T = nullptr;
  SAY(cuTexRefCreate(&T));
  SAY(cuTexRefCreate(nullptr));
  printTexRef("created", T);
  CUdeviceptr Dev = 0;
  cuMemAlloc(&Dev, 4096);
  for (size_t Off : {0, 4, 16, 256, 512})
    for (size_t Bytes : {0, 64, 4096}) {
      size_t ByteOffset = 12345;
      CUresult R = cuTexRefSetAddress(&ByteOffset, T, Dev + Off, Bytes);
      std::printf("set_address +%zu bytes=%zu -> %d offset=%zu\n", Off, Bytes,
                  R, ByteOffset);
    }
  size_t ByteOffset = 0;
  SAY(cuTexRefSetAddress(nullptr, T, Dev, 64));
  SAY(cuTexRefSetAddress(&ByteOffset, T, 0, 64));
  SAY(cuTexRefSetAddress(&ByteOffset, T, Dev + 1, 64));
  SAY(cuTexRefSetAddress(&ByteOffset, T, Dev + 4000, 4096));
  SAY(cuTexRefSetAddress(&ByteOffset, T, Dev, size_t(1) << 40));
  SAY(cuTexRefSetAddress(&ByteOffset, T, Dev + 512, 64));
  printTexRef("after set_address", T);
  for (int F : {0x01, 0x10, 0x20, 0x07})
    for (int C : {0, 1, 2, 3, 4, 5}) {
      CUresult R = cuTexRefSetFormat(T, CUarray_format(F), C);
      std::printf("set_format 0x%x %d -> %d\n", F, C, R);
    }
  cuTexRefSetFormat(T, CU_AD_FORMAT_FLOAT, 1);
  for (int Dim : {-1, 0, 1, 2, 3, 4})
    for (int Mode : {0, 1, 2, 3, 4}) {
      CUresult R = cuTexRefSetAddressMode(T, Dim, CUaddress_mode(Mode));
      std::printf("set_address_mode dim=%d mode=%d -> %d\n", Dim, Mode, R);
    }
  for (int Mode : {0, 1, 2})
    std::printf(
        "set_filter_mode %d -> %d\n", Mode,
        static_cast<int>(cuTexRefSetFilterMode(T, CUfilter_mode(Mode))));
  for (unsigned Flags :
       {0u, 1u, 2u, 3u, 4u, 8u, 0x10u, 0x20u, 0x40u, 0x80u, 0x100u})
    std::printf("set_flags 0x%x -> %d\n", Flags,
                static_cast<int>(cuTexRefSetFlags(T, Flags)));
  float Border[4] = {0.25f, 0.5f, 0.75f, 1.f};
  SAY(cuTexRefSetBorderColor(T, Border));
  SAY(cuTexRefSetBorderColor(T, nullptr));
  SAY(cuTexRefSetMaxAnisotropy(T, 4));
  {
    CUfilter_mode MipFilter = CUfilter_mode(-1);
    float Bias = -1, MinClamp = -1, MaxClamp = -1;
    CUmipmappedArray Mip = reinterpret_cast<CUmipmappedArray>(0xdead);
    CUresult R1 = cuTexRefGetMipmapFilterMode(&MipFilter, T);
    CUresult R2 = cuTexRefGetMipmapLevelBias(&Bias, T);
    CUresult R3 = cuTexRefGetMipmapLevelClamp(&MinClamp, &MaxClamp, T);
    CUresult R4 = cuTexRefGetMipmappedArray(&Mip, T);
    std::printf("mipmap defaults: filter -> %d %d; bias -> %d %g; clamp -> %d "
                "%g %g; array -> %d %s\n",
                R1, MipFilter, R2, Bias, R3, MinClamp, MaxClamp, R4,
                Mip == reinterpret_cast<CUmipmappedArray>(0xdead) ? "untouched"
                : Mip                                             ? "set"
                                                                  : "null");
    SAY(cuTexRefSetMipmapFilterMode(T, CU_TR_FILTER_MODE_LINEAR));
    SAY(cuTexRefSetMipmapFilterMode(T, CUfilter_mode(5)));
    SAY(cuTexRefSetMipmapLevelBias(T, 1.5f));
    SAY(cuTexRefSetMipmapLevelClamp(T, 0.5f, 3.0f));
    SAY(cuTexRefSetMipmapLevelClamp(T, 3.0f, 0.5f));
    R1 = cuTexRefGetMipmapFilterMode(&MipFilter, T);
    R2 = cuTexRefGetMipmapLevelBias(&Bias, T);
    R3 = cuTexRefGetMipmapLevelClamp(&MinClamp, &MaxClamp, T);
    std::printf("mipmap after setters: filter -> %d %d; bias -> %d %g; clamp "
                "-> %d %g %g\n",
                R1, MipFilter, R2, Bias, R3, MinClamp, MaxClamp);
    SAY(cuTexRefGetMipmapFilterMode(nullptr, T));
    SAY(cuTexRefSetMipmappedArray(T, nullptr, CU_TRSA_OVERRIDE_FORMAT));
  }
  cuTexRefSetFlags(T, 0);
  printTexRef("after setters", T);

  // 2D linear binding.
  CUDA_ARRAY_DESCRIPTOR LD = desc2D(16, 4, CU_AD_FORMAT_FLOAT, 1);
  struct Case {
    size_t Off, Pitch, W, H;
    CUarray_format F;
    unsigned C;
  } Cases[] = {{0, 64, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 96, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 128, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 32, 8, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 60, 15, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 16, 4, 4, CU_AD_FORMAT_FLOAT, 1},
               {32, 64, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {64, 64, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {128, 64, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 32, 16, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 64, 16, 4, CU_AD_FORMAT_FLOAT, 3},
               {0, 64, 0, 4, CU_AD_FORMAT_FLOAT, 1},
               {0, 64, 16, 0, CU_AD_FORMAT_FLOAT, 1}};
  for (Case K : Cases) {
    LD = desc2D(K.W, K.H, K.F, K.C);
    CUresult R = cuTexRefSetAddress2D(T, &LD, Dev + K.Off, K.Pitch);
    std::printf("set_address2d +%zu pitch=%zu %zux%zu ch=%u -> %d\n", K.Off,
                K.Pitch, K.W, K.H, K.C, R);
  }
  SAY(cuTexRefSetAddress2D(T, nullptr, Dev, 64));
  printTexRef("after set_address2d", T);

  CUarray A = nullptr;
  CUDA_ARRAY_DESCRIPTOR AD = desc2D(8, 8, CU_AD_FORMAT_UNSIGNED_INT16, 2);
  cuArrayCreate(&A, &AD);
  SAY(cuTexRefSetArray(T, A, 0));
  printTexRef("after set_array flags 0", T);
  SAY(cuTexRefSetArray(T, A, 2));
  SAY(cuTexRefSetArray(T, A, CU_TRSA_OVERRIDE_FORMAT));
  printTexRef("after set_array", T);
  SAY(cuTexRefSetArray(T, nullptr, CU_TRSA_OVERRIDE_FORMAT));
  SAY(cuTexRefSetFormat(T, CU_AD_FORMAT_FLOAT, 1));
  printTexRef("after set_format on array", T);
  SAY(cuTexRefSetAddress(&ByteOffset, T, Dev, 64));
  printTexRef("array then address", T);
  SAY(cuTexRefSetArray(T, A, CU_TRSA_OVERRIDE_FORMAT));
  SAY(cuArrayDestroy(A));
  printTexRef("array destroyed", T);
  SAY(cuTexRefDestroy(T));
  SAY(cuTexRefDestroy(nullptr));

  if (!Mod)
    return;
  CUtexref M1 = nullptr, M2 = nullptr, M0 = nullptr;
  SAY(cuModuleGetTexRef(&M1, Mod, "t1"));
  SAY(cuModuleGetTexRef(&M2, Mod, "t2"));
  SAY(cuModuleGetTexRef(&M0, Mod, "missing"));
  CUtexref M1b = nullptr;
  cuModuleGetTexRef(&M1b, Mod, "t1");
  std::printf("module texref same handle twice: %d\n", M1 == M1b);
  printTexRef("module t1", M1);
  printTexRef("module t2", M2);
  CUfunction F = nullptr;
  SAY(cuModuleGetFunction(&F, Mod, "fetch1d"));
  SAY(cuParamSetTexRef(F, CU_PARAM_TR_DEFAULT, M1));
  SAY(cuParamSetTexRef(F, CU_PARAM_TR_DEFAULT, M2));
  SAY(cuParamSetTexRef(F, 0, M1));
  SAY(cuParamSetTexRef(F, 1, M1));
  SAY(cuParamSetTexRef(F, CU_PARAM_TR_DEFAULT, nullptr));
  SAY(cuParamSetTexRef(nullptr, CU_PARAM_TR_DEFAULT, M1));
  CUtexref Created = nullptr;
  cuTexRefCreate(&Created);
  SAY(cuParamSetTexRef(F, CU_PARAM_TR_DEFAULT, Created));
  cuTexRefDestroy(Created);

  // Linear filtering of a 1D float texture holding 0, 1, 0, 1... at
  // fractional coordinates: shows how the hardware quantizes the weight.
  CUarray Ramp = nullptr;
  CUDA_ARRAY_DESCRIPTOR RD = desc2D(4, 0, CU_AD_FORMAT_FLOAT, 1);
  cuArrayCreate(&Ramp, &RD);
  float Texels[4] = {0, 1, 0, 1};
  cuMemcpyHtoA(Ramp, 0, Texels, sizeof(Texels));
  SAY(cuTexRefSetArray(M1, Ramp, CU_TRSA_OVERRIDE_FORMAT));
  cuTexRefSetFilterMode(M1, CU_TR_FILTER_MODE_LINEAR);
  const int N = 80;
  std::vector<float> Xs(N), Results(4 * N);
  for (int I = 0; I < N; ++I)
    Xs[I] = 0.5f + I / 64.0f + (I >= 66 ? 0.001f * (I - 65) : 0);
  CUdeviceptr DX = 0, DOut = 0;
  cuMemAlloc(&DX, N * 4);
  cuMemAlloc(&DOut, N * 16);
  cuMemcpyHtoD(DX, Xs.data(), N * 4);
  unsigned Count = N;
  void *Args[] = {&DOut, &DX, &Count};
  CUresult R = cuLaunchKernel(F, 1, 1, 1, 128, 1, 1, 0, nullptr, Args, nullptr);
  std::printf("launch fetch1d -> %d sync -> %d\n", R,
              static_cast<int>(cuCtxSynchronize()));
  cuMemcpyDtoH(Results.data(), DOut, N * 16);
  for (int I = 0; I < N; ++I)
    std::printf("linear1d x=%.9g -> %.9g (%a)\n", Xs[I], Results[4 * I],
                Results[4 * I]);
  SAY(cuTexRefDestroy(M1));
  cuArrayDestroy(Ramp);
  cuMemFree(DX);
  cuMemFree(DOut);
  cuMemFree(Dev);
}

void textureObjects() {
  CUarray A = nullptr;
  CUDA_ARRAY_DESCRIPTOR AD = desc2D(8, 8, CU_AD_FORMAT_FLOAT, 1);
  cuArrayCreate(&A, &AD);
  CUdeviceptr Dev = 0;
  cuMemAlloc(&Dev, 4096);
  CUDA_RESOURCE_DESC Res{};
  Res.resType = CU_RESOURCE_TYPE_ARRAY;
  Res.res.array.hArray = A;
  CUDA_TEXTURE_DESC Tex{};
  Tex.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
  Tex.filterMode = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject O = 0;
  SAY(cuTexObjectCreate(&O, &Res, &Tex, nullptr));
  std::printf("texobject value nonzero: %d\n", O != 0);
  CUtexObject O2 = 0;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  std::printf("texobject second distinct: %d\n", O2 != 0 && O2 != O);
  CUDA_RESOURCE_DESC Back{};
  SAY(cuTexObjectGetResourceDesc(&Back, O));
  std::printf("  resource type %d array same %d\n", Back.resType,
              Back.res.array.hArray == A);
  CUDA_TEXTURE_DESC TBack{};
  SAY(cuTexObjectGetTextureDesc(&TBack, O));
  std::printf("  texdesc mode %d %d %d filter %d flags 0x%x\n",
              TBack.addressMode[0], TBack.addressMode[1], TBack.addressMode[2],
              TBack.filterMode, TBack.flags);
  CUDA_RESOURCE_VIEW_DESC VBack{};
  SAY(cuTexObjectGetResourceViewDesc(&VBack, O));
  SAY(cuTexObjectCreate(nullptr, &Res, &Tex, nullptr));
  SAY(cuTexObjectCreate(&O2, nullptr, &Tex, nullptr));
  SAY(cuTexObjectCreate(&O2, &Res, nullptr, nullptr));
  Res.res.array.hArray = nullptr;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  std::memset(&Res, 0, sizeof(Res));
  Res.resType = CU_RESOURCE_TYPE_LINEAR;
  Res.res.linear.devPtr = Dev;
  Res.res.linear.format = CU_AD_FORMAT_FLOAT;
  Res.res.linear.numChannels = 1;
  Res.res.linear.sizeInBytes = 1024;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  cuTexObjectDestroy(O2);
  Res.res.linear.devPtr = Dev + 4;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.linear.devPtr = Dev;
  Res.res.linear.sizeInBytes = 1022;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.linear.sizeInBytes = 0;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.linear.sizeInBytes = 1024;
  Res.res.linear.numChannels = 3;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  std::memset(&Res, 0, sizeof(Res));
  Res.resType = CU_RESOURCE_TYPE_PITCH2D;
  Res.res.pitch2D.devPtr = Dev;
  Res.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  Res.res.pitch2D.numChannels = 1;
  Res.res.pitch2D.width = 8;
  Res.res.pitch2D.height = 8;
  Res.res.pitch2D.pitchInBytes = 32;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.pitch2D.pitchInBytes = 64;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.pitch2D.pitchInBytes = 36;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.pitch2D.pitchInBytes = 16;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.pitch2D.pitchInBytes = 32;
  Res.res.pitch2D.devPtr = Dev + 32;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Res.res.pitch2D.devPtr = Dev;
  Tex.filterMode = CUfilter_mode(2);
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Tex.filterMode = CU_TR_FILTER_MODE_POINT;
  Tex.addressMode[0] = CUaddress_mode(4);
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Tex.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  Tex.flags = 0x80;
  SAY(cuTexObjectCreate(&O2, &Res, &Tex, nullptr));
  SAY(cuTexObjectDestroy(O));
  SAY(cuTexObjectDestroy(0));
  SAY(cuTexObjectDestroy(CUtexObject(123456789)));
  SAY(cuArrayDestroy(A));
  cuMemFree(Dev);
}
} // namespace

int main(int argc, char **argv) {
  if (cuInit(0) != CUDA_SUCCESS)
    return 1;
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  cuDeviceGet(&Dev, 0);
  cuDevicePrimaryCtxRetain(&Ctx, Dev);
  cuCtxSetCurrent(Ctx);
  arrayCreation();
  arrayCopies();
  CUmodule Mod = nullptr;
  if (argc > 1) {
    std::ifstream In(argv[1], std::ios::binary);
    std::string Image((std::istreambuf_iterator<char>(In)),
                      std::istreambuf_iterator<char>());
    CUresult R = cuModuleLoadData(&Mod, Image.c_str());
    std::printf("module load -> %d\n", R);
  }
  textureReferences(Mod);
  textureObjects();
  if (Mod)
    SAY(cuModuleUnload(Mod));
  SAY(cuDevicePrimaryCtxRelease(Dev));
  return 0;
}

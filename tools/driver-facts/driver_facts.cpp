//===- driver_facts.cpp - Print what a CUDA driver reports ----------------===//
//
// Prints, one fact per line, what the libcuda it is linked against answers
// for questions whose answers are not in the documents: error strings,
// how many bytes each pointer attribute writes, default limits, pitches,
// flags. Built against NVIDIA's driver and against cucpu's, the two outputs
// diff line by line (see docs/conformance.md).
//
//===----------------------------------------------------------------------===//
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
#define CHECK(Call)                                                            \
  do {                                                                         \
    CUresult R_ = (Call);                                                      \
    if (R_ != CUDA_SUCCESS) {                                                  \
      std::printf("FAILED %s -> %d\n", #Call, static_cast<int>(R_));           \
      return 1;                                                                \
    }                                                                          \
  } while (0)

/// Bytes an attribute query changed in a 16-byte buffer prefilled with 0xAB.
int bytesWritten(const unsigned char *Buffer) {
  int Last = 0;
  for (int I = 0; I < 16; ++I)
    if (Buffer[I] != 0xAB)
      Last = I + 1;
  return Last;
}

void pointerAttributes(const char *What, CUdeviceptr P) {
  for (int A = 1; A <= 21; ++A) {
    unsigned char Buffer[16];
    std::memset(Buffer, 0xAB, sizeof(Buffer));
    CUresult R =
        cuPointerGetAttribute(Buffer, static_cast<CUpointer_attribute>(A), P);
    std::printf("pointer_attribute %s %d -> %d bytes=%d\n", What, A,
                static_cast<int>(R),
                R == CUDA_SUCCESS ? bytesWritten(Buffer) : 0);
  }
}
} // namespace

int main() {
  for (int Code = 0; Code < 1000; ++Code) {
    const char *Name = nullptr, *Text = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(Code), &Name) == CUDA_SUCCESS &&
        cuGetErrorString(static_cast<CUresult>(Code), &Text) == CUDA_SUCCESS)
      std::printf("error %d %s | %s\n", Code, Name, Text);
  }
  CHECK(cuInit(0));
  CUdevice Dev;
  CHECK(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CHECK(cuCtxCreate(&Ctx, nullptr, 0, Dev));

  unsigned Flags = 0;
  CHECK(cuCtxGetFlags(&Flags));
  std::printf("ctx_flags_after_create_0 %#x\n", Flags);
  unsigned Version = 0;
  CHECK(cuCtxGetApiVersion(Ctx, &Version));
  std::printf("ctx_api_version %u\n", Version);
  for (int L = 0; L <= 10; ++L) {
    size_t V = 0;
    CUresult R = cuCtxGetLimit(&V, static_cast<CUlimit>(L));
    std::printf("limit %d -> %d value=%zu\n", L, static_cast<int>(R), V);
  }
  int Least = 0, Greatest = 0;
  CHECK(cuCtxGetStreamPriorityRange(&Least, &Greatest));
  std::printf("stream_priority_range least=%d greatest=%d\n", Least, Greatest);
  for (CUstream S : {static_cast<CUstream>(nullptr), CU_STREAM_LEGACY,
                     CU_STREAM_PER_THREAD}) {
    unsigned long long Id = 0;
    CUresult R = cuStreamGetId(S, &Id);
    int Priority = 99;
    CUresult RP = cuStreamGetPriority(S, &Priority);
    unsigned SF = 99;
    CUresult RF = cuStreamGetFlags(S, &SF);
    std::printf(
        "default_stream %p id -> %d %llu priority -> %d %d flags -> %d %u\n",
        static_cast<void *>(S), static_cast<int>(R), Id, static_cast<int>(RP),
        Priority, static_cast<int>(RF), SF);
  }

  for (size_t Width : {1, 100, 511, 512, 513, 1000, 4096}) {
    CUdeviceptr P = 0;
    size_t Pitch = 0;
    CUresult R = cuMemAllocPitch(&P, &Pitch, Width, 3, 4);
    std::printf("pitch width=%zu -> %d pitch=%zu\n", Width, static_cast<int>(R),
                Pitch);
    if (R == CUDA_SUCCESS)
      cuMemFree(P);
  }

  CUdeviceptr Device = 0;
  CHECK(cuMemAlloc(&Device, 4096));
  void *Pinned = nullptr;
  CHECK(cuMemAllocHost(&Pinned, 4096));
  void *Portable = nullptr;
  CHECK(cuMemHostAlloc(&Portable, 4096, CU_MEMHOSTALLOC_PORTABLE));
  std::vector<char> Pageable(1 << 16);
  void *Registered = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(Pageable.data()) + 4095) & ~uintptr_t(4095));
  CHECK(cuMemHostRegister(Registered, 8192, 0));
  CUdeviceptr Managed = 0;
  CHECK(cuMemAllocManaged(&Managed, 4096, CU_MEM_ATTACH_GLOBAL));

  pointerAttributes("device", Device);
  pointerAttributes("pinned", reinterpret_cast<CUdeviceptr>(Pinned));
  pointerAttributes("registered", reinterpret_cast<CUdeviceptr>(Registered));
  pointerAttributes("managed", Managed);
  pointerAttributes("pageable", reinterpret_cast<CUdeviceptr>(Pageable.data()));

  for (auto [What, P] : {std::pair<const char *, void *>{"pinned", Pinned},
                         {"portable", Portable},
                         {"registered", Registered}}) {
    unsigned HF = 0xdead;
    CUresult R = cuMemHostGetFlags(&HF, P);
    std::printf("host_flags %s -> %d %#x\n", What, static_cast<int>(R), HF);
  }

  {
    CUpointer_attribute Attrs[] = {
        CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_IS_MANAGED};
    unsigned long long Values[4];
    std::memset(Values, 0xAB, sizeof(Values));
    void *Data[4] = {&Values[0], &Values[1], &Values[2], &Values[3]};
    CUresult R = cuPointerGetAttributes(
        4, Attrs, Data, reinterpret_cast<CUdeviceptr>(Pageable.data()));
    std::printf("pointer_attributes pageable -> %d ctx=%#llx type=%#llx "
                "ordinal=%#llx managed=%#llx\n",
                static_cast<int>(R), Values[0], Values[1], Values[2],
                Values[3]);
  }

  const char Text[] = "this is not a module";
  CUmodule M = nullptr;
  std::printf("module_load_text -> %d\n",
              static_cast<int>(cuModuleLoadData(&M, Text)));
  std::printf("mem_get_address_range_pinned -> %d\n",
              static_cast<int>(cuMemGetAddressRange(
                  nullptr, nullptr, reinterpret_cast<CUdeviceptr>(Pinned))));
  std::printf(
      "mem_get_address_range_pageable -> %d\n",
      static_cast<int>(cuMemGetAddressRange(
          nullptr, nullptr, reinterpret_cast<CUdeviceptr>(Pageable.data()))));
  std::printf("memcpy_htod_zero_bytes_bad_ptr -> %d\n",
              static_cast<int>(cuMemcpyHtoD(0x10, Pageable.data(), 0)));
  std::printf("memset_d8_zero_count_bad_ptr -> %d\n",
              static_cast<int>(cuMemsetD8(0x10, 0, 0)));

  CHECK(cuMemHostUnregister(Registered));
  CHECK(cuMemFreeHost(Pinned));
  CHECK(cuMemFreeHost(Portable));
  CHECK(cuMemFree(Managed));
  CHECK(cuMemFree(Device));
  CHECK(cuCtxDestroy(Ctx));
  std::printf("done\n");
  return 0;
}

/* A driver-API program written the way NVIDIA's samples are: <cuda.h> first,
   then a helper header that tests cuda.h's include guard, <builtin_types.h>
   for dim3 and the runtime's types, and cudaTypedefs.h's PFN_ types for entry
   points fetched with cuGetProcAddress. Compiles against the installed prefix
   alone; prints PASSED when every check holds. */
#include <cuda.h>

#include "helper_drvapi.h"

#include <builtin_types.h>
#include <cudaTypedefs.h>
#include <vector_types.h>

#ifndef checkCuda
#error "helper_drvapi.h saw no __cuda_cuda_h__: cuda.h lacks NVIDIA's guard"
#endif

static_assert(alignof(float4) == 16 && sizeof(double2) == 16,
              "vector types have CUDA's alignment");
static_assert(cudaMemcpyHostToDevice == 1 && cudaErrorInvalidValue == 1,
              "runtime enumerators have CUDA's values");

/* Stops with a message unless Cond holds; uses exit() from <cuda.h>. */
static void expect(bool Cond, const char *What) {
  if (Cond)
    return;
  fprintf(stderr, "samples_style: %s\n", What);
  exit(EXIT_FAILURE);
}

int main() {
  checkCuda(cuInit(0));
  CUdevice Dev;
  checkCuda(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  checkCuda(cuCtxCreate(&Ctx, 0, Dev));

  // The entry points of this header's CUDA version, through their PFN_ types.
  PFN_cuMemAlloc MemAlloc = nullptr;
  PFN_cuMemFree_v3020 MemFree = nullptr;
  PFN_cuMemsetD32 MemsetD32 = nullptr;
  CUdriverProcAddressQueryResult Status;
  checkCuda(cuGetProcAddress("cuMemAlloc", reinterpret_cast<void **>(&MemAlloc),
                             CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT,
                             &Status));
  expect(Status == CU_GET_PROC_ADDRESS_SUCCESS && MemAlloc,
         "cuGetProcAddress found no cuMemAlloc");
  checkCuda(cuGetProcAddress("cuMemFree", reinterpret_cast<void **>(&MemFree),
                             CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT,
                             &Status));
  checkCuda(
      cuGetProcAddress("cuMemsetD32", reinterpret_cast<void **>(&MemsetD32),
                       CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &Status));
  expect(MemFree && MemsetD32, "cuGetProcAddress found no cuMemFree/D32");

  const dim3 Grid(4, 2);
  const uint3 Shape = {8, 4, 2};
  const dim3 Block(Shape);
  const size_t Count = Grid.x * Grid.y * Grid.z * Block.x * Block.y * Block.z;
  expect(Count == 512, "dim3's constructors give CUDA's defaults");

  CUdeviceptr Buffer;
  checkCuda(MemAlloc(&Buffer, Count * sizeof(unsigned)));
  checkCuda(MemsetD32(Buffer, 0x1234u, Count));
  unsigned Host[512];
  checkCuda(cuMemcpyDtoH(Host, Buffer, sizeof(Host)));
  for (size_t I = 0; I < Count; ++I)
    expect(Host[I] == 0x1234u, "cuMemsetD32 through its PFN_ type filled");
  checkCuda(MemFree(Buffer));
  checkCuda(cuCtxDestroy(Ctx));
  printf("PASSED\n");
  return 0;
}

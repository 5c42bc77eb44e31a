/* Vector addition in memory from the virtual memory management API, the way
   NVIDIA's vectorAddMMAP sample gets it: each vector is a reserved range of
   virtual addresses backed by several physical allocations of the minimum
   granularity, mapped side by side (cuMemAddressReserve, cuMemCreate,
   cuMemMap, cuMemSetAccess). Copies and the kernel cross the seams between
   the allocations. Prints PASSED when the sum is right. */
#include <cuda.h>

#include "drvapi_helpers.h"

#include <vector>

/* A vector of N floats in mapped memory. */
struct MappedVector {
  CUdeviceptr Base;
  size_t Reserved;
};

/* Reserves Size bytes (rounded up to Granularity) and backs them with
   allocations of Granularity bytes each on Device, mapped side by side and
   made readable and writable from Device. */
static MappedVector allocateMapped(size_t Size, size_t Granularity,
                                   CUdevice Device) {
  MappedVector V;
  V.Reserved = (Size + Granularity - 1) / Granularity * Granularity;
  checkCudaErrors(cuMemAddressReserve(&V.Base, V.Reserved, 0, 0, 0));

  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = Device;
  for (size_t Offset = 0; Offset < V.Reserved; Offset += Granularity) {
    CUmemGenericAllocationHandle Handle;
    checkCudaErrors(cuMemCreate(&Handle, Granularity, &Prop, 0));
    checkCudaErrors(cuMemMap(V.Base + Offset, Granularity, 0, Handle, 0));
    // The mapping keeps the memory; the handle is no longer needed.
    checkCudaErrors(cuMemRelease(Handle));
  }

  CUmemAccessDesc Access = {};
  Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Access.location.id = Device;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  checkCudaErrors(cuMemSetAccess(V.Base, V.Reserved, &Access, 1));
  return V;
}

/* Unmaps all of V's allocations at once (which frees them) and gives its
   addresses back. */
static void freeMapped(const MappedVector &V) {
  checkCudaErrors(cuMemUnmap(V.Base, V.Reserved));
  checkCudaErrors(cuMemAddressFree(V.Base, V.Reserved));
}

int main(int Argc, char **Argv) {
  (void)Argc;
  printf("Vector addition (driver API, virtual memory management)\n");
  CUdevice Device;
  CUcontext Context = createContextOnFirstDevice(&Device);

  int Supported = 0;
  checkCudaErrors(cuDeviceGetAttribute(
      &Supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
      Device));
  checkThat(Supported == 1,
            "CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED to be "
            "1, got %d",
            Supported);

  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = Device;
  size_t Granularity = 0;
  checkCudaErrors(cuMemGetAllocationGranularity(
      &Granularity, &Prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  checkThat(Granularity > 0, "a nonzero allocation granularity");
  printf("allocation granularity: %zu bytes\n", Granularity);

  // Enough elements for each vector to span two and a half allocations.
  const int N = (int)(Granularity * 5 / 2 / sizeof(float));
  const size_t Bytes = N * sizeof(float);
  MappedVector A = allocateMapped(Bytes, Granularity, Device);
  MappedVector B = allocateMapped(Bytes, Granularity, Device);
  MappedVector C = allocateMapped(Bytes, Granularity, Device);
  printf("%d floats per vector, %zu allocations each\n", N,
         A.Reserved / Granularity);

  std::vector<float> HostA(N), HostB(N), HostC(N, -1.0f);
  for (int I = 0; I < N; ++I) {
    HostA[I] = (float)(I % 4096);
    HostB[I] = (float)(I / 4096);
  }
  checkCudaErrors(cuMemcpyHtoD(A.Base, HostA.data(), Bytes));
  checkCudaErrors(cuMemcpyHtoD(B.Base, HostB.data(), Bytes));
  checkCudaErrors(cuMemcpyHtoD(C.Base, HostC.data(), Bytes));

  char *Path = findKernelImage(Argv[0], "vectorAddMMAP_kernel.fatbin");
  size_t ImageSize = 0;
  void *Image = readFile(Path, &ImageSize);
  CUmodule Module;
  checkCudaErrors(cuModuleLoadData(&Module, Image));
  CUfunction VectorAdd;
  checkCudaErrors(cuModuleGetFunction(&VectorAdd, Module, "vectorAddMMAP"));

  int Count = N;
  void *Args[] = {&A.Base, &B.Base, &C.Base, &Count};
  unsigned ThreadsPerBlock = 256;
  unsigned BlocksPerGrid = (N + ThreadsPerBlock - 1) / ThreadsPerBlock;
  checkCudaErrors(cuLaunchKernel(VectorAdd, BlocksPerGrid, 1, 1,
                                 ThreadsPerBlock, 1, 1, 0, NULL, Args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(HostC.data(), C.Base, Bytes));

  for (int I = 0; I < N; ++I)
    checkThat(HostC[I] == HostA[I] + HostB[I], "C[%d] == %g + %g, got %g", I,
              HostA[I], HostB[I], HostC[I]);
  printf("%d sums right\n", N);

  checkCudaErrors(cuModuleUnload(Module));
  free(Image);
  free(Path);
  freeMapped(A);
  freeMapped(B);
  freeMapped(C);
  checkCudaErrors(cuCtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

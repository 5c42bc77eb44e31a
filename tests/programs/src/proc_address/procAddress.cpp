/* Driver entry points called through pointers, as programs that load the
   driver at run time call them: cuGetProcAddress (CUDA 12's form, which
   says why a lookup failed) hands out each function for a CUDA version,
   typed with <cudaTypedefs.h>'s versioned PFN_ types (PFN_cuMemAlloc_v3020,
   PFN_cuLaunchKernel_v4000, ...). Allocation, copies, module loading and a
   launch all go through them. Prints PASSED when the result is right and
   failed lookups say why. */
#include <cuda.h>
#include <cudaTypedefs.h>

#include "drvapi_helpers.h"

#include <vector>

/* Looks Symbol up for CUDA version Version and stores it in *Pfn; stops
   unless the lookup succeeds. */
template <typename PfnT>
static void getProc(const char *Symbol, PfnT *Pfn, int Version) {
  void *Address = NULL;
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  checkCudaErrors(cuGetProcAddress(Symbol, &Address, Version,
                                   CU_GET_PROC_ADDRESS_DEFAULT, &Status));
  checkThat(Status == CU_GET_PROC_ADDRESS_SUCCESS && Address != NULL,
            "cuGetProcAddress(\"%s\", %d) to succeed, got status %d", Symbol,
            Version, (int)Status);
  *Pfn = (PfnT)Address;
}

/* Looks Symbol up for CUDA version Version; stops unless the lookup finds
   nothing, clears the pointer and gives Expected as the status. */
static void expectNoProc(const char *Symbol, int Version,
                         CUdriverProcAddressQueryResult Expected) {
  int Dummy = 0;
  void *Address = &Dummy;
  CUdriverProcAddressQueryResult Status = CU_GET_PROC_ADDRESS_SUCCESS;
  CUresult Result = cuGetProcAddress(Symbol, &Address, Version,
                                     CU_GET_PROC_ADDRESS_DEFAULT, &Status);
  checkThat((Result == CUDA_SUCCESS || Result == CUDA_ERROR_NOT_FOUND) &&
                Status == Expected && Address == NULL,
            "cuGetProcAddress(\"%s\", %d) to give CUDA_SUCCESS or "
            "CUDA_ERROR_NOT_FOUND, status %d and NULL; got %d, status %d, %p",
            Symbol, Version, (int)Expected, (int)Result, (int)Status, Address);
  printf("cuGetProcAddress(\"%s\", %d): status %d, as expected\n", Symbol,
         Version, (int)Status);
}

int main(int Argc, char **Argv) {
  (void)Argc;
  printf("Driver entry points through cuGetProcAddress\n");
  checkCudaErrors(cuInit(0));
  int DriverVersion = 0;
  checkCudaErrors(cuDriverGetVersion(&DriverVersion));
  printf("driver version %d, header version %d\n", DriverVersion, CUDA_VERSION);

  // PFN_<name>_v<version> is the signature of <name> as of CUDA <version>,
  // so each function is asked for as of the version its type names: as of
  // a newer version the driver may hand out a later signature (cuCtxCreate
  // as of 12.5 takes parameters, cuCtxSynchronize as of 13.0 a context).
  PFN_cuDeviceGet_v2000 DeviceGet;
  PFN_cuCtxCreate_v3020 CtxCreate;
  PFN_cuCtxDestroy_v4000 CtxDestroy;
  PFN_cuCtxSynchronize_v2000 CtxSynchronize;
  PFN_cuMemAlloc_v3020 MemAlloc;
  PFN_cuMemFree_v3020 MemFree;
  PFN_cuMemcpyHtoD_v3020 MemcpyHtoD;
  PFN_cuMemcpyDtoH_v3020 MemcpyDtoH;
  PFN_cuModuleLoadData_v2000 ModuleLoadData;
  PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
  PFN_cuModuleUnload_v2000 ModuleUnload;
  PFN_cuLaunchKernel_v4000 LaunchKernel;
  getProc("cuDeviceGet", &DeviceGet, 2000);
  getProc("cuCtxCreate", &CtxCreate, 3020);
  getProc("cuCtxDestroy", &CtxDestroy, 4000);
  getProc("cuCtxSynchronize", &CtxSynchronize, 2000);
  getProc("cuMemAlloc", &MemAlloc, 3020);
  getProc("cuMemFree", &MemFree, 3020);
  getProc("cuMemcpyHtoD", &MemcpyHtoD, 3020);
  getProc("cuMemcpyDtoH", &MemcpyDtoH, 3020);
  getProc("cuModuleLoadData", &ModuleLoadData, 2000);
  getProc("cuModuleGetFunction", &ModuleGetFunction, 2000);
  getProc("cuModuleUnload", &ModuleUnload, 2000);
  getProc("cuLaunchKernel", &LaunchKernel, 4000);

  // A name the driver does not have, and one newer than the version asked
  // for (cuMemCreate is CUDA 10.2's): the status says why there is no
  // function. CUDA's documentation lists CUDA_ERROR_NOT_FOUND for these;
  // NVIDIA's driver has been seen to answer CUDA_SUCCESS once it has a
  // status to fill in, so either is accepted.
  expectNoProc("cuNoSuchFunction", CUDA_VERSION,
               CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  expectNoProc("cuMemCreate", 10000,
               CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);

  CUdevice Device;
  checkCudaErrors(DeviceGet(&Device, 0));
  CUcontext Context;
  checkCudaErrors(CtxCreate(&Context, 0, Device));

  char *Path = findKernelImage(Argv[0], "procAddress_kernel.cubin");
  size_t ImageSize = 0;
  void *Image = readFile(Path, &ImageSize);
  CUmodule Module;
  checkCudaErrors(ModuleLoadData(&Module, Image));
  CUfunction Saxpy;
  checkCudaErrors(ModuleGetFunction(&Saxpy, Module, "saxpy"));

  const int N = 10000;
  std::vector<float> HostX(N), HostY(N);
  for (int I = 0; I < N; ++I) {
    HostX[I] = (float)I;
    HostY[I] = (float)(N - I);
  }
  CUdeviceptr X, Y;
  checkCudaErrors(MemAlloc(&X, N * sizeof(float)));
  checkCudaErrors(MemAlloc(&Y, N * sizeof(float)));
  checkCudaErrors(MemcpyHtoD(X, HostX.data(), N * sizeof(float)));
  checkCudaErrors(MemcpyHtoD(Y, HostY.data(), N * sizeof(float)));
  float A = 2.0f;
  int Count = N;
  void *Args[] = {&A, &X, &Y, &Count};
  checkCudaErrors(LaunchKernel(Saxpy, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
                               Args, NULL));
  checkCudaErrors(CtxSynchronize());
  checkCudaErrors(MemcpyDtoH(HostY.data(), Y, N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    float Expected = A * (float)I + (float)(N - I);
    checkThat(HostY[I] == Expected, "Y[%d] == %g, got %g", I, Expected,
              HostY[I]);
  }
  printf("saxpy through PFN_cuLaunchKernel_v4000: %d elements right\n", N);

  checkCudaErrors(MemFree(X));
  checkCudaErrors(MemFree(Y));
  checkCudaErrors(ModuleUnload(Module));
  free(Image);
  free(Path);
  checkCudaErrors(CtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

/* Vector addition with the driver API, as NVIDIA's vectorAddDrv sample does
   it: only <cuda.h> and a helper header that tests cuda.h's include guard,
   the kernel built by nvcc twice (a cubin for sm_90 loaded from its file, a
   fat binary for sm_90 and sm_120 loaded from memory) and launched with
   cuLaunchKernel. Prints PASSED when both results are right. */
#include <cuda.h>

#include "drvapi_helpers.h"

#ifndef checkCudaErrors
#error "drvapi_helpers.h saw no __cuda_cuda_h__ after <cuda.h>"
#endif

static const int N = 50000;

/* Adds HostA and HostB with VecAdd_kernel of Module and checks the sum. */
static void addWith(CUmodule Module, const char *What, const float *HostA,
                    const float *HostB, float *HostC) {
  CUfunction VecAdd;
  checkCudaErrors(cuModuleGetFunction(&VecAdd, Module, "VecAdd_kernel"));

  size_t Bytes = N * sizeof(float);
  CUdeviceptr A, B, C;
  checkCudaErrors(cuMemAlloc(&A, Bytes));
  checkCudaErrors(cuMemAlloc(&B, Bytes));
  checkCudaErrors(cuMemAlloc(&C, Bytes));
  checkCudaErrors(cuMemcpyHtoD(A, HostA, Bytes));
  checkCudaErrors(cuMemcpyHtoD(B, HostB, Bytes));
  checkCudaErrors(cuMemsetD32(C, 0, N));

  int Count = N;
  void *Args[] = {&A, &B, &C, &Count};
  unsigned ThreadsPerBlock = 256;
  unsigned BlocksPerGrid = (N + ThreadsPerBlock - 1) / ThreadsPerBlock;
  checkCudaErrors(cuLaunchKernel(VecAdd, BlocksPerGrid, 1, 1, ThreadsPerBlock,
                                 1, 1, 0, NULL, Args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  checkCudaErrors(cuMemcpyDtoH(HostC, C, Bytes));

  for (int I = 0; I < N; ++I) {
    float Sum = HostA[I] + HostB[I];
    checkThat(HostC[I] == Sum, "%s: C[%d] == %g + %g == %g, got %g", What, I,
              HostA[I], HostB[I], Sum, HostC[I]);
  }
  printf("%s: %d sums right\n", What, N);
  checkCudaErrors(cuMemFree(A));
  checkCudaErrors(cuMemFree(B));
  checkCudaErrors(cuMemFree(C));
}

int main(int Argc, char **Argv) {
  (void)Argc;
  printf("Vector addition (driver API)\n");
  CUdevice Device;
  CUcontext Context = createContextOnFirstDevice(&Device);

  float *HostA = (float *)malloc(N * sizeof(float));
  float *HostB = (float *)malloc(N * sizeof(float));
  float *HostC = (float *)malloc(N * sizeof(float));
  checkThat(HostA && HostB && HostC, "host memory for three vectors");
  for (int I = 0; I < N; ++I) {
    HostA[I] = (float)(I % 1000) / 8.0f;
    HostB[I] = (float)((I * 7) % 1000) / 16.0f;
  }

  // The cubin, loaded by path.
  char *CubinPath = findKernelImage(Argv[0], "vectorAdd_kernel.cubin");
  CUmodule Cubin;
  checkCudaErrors(cuModuleLoad(&Cubin, CubinPath));
  addWith(Cubin, "cubin (-arch=sm_90)", HostA, HostB, HostC);
  checkCudaErrors(cuModuleUnload(Cubin));

  // The fat binary, loaded from memory.
  char *FatbinPath = findKernelImage(Argv[0], "vectorAdd_kernel.fatbin");
  size_t FatbinSize = 0;
  void *FatbinBytes = readFile(FatbinPath, &FatbinSize);
  CUmodule Fatbin;
  checkCudaErrors(cuModuleLoadData(&Fatbin, FatbinBytes));
  addWith(Fatbin, "fatbin (sm_90, sm_120)", HostA, HostB, HostC);
  checkCudaErrors(cuModuleUnload(Fatbin));

  free(FatbinBytes);
  free(FatbinPath);
  free(CubinPath);
  free(HostA);
  free(HostB);
  free(HostC);
  checkCudaErrors(cuCtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

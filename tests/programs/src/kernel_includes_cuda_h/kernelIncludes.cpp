/* Runs kernels from a file that includes <cuda.h> and <vector_types.h>,
   built by nvcc with -arch=sm_120: the kernel must see the same CUDA_VERSION
   and CUdeviceptr as the host, and float4 must have CUDA's layout. Prints
   PASSED when it does. */
#include <cuda.h>
#include <vector_types.h>

#include "drvapi_helpers.h"

static_assert(sizeof(float4) == 16 && alignof(float4) == 16,
              "float4 has CUDA's size and alignment");

int main(int Argc, char **Argv) {
  (void)Argc;
  printf("Kernel that includes <cuda.h>\n");
  CUdevice Device;
  CUcontext Context = createContextOnFirstDevice(&Device);

  char *Path = findKernelImage(Argv[0], "kernelIncludes_kernel.cubin");
  CUmodule Module;
  checkCudaErrors(cuModuleLoad(&Module, Path));
  CUfunction Report, Scale;
  checkCudaErrors(cuModuleGetFunction(&Report, Module, "reportHeader"));
  checkCudaErrors(cuModuleGetFunction(&Scale, Module, "scaleFloat4"));

  CUdeviceptr Out;
  checkCudaErrors(cuMemAlloc(&Out, 2 * sizeof(int)));
  checkCudaErrors(cuMemsetD32(Out, 0, 2));
  void *ReportArgs[] = {&Out};
  checkCudaErrors(
      cuLaunchKernel(Report, 1, 1, 1, 32, 1, 1, 0, NULL, ReportArgs, NULL));
  int Seen[2];
  checkCudaErrors(cuMemcpyDtoH(Seen, Out, sizeof(Seen)));
  checkThat(Seen[0] == CUDA_VERSION,
            "the kernel's CUDA_VERSION %d to equal the host's %d", Seen[0],
            CUDA_VERSION);
  checkThat(Seen[1] == (int)sizeof(CUdeviceptr),
            "the kernel's sizeof(CUdeviceptr) %d to equal the host's %d",
            Seen[1], (int)sizeof(CUdeviceptr));
  printf("kernel's <cuda.h>: CUDA_VERSION %d, CUdeviceptr of %d bytes\n",
         Seen[0], Seen[1]);

  const int N = 1000;
  const float Factor = 3.0f;
  float4 *Host = (float4 *)malloc(N * sizeof(float4));
  checkThat(Host != NULL, "host memory for %d float4", N);
  // make_float4 is in vector_functions.h, which host code need not include.
  for (int I = 0; I < N; ++I) {
    float4 V = {(float)I, (float)-I, 0.5f, 1.0f};
    Host[I] = V;
  }
  CUdeviceptr Data;
  checkCudaErrors(cuMemAlloc(&Data, N * sizeof(float4)));
  checkCudaErrors(cuMemcpyHtoD(Data, Host, N * sizeof(float4)));
  int Count = N;
  float ByFactor = Factor;
  void *ScaleArgs[] = {&Data, &Count, &ByFactor};
  checkCudaErrors(cuLaunchKernel(Scale, (N + 127) / 128, 1, 1, 128, 1, 1, 0,
                                 NULL, ScaleArgs, NULL));
  checkCudaErrors(cuMemcpyDtoH(Host, Data, N * sizeof(float4)));
  for (int I = 0; I < N; ++I) {
    float4 V = Host[I];
    checkThat(V.x == I * Factor && V.y == -I * Factor && V.z == 0.5f * Factor &&
                  V.w == Factor + (float)I,
              "element %d == (%g, %g, %g, %g), got (%g, %g, %g, %g)", I,
              I * Factor, -I * Factor, 0.5f * Factor, Factor + (float)I, V.x,
              V.y, V.z, V.w);
  }
  printf("scaleFloat4: %d float4 right\n", N);

  free(Host);
  free(Path);
  checkCudaErrors(cuMemFree(Data));
  checkCudaErrors(cuMemFree(Out));
  checkCudaErrors(cuModuleUnload(Module));
  checkCudaErrors(cuCtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

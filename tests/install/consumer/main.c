/* An outside program's view of cucpu: <cuda.h> and libcuda, nothing else.
   Exits 0 when every call succeeds. */
#include <cuda.h>
#include <stdio.h>

/* Prints a failed call and tells main to stop. */
static int failed(CUresult Result, const char *Call) {
  if (Result == CUDA_SUCCESS)
    return 0;
  fprintf(stderr, "consumer: %s returned %d\n", Call, (int)Result);
  return 1;
}

int main(void) {
  int Version = 0;
  int Count = 0;
  if (failed(cuInit(0), "cuInit(0)") ||
      failed(cuDriverGetVersion(&Version), "cuDriverGetVersion") ||
      failed(cuDeviceGetCount(&Count), "cuDeviceGetCount"))
    return 1;
  printf("consumer (found cucpu via %s): driver version %d, %d device(s)\n",
         CONSUMER_VIA, Version, Count);
  return 0;
}

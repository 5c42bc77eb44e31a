/* An outside program's view of cucpu: <cuda.h> and libcuda, nothing else.
   Prints the driver version, the device count and which libcuda.so.1 the
   loader chose; exits 0 when every call succeeds. */
#define _GNU_SOURCE
#include <cuda.h>

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>

/* Prints a failed call and tells main to stop. */
static int failed(CUresult Result, const char *Call) {
  if (Result == CUDA_SUCCESS)
    return 0;
  fprintf(stderr, "consumer: %s returned %d\n", Call, (int)Result);
  return 1;
}

/* The path of the libcuda.so.1 this process loaded, or "?". */
static const char *loadedLibcuda(void) {
  void *Handle = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  struct link_map *Map = NULL;
  if (!Handle || dlinfo(Handle, RTLD_DI_LINKMAP, &Map) != 0 || !Map)
    return "?";
  return Map->l_name;
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
  printf("libcuda: %s\n", loadedLibcuda());
  return 0;
}

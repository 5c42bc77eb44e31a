/* A helper header in the manner of the ones NVIDIA's driver-API samples use:
   it offers its checks only when the driver API's header was included before
   it, which it tells by cuda.h's include guard, and it relies on cuda.h for
   exit() and EXIT_FAILURE instead of including <stdlib.h> itself. */
#ifndef CONSUMER_HELPER_DRVAPI_H
#define CONSUMER_HELPER_DRVAPI_H

#include <stdio.h>

#ifdef __cuda_cuda_h__
#ifndef checkCuda
/* Stops the program with the file, line and name of a failed driver call. */
#define checkCuda(Call) checkCudaResult((Call), #Call, __FILE__, __LINE__)

/* checkCuda's body: prints the error's name and exits on failure. */
static inline void checkCudaResult(CUresult Result, const char *Call,
                                   const char *File, int Line) {
  if (Result == CUDA_SUCCESS)
    return;
  const char *Name = NULL;
  cuGetErrorName(Result, &Name);
  fprintf(stderr, "%s:%d: %s returned %s (%d)\n", File, Line, Call,
          Name ? Name : "an unknown error", (int)Result);
  exit(EXIT_FAILURE);
}
#endif
#endif

#endif

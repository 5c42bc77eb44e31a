/* Checks and small utilities shared by the programs, in the manner of the
   helper headers of NVIDIA's driver-API samples: everything here needs the
   driver API, so it exists only when <cuda.h> was included first (which this
   header tells by cuda.h's include guard), and it relies on <cuda.h> for
   exit(), malloc() and EXIT_FAILURE instead of including <stdlib.h> itself
   (NVIDIA's cuda.h includes it; programs rely on that). */
#ifndef PROGRAMS_DRVAPI_HELPERS_H
#define PROGRAMS_DRVAPI_HELPERS_H

#include <stdio.h>
#include <string.h>

#ifdef __cuda_cuda_h__

/// Stops the program with the call, its file and line, and the error's name
/// and text when a driver call does not return CUDA_SUCCESS.
#define checkCudaErrors(Call) checkCudaResult((Call), #Call, __FILE__, __LINE__)

/// checkCudaErrors's body.
inline void checkCudaResult(CUresult Result, const char *Call, const char *File,
                            int Line) {
  if (Result == CUDA_SUCCESS)
    return;
  const char *Name = NULL;
  const char *Text = NULL;
  cuGetErrorName(Result, &Name);
  cuGetErrorString(Result, &Text);
  fprintf(stderr, "%s:%d: %s returned %d (%s: %s); expected CUDA_SUCCESS\n",
          File, Line, Call, (int)Result, Name ? Name : "unknown error",
          Text ? Text : "no description");
  exit(EXIT_FAILURE);
}

/// Stops the program unless Cond holds; the message says what was expected.
#define checkThat(Cond, ...)                                                   \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__);            \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      exit(EXIT_FAILURE);                                                      \
    }                                                                          \
  } while (0)

/// Creates a context on Device, current to this thread, with cuCtxCreate as
/// this header declares it: CUDA 13's takes creation parameters (none here).
inline CUcontext createContext(CUdevice Device) {
  CUcontext Context;
#if CUDA_VERSION >= 13000
  checkCudaErrors(cuCtxCreate(&Context, NULL, 0, Device));
#else
  checkCudaErrors(cuCtxCreate(&Context, 0, Device));
#endif
  return Context;
}

/// Initializes the driver, prints the first device's name and creates a
/// context on it, current to this thread.
inline CUcontext createContextOnFirstDevice(CUdevice *Device) {
  checkCudaErrors(cuInit(0));
  int Count = 0;
  checkCudaErrors(cuDeviceGetCount(&Count));
  checkThat(Count > 0, "at least one CUDA device, found %d", Count);
  checkCudaErrors(cuDeviceGet(Device, 0));
  char Name[256];
  checkCudaErrors(cuDeviceGetName(Name, sizeof(Name), *Device));
  printf("Device 0: %s\n", Name);
  return createContext(*Device);
}

/// The path of kernel image Name, in memory from malloc: the build puts
/// images next to the executable, whose path Argv0 is (as the samples find
/// their data files). Stops the program when there is no such file.
inline char *findKernelImage(const char *Argv0, const char *Name) {
  const char *Slash = strrchr(Argv0, '/');
  size_t DirLength = Slash ? (size_t)(Slash - Argv0) + 1 : 0;
  char *Path = (char *)malloc(DirLength + strlen(Name) + 1);
  checkThat(Path != NULL, "memory for a path");
  memcpy(Path, Argv0, DirLength);
  strcpy(Path + DirLength, Name);
  FILE *File = fopen(Path, "rb");
  checkThat(File != NULL, "the kernel image %s to exist", Path);
  fclose(File);
  return Path;
}

/// The bytes of file Path, in memory from malloc, for cuModuleLoadData; their
/// number goes to *Size.
inline void *readFile(const char *Path, size_t *Size) {
  FILE *File = fopen(Path, "rb");
  checkThat(File != NULL, "%s to be readable", Path);
  checkThat(fseek(File, 0, SEEK_END) == 0, "%s to be seekable", Path);
  long Length = ftell(File);
  checkThat(Length > 0, "%s to be non-empty", Path);
  rewind(File);
  void *Bytes = malloc((size_t)Length);
  checkThat(Bytes != NULL, "memory for the %ld bytes of %s", Length, Path);
  checkThat(fread(Bytes, 1, (size_t)Length, File) == (size_t)Length,
            "to read the %ld bytes of %s", Length, Path);
  fclose(File);
  *Size = (size_t)Length;
  return Bytes;
}

#endif /* __cuda_cuda_h__ */

#endif /* PROGRAMS_DRVAPI_HELPERS_H */

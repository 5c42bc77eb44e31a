/* Device memory shared between processes with the legacy IPC API, as
   NVIDIA's simpleIPC sample shares it: the parent allocates with cuMemAlloc,
   fills the memory and gets its cuIpcGetMemHandle; child processes (fork,
   then exec of this program) receive the 64-byte handle as an argument,
   open it (cuIpcOpenMemHandle), run a kernel that updates their share of
   the elements, and close it (cuIpcCloseMemHandle). The parent then checks
   every element. Prints PASSED when all were updated. */
#include <cuda.h>

#include "drvapi_helpers.h"
#include "process_helpers.h"

static const int N = 1 << 20;
static const unsigned Children = 2;

/* The parent's value of element I. */
static unsigned initialValue(int I) { return (unsigned)I * 7u + 3u; }

/* Handle as 128 hexadecimal digits. */
static std::string toHex(const CUipcMemHandle &Handle) {
  static const char Digits[] = "0123456789abcdef";
  std::string Hex;
  for (int I = 0; I < CU_IPC_HANDLE_SIZE; ++I) {
    unsigned char Byte = (unsigned char)Handle.reserved[I];
    Hex += Digits[Byte >> 4];
    Hex += Digits[Byte & 15];
  }
  return Hex;
}

/* The handle written by toHex. */
static CUipcMemHandle fromHex(const char *Hex) {
  checkThat(strlen(Hex) == 2 * CU_IPC_HANDLE_SIZE,
            "a handle of %d hexadecimal digits, got %zu",
            2 * CU_IPC_HANDLE_SIZE, strlen(Hex));
  CUipcMemHandle Handle;
  for (int I = 0; I < CU_IPC_HANDLE_SIZE; ++I) {
    unsigned Byte = 0;
    checkThat(sscanf(Hex + 2 * I, "%2x", &Byte) == 1,
              "hexadecimal digits at %d of the handle", 2 * I);
    Handle.reserved[I] = (char)Byte;
  }
  return Handle;
}

/* A child: opens the parent's memory and updates its share of it. */
static int childMain(const char *Argv0, unsigned Child, const char *Hex) {
  checkCudaErrors(cuInit(0));
  CUdevice Device;
  checkCudaErrors(cuDeviceGet(&Device, 0));
  CUcontext Context = createContext(Device);

  CUipcMemHandle Handle = fromHex(Hex);
  CUdeviceptr Data;
  checkCudaErrors(
      cuIpcOpenMemHandle(&Data, Handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));

  char *Path = findKernelImage(Argv0, "ipcMemHandle_kernel.cubin");
  CUmodule Module;
  checkCudaErrors(cuModuleLoad(&Module, Path));
  CUfunction Update;
  checkCudaErrors(cuModuleGetFunction(&Update, Module, "updateShare"));
  int Count = N;
  unsigned ChildCount = Children;
  void *Args[] = {&Data, &Count, &ChildCount, &Child};
  checkCudaErrors(cuLaunchKernel(Update, (N + 255) / 256, 1, 1, 256, 1, 1, 0,
                                 NULL, Args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  printf("child %u: updated its share of %d elements\n", Child, N);

  checkCudaErrors(cuIpcCloseMemHandle(Data));
  checkCudaErrors(cuModuleUnload(Module));
  free(Path);
  checkCudaErrors(cuCtxDestroy(Context));
  return EXIT_SUCCESS;
}

int main(int Argc, char **Argv) {
  if (Argc == 4 && strcmp(Argv[1], "child") == 0)
    return childMain(Argv[0], (unsigned)atoi(Argv[2]), Argv[3]);

  printf("Device memory shared between processes (cuIpcGetMemHandle)\n");
  CUdevice Device;
  CUcontext Context = createContextOnFirstDevice(&Device);

  std::vector<unsigned> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = initialValue(I);
  CUdeviceptr Data;
  checkCudaErrors(cuMemAlloc(&Data, N * sizeof(unsigned)));
  checkCudaErrors(cuMemcpyHtoD(Data, Host.data(), N * sizeof(unsigned)));
  CUipcMemHandle Handle;
  checkCudaErrors(cuIpcGetMemHandle(&Handle, Data));

  std::string Hex = toHex(Handle);
  pid_t Pids[Children];
  for (unsigned Child = 0; Child < Children; ++Child) {
    std::vector<std::string> Args;
    Args.push_back("child");
    Args.push_back(std::to_string(Child));
    Args.push_back(Hex);
    Pids[Child] = spawnSelf(Argv[0], Args, -1);
  }
  bool ChildrenPassed = true;
  for (unsigned Child = 0; Child < Children; ++Child)
    ChildrenPassed &= waitForChild(Pids[Child], "a child process");
  checkThat(ChildrenPassed, "every child to exit with status 0");

  checkCudaErrors(cuMemcpyDtoH(Host.data(), Data, N * sizeof(unsigned)));
  for (int I = 0; I < N; ++I) {
    unsigned Child = (unsigned)I % Children;
    unsigned Expected = 2u * initialValue(I) + Child + 1u;
    checkThat(Host[I] == Expected,
              "element %d to be %u after child %u's update, got %u", I,
              Expected, Child, Host[I]);
  }
  printf("%d elements updated by %u children\n", N, Children);

  checkCudaErrors(cuMemFree(Data));
  checkCudaErrors(cuCtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

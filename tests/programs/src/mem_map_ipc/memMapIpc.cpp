/* Memory shared between processes with the virtual memory management API,
   as NVIDIA's memMapIPCDrv sample shares it: the parent creates allocations
   that can be exported as POSIX file descriptors (cuMemCreate with
   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, cuMemExportToShareableHandle),
   starts child processes (fork, then exec of this program) and sends them
   the descriptors over a Unix-domain socket. Each child imports them
   (cuMemImportFromShareableHandle), maps them side by side and runs a kernel
   that writes its share of the slots across all of them; the parent then
   checks every slot. Prints PASSED when all hold what the children wrote. */
#include <cuda.h>

#include "drvapi_helpers.h"
#include "process_helpers.h"

#include <stdint.h>

static const unsigned Children = 2;
static const unsigned Chunks = 3;
static const unsigned Sentinel = 0xFFFFFFFFu;

/* What the parent sends each child along with the descriptors. */
struct ShareMessage {
  uint64_t ChunkSize;
  uint32_t Chunks;
  uint32_t Child;
};

/* The properties of an allocation that can be exported as a descriptor. */
static CUmemAllocationProp shareableProperties(CUdevice Device) {
  CUmemAllocationProp Prop = {};
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = Device;
  Prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return Prop;
}

/* Reserves a range for Handles, maps them side by side (ChunkSize bytes
   each) and makes the range readable and writable from Device. */
static CUdeviceptr mapSideBySide(const CUmemGenericAllocationHandle *Handles,
                                 unsigned Count, size_t ChunkSize,
                                 CUdevice Device) {
  CUdeviceptr Base;
  checkCudaErrors(cuMemAddressReserve(&Base, Count * ChunkSize, 0, 0, 0));
  for (unsigned I = 0; I < Count; ++I)
    checkCudaErrors(
        cuMemMap(Base + I * ChunkSize, ChunkSize, 0, Handles[I], 0));
  CUmemAccessDesc Access = {};
  Access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Access.location.id = Device;
  Access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  checkCudaErrors(cuMemSetAccess(Base, Count * ChunkSize, &Access, 1));
  return Base;
}

/* Unmaps the Count chunks of ChunkSize bytes at Base and frees the range. */
static void unmapSideBySide(CUdeviceptr Base, unsigned Count,
                            size_t ChunkSize) {
  for (unsigned I = 0; I < Count; ++I)
    checkCudaErrors(cuMemUnmap(Base + I * ChunkSize, ChunkSize));
  checkCudaErrors(cuMemAddressFree(Base, Count * ChunkSize));
}

/* A child: receives the descriptors on Socket, maps them and runs
   stampSlots over the whole range. */
static int childMain(const char *Argv0, int Socket) {
  CUdevice Device;
  checkCudaErrors(cuInit(0));
  checkCudaErrors(cuDeviceGet(&Device, 0));
  CUcontext Context = createContext(Device);

  ShareMessage Message;
  std::vector<int> Fds =
      receiveWithDescriptors(Socket, &Message, sizeof(Message), Chunks);
  close(Socket);
  checkThat(Message.Chunks == Chunks, "%u chunks in the message, got %u",
            Chunks, Message.Chunks);
  size_t ChunkSize = (size_t)Message.ChunkSize;

  CUmemGenericAllocationHandle Handles[Chunks];
  for (unsigned I = 0; I < Chunks; ++I) {
    checkCudaErrors(cuMemImportFromShareableHandle(
        &Handles[I], (void *)(uintptr_t)Fds[I],
        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    // The imported handle holds the memory; the descriptor can go.
    close(Fds[I]);
  }
  CUdeviceptr Base = mapSideBySide(Handles, Chunks, ChunkSize, Device);
  for (unsigned I = 0; I < Chunks; ++I)
    checkCudaErrors(cuMemRelease(Handles[I]));

  char *Path = findKernelImage(Argv0, "memMapIpc_kernel.ptx");
  CUmodule Module;
  checkCudaErrors(cuModuleLoad(&Module, Path));
  CUfunction Stamp;
  checkCudaErrors(cuModuleGetFunction(&Stamp, Module, "stampSlots"));
  unsigned long long N = Chunks * ChunkSize / sizeof(unsigned);
  unsigned ChildCount = Children, Child = Message.Child, Mark = Sentinel;
  void *Args[] = {&Base, &N, &ChildCount, &Child, &Mark};
  checkCudaErrors(
      cuLaunchKernel(Stamp, 256, 1, 1, 256, 1, 1, 0, NULL, Args, NULL));
  checkCudaErrors(cuCtxSynchronize());
  printf("child %u: wrote its slots of %llu\n", Child, N);

  checkCudaErrors(cuModuleUnload(Module));
  free(Path);
  unmapSideBySide(Base, Chunks, ChunkSize);
  checkCudaErrors(cuCtxDestroy(Context));
  return EXIT_SUCCESS;
}

int main(int Argc, char **Argv) {
  if (Argc == 3 && strcmp(Argv[1], "child") == 0)
    return childMain(Argv[0], atoi(Argv[2]));

  printf("Memory shared between processes (virtual memory management)\n");
  CUdevice Device;
  CUcontext Context = createContextOnFirstDevice(&Device);
  int Vmm = 0, Fd = 0;
  checkCudaErrors(cuDeviceGetAttribute(
      &Vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, Device));
  checkCudaErrors(cuDeviceGetAttribute(
      &Fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
      Device));
  checkThat(Vmm == 1 && Fd == 1,
            "virtual memory management (%d) and POSIX descriptor handles (%d) "
            "to be supported (1)",
            Vmm, Fd);

  CUmemAllocationProp Prop = shareableProperties(Device);
  size_t ChunkSize = 0;
  checkCudaErrors(cuMemGetAllocationGranularity(
      &ChunkSize, &Prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle Handles[Chunks];
  std::vector<int> Fds(Chunks);
  for (unsigned I = 0; I < Chunks; ++I) {
    checkCudaErrors(cuMemCreate(&Handles[I], ChunkSize, &Prop, 0));
    checkCudaErrors(cuMemExportToShareableHandle(
        &Fds[I], Handles[I], CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    checkThat(Fds[I] >= 0, "a file descriptor for allocation %u, got %d", I,
              Fds[I]);
  }
  CUdeviceptr Base = mapSideBySide(Handles, Chunks, ChunkSize, Device);
  const size_t N = Chunks * ChunkSize / sizeof(unsigned);
  checkCudaErrors(cuMemsetD32(Base, Sentinel, N));
  printf("%u allocations of %zu bytes, %zu slots\n", Chunks, ChunkSize, N);

  pid_t Pids[Children];
  for (unsigned Child = 0; Child < Children; ++Child) {
    int Pair[2];
    checkThat(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Pair) == 0,
              "a Unix-domain socket pair (%s)", strerror(errno));
    std::vector<std::string> Args;
    Args.push_back("child");
    Args.push_back(std::to_string(Pair[1]));
    Pids[Child] = spawnSelf(Argv[0], Args, Pair[1]);
    close(Pair[1]);
    ShareMessage Message = {ChunkSize, Chunks, Child};
    sendWithDescriptors(Pair[0], &Message, sizeof(Message), Fds);
    close(Pair[0]);
  }
  bool ChildrenPassed = true;
  for (unsigned Child = 0; Child < Children; ++Child)
    ChildrenPassed &= waitForChild(Pids[Child], "a child process");
  checkThat(ChildrenPassed, "every child to exit with status 0");

  std::vector<unsigned> Host(N);
  checkCudaErrors(cuMemcpyDtoH(Host.data(), Base, N * sizeof(unsigned)));
  for (size_t I = 0; I < N; ++I) {
    unsigned Child = (unsigned)(I % Children);
    unsigned Expected = (Child + 1u) * 0x01000000u + (unsigned)I;
    checkThat(Host[I] == Expected,
              "slot %zu to hold 0x%08x from child %u, got 0x%08x (0xdeadbeef: "
              "the child did not see the parent's 0x%08x)",
              I, Expected, Child, Host[I], Sentinel);
  }
  printf("%zu slots hold what %u children wrote\n", N, Children);

  unmapSideBySide(Base, Chunks, ChunkSize);
  for (unsigned I = 0; I < Chunks; ++I) {
    checkCudaErrors(cuMemRelease(Handles[I]));
    close(Fds[I]);
  }
  checkCudaErrors(cuCtxDestroy(Context));
  printf("PASSED\n");
  return EXIT_SUCCESS;
}

//===- IpcPeer.cpp - The other process of the IPC tests -------------------===//
//
//   api_ipc_peer fd SOCKET BYTES MODULE
//       Receives a cuMemExportToShareableHandle descriptor on SOCKET
//       (SCM_RIGHTS), imports it and maps BYTES of it (VirtualMemoryTest).
//   api_ipc_peer handle REPLY HEX BYTES MODULE
//       Opens the cuIpcGetMemHandle handle HEX (128 hex digits) of a
//       BYTES-byte allocation (IpcTest).
//   api_ipc_peer event REPLY HEX EVENT BYTES MODULE
//       As handle, and opens the cuIpcGetEventHandle handle EVENT; records
//       the event after its kernel and answers at once, before the kernel
//       is known to be done: the test waits for the event (IpcTest).
//
// Then writes the sum of the memory's 32-bit words to SOCKET / REPLY, after
// adding 1 to every word with MODULE's addOne kernel and letting the memory
// go. Exits 0 on success.
//
//===----------------------------------------------------------------------===//

#include "PeerProcess.h"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using cuapi::receiveFd;

namespace {

void check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "api_ipc_peer: %s failed: %s\n", What,
               Name ? Name : "?");
  std::exit(2);
}

/// Imports and maps the descriptor that arrives on \p Socket.
CUdeviceptr mapDescriptor(int Socket, size_t Bytes, CUdevice Dev,
                          CUmemGenericAllocationHandle &H) {
  int Fd = receiveFd(Socket);
  if (Fd < 0) {
    std::fprintf(stderr, "api_ipc_peer: no descriptor received\n");
    std::exit(1);
  }
  check(cuMemImportFromShareableHandle(
            &H, reinterpret_cast<void *>(static_cast<intptr_t>(Fd)),
            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
        "cuMemImportFromShareableHandle");
  close(Fd);
  CUdeviceptr Base;
  check(cuMemAddressReserve(&Base, Bytes, 0, 0, 0), "cuMemAddressReserve");
  check(cuMemMap(Base, Bytes, 0, H, 0), "cuMemMap");
  CUmemAccessDesc Desc;
  std::memset(&Desc, 0, sizeof(Desc));
  Desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Desc.location.id = Dev;
  Desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  check(cuMemSetAccess(Base, Bytes, &Desc, 1), "cuMemSetAccess");
  return Base;
}

/// Reads a 64-byte IPC handle written as 128 hex digits in \p Hex.
template <typename HandleT> HandleT parseHandle(const char *Hex) {
  HandleT Handle;
  if (std::strlen(Hex) != 2 * sizeof(Handle)) {
    std::fprintf(stderr, "api_ipc_peer: a handle has 128 hex digits\n");
    std::exit(1);
  }
  for (size_t I = 0; I < sizeof(Handle); ++I) {
    char Digits[3] = {Hex[2 * I], Hex[2 * I + 1], 0};
    Handle.reserved[I] = static_cast<char>(std::strtoul(Digits, nullptr, 16));
  }
  return Handle;
}

/// Opens the IPC memory handle written as 128 hex digits in \p Hex.
CUdeviceptr openHandle(const char *Hex) {
  CUipcMemHandle Handle = parseHandle<CUipcMemHandle>(Hex);
  CUdeviceptr Base;
  check(cuIpcOpenMemHandle(&Base, Handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
        "cuIpcOpenMemHandle");
  return Base;
}

} // namespace

int main(int Argc, char **Argv) {
  bool Descriptor = Argc == 5 && std::strcmp(Argv[1], "fd") == 0;
  bool IpcHandle = Argc == 6 && std::strcmp(Argv[1], "handle") == 0;
  bool IpcEvent = Argc == 7 && std::strcmp(Argv[1], "event") == 0;
  if (!Descriptor && !IpcHandle && !IpcEvent) {
    std::fprintf(stderr,
                 "usage: api_ipc_peer fd SOCKET BYTES MODULE\n"
                 "       api_ipc_peer handle REPLY HEX BYTES MODULE\n"
                 "       api_ipc_peer event REPLY HEX EVENT BYTES MODULE\n");
    return 1;
  }
  int Reply = std::atoi(Argv[2]);
  size_t Bytes = std::strtoull(Argv[Argc - 2], nullptr, 10);
  const char *Module = Argv[Argc - 1];
  check(cuInit(0), "cuInit");
  CUdevice Dev;
  check(cuDeviceGet(&Dev, 0), "cuDeviceGet");
  CUcontext Ctx;
  check(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");

  CUmemGenericAllocationHandle H = 0;
  CUdeviceptr Base =
      Descriptor ? mapDescriptor(Reply, Bytes, Dev, H) : openHandle(Argv[3]);
  if (IpcEvent) {
    CUevent Done;
    check(cuIpcOpenEventHandle(&Done, parseHandle<CUipcEventHandle>(Argv[4])),
          "cuIpcOpenEventHandle");
    CUmodule Mod;
    check(cuModuleLoad(&Mod, Module), "cuModuleLoad");
    CUfunction AddOne;
    check(cuModuleGetFunction(&AddOne, Mod, "addOne"), "cuModuleGetFunction");
    int N = static_cast<int>(Bytes / 4);
    void *Args[] = {&Base, &N};
    // Several passes, so that the kernels are likely still running when the
    // other process starts waiting.
    for (int Pass = 0; Pass < 20; ++Pass)
      check(cuLaunchKernel(AddOne, (N + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                           Args, nullptr),
            "cuLaunchKernel");
    check(cuEventRecord(Done, nullptr), "cuEventRecord");
    unsigned long long Token = 20;
    if (write(Reply, &Token, sizeof(Token)) != sizeof(Token))
      return 1;
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    check(cuEventDestroy(Done), "cuEventDestroy");
    check(cuIpcCloseMemHandle(Base), "cuIpcCloseMemHandle");
    check(cuModuleUnload(Mod), "cuModuleUnload");
    check(cuDevicePrimaryCtxRelease(Dev), "cuDevicePrimaryCtxRelease");
    return 0;
  }

  std::vector<unsigned> Words(Bytes / 4);
  check(cuMemcpyDtoH(Words.data(), Base, Words.size() * 4), "cuMemcpyDtoH");
  unsigned long long Sum = 0;
  for (unsigned W : Words)
    Sum += W;

  CUmodule Mod;
  check(cuModuleLoad(&Mod, Module), "cuModuleLoad");
  CUfunction AddOne;
  check(cuModuleGetFunction(&AddOne, Mod, "addOne"), "cuModuleGetFunction");
  int N = static_cast<int>(Words.size());
  void *Args[] = {&Base, &N};
  check(cuLaunchKernel(AddOne, (N + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                       Args, nullptr),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");

  if (Descriptor) {
    check(cuMemUnmap(Base, Bytes), "cuMemUnmap");
    check(cuMemRelease(H), "cuMemRelease");
    check(cuMemAddressFree(Base, Bytes), "cuMemAddressFree");
  } else {
    check(cuIpcCloseMemHandle(Base), "cuIpcCloseMemHandle");
  }
  check(cuModuleUnload(Mod), "cuModuleUnload");
  check(cuDevicePrimaryCtxRelease(Dev), "cuDevicePrimaryCtxRelease");
  // Answer last: the test reads the memory once the answer has come.
  if (write(Reply, &Sum, sizeof(Sum)) != sizeof(Sum))
    return 1;
  return 0;
}

//===- VmmPeer.cpp - The other process of VirtualMemoryTest ---------------===//
//
//   api_vmm_peer SOCKET BYTES MODULE
//
// Receives an allocation's file descriptor on SOCKET (SCM_RIGHTS), imports
// and maps it, writes the sum of its 32-bit words back to SOCKET, then adds 1
// to every word with MODULE's addOne kernel. Exits 0 on success.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace {

void check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "api_vmm_peer: %s failed: %s\n", What,
               Name ? Name : "?");
  std::exit(2);
}

int receiveFd(int Socket) {
  char Byte = 0;
  iovec Io{&Byte, 1};
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))] = {};
  msghdr Msg{};
  Msg.msg_iov = &Io;
  Msg.msg_iovlen = 1;
  Msg.msg_control = Control;
  Msg.msg_controllen = sizeof(Control);
  if (recvmsg(Socket, &Msg, 0) != 1)
    return -1;
  cmsghdr *C = CMSG_FIRSTHDR(&Msg);
  if (!C || C->cmsg_type != SCM_RIGHTS)
    return -1;
  int Fd = -1;
  std::memcpy(&Fd, CMSG_DATA(C), sizeof(int));
  return Fd;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 4) {
    std::fprintf(stderr, "usage: api_vmm_peer SOCKET BYTES MODULE\n");
    return 1;
  }
  int Socket = std::atoi(Argv[1]);
  size_t Bytes = std::strtoull(Argv[2], nullptr, 10);
  int Fd = receiveFd(Socket);
  if (Fd < 0) {
    std::fprintf(stderr, "api_vmm_peer: no descriptor received\n");
    return 1;
  }
  check(cuInit(0), "cuInit");
  CUdevice Dev;
  check(cuDeviceGet(&Dev, 0), "cuDeviceGet");
  CUcontext Ctx;
  check(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");

  CUmemGenericAllocationHandle H;
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

  std::vector<unsigned> Words(Bytes / 4);
  check(cuMemcpyDtoH(Words.data(), Base, Bytes), "cuMemcpyDtoH");
  unsigned long long Sum = 0;
  for (unsigned W : Words)
    Sum += W;

  CUmodule Mod;
  check(cuModuleLoad(&Mod, Argv[3]), "cuModuleLoad");
  CUfunction AddOne;
  check(cuModuleGetFunction(&AddOne, Mod, "addOne"), "cuModuleGetFunction");
  int N = static_cast<int>(Words.size());
  void *Args[] = {&Base, &N};
  check(cuLaunchKernel(AddOne, (N + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                       Args, nullptr),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), "cuCtxSynchronize");

  check(cuMemUnmap(Base, Bytes), "cuMemUnmap");
  check(cuMemRelease(H), "cuMemRelease");
  check(cuMemAddressFree(Base, Bytes), "cuMemAddressFree");
  check(cuModuleUnload(Mod), "cuModuleUnload");
  check(cuDevicePrimaryCtxRelease(Dev), "cuDevicePrimaryCtxRelease");
  // Answer last: the test reads the memory once the answer has come.
  if (write(Socket, &Sum, sizeof(Sum)) != sizeof(Sum))
    return 1;
  return 0;
}

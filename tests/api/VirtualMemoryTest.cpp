//===- VirtualMemoryTest.cpp - cuMemCreate, cuMemMap and their companions
//--===//
//
// Virtual memory management: physical allocations, address reservations,
// mappings, access rights, and sharing an allocation as a POSIX file
// descriptor with this process and with another one (api_ipc_peer).
// Kernels: kernels/async.cu (addOne).
//
//===----------------------------------------------------------------------===//

#include "DriverTest.h"
#include "PeerProcess.h"

#include <cstring>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace cuapi;

namespace {

constexpr size_t MiB = size_t(1) << 20;

CUmemAllocationProp pinnedOn(CUdevice Dev, unsigned HandleTypes = 0) {
  CUmemAllocationProp Prop;
  std::memset(&Prop, 0, sizeof(Prop));
  Prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  Prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Prop.location.id = Dev;
  Prop.requestedHandleTypes =
      static_cast<CUmemAllocationHandleType>(HandleTypes);
  return Prop;
}

CUmemAccessDesc readWriteOn(CUdevice Dev) {
  CUmemAccessDesc Desc;
  std::memset(&Desc, 0, sizeof(Desc));
  Desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Desc.location.id = Dev;
  Desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return Desc;
}

class VirtualMemory : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    Prop = pinnedOn(Dev);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemGetAllocationGranularity(&Granularity, &Prop,
                                            CU_MEM_ALLOC_GRANULARITY_MINIMUM))
        << "setup: the granularity of device memory";
  }

  /// Reserves \p Chunks granules and maps a fresh allocation of one granule
  /// into each, read-write: one contiguous range over several allocations.
  void mapChunks(unsigned Chunks, CUdeviceptr &Base,
                 std::vector<CUmemGenericAllocationHandle> &Handles) {
    size_t Bytes = Chunks * Granularity;
    ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&Base, Bytes, 0, 0, 0));
    for (unsigned I = 0; I < Chunks; ++I) {
      CUmemGenericAllocationHandle H;
      ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Prop, 0));
      Handles.push_back(H);
      ASSERT_CU(CUDA_SUCCESS,
                cuMemMap(Base + I * Granularity, Granularity, 0, H, 0));
    }
    CUmemAccessDesc Desc = readWriteOn(Dev);
    ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(Base, Bytes, &Desc, 1));
  }

  void unmapChunks(CUdeviceptr Base,
                   const std::vector<CUmemGenericAllocationHandle> &Handles) {
    size_t Bytes = Handles.size() * Granularity;
    EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(Base, Bytes));
    for (CUmemGenericAllocationHandle H : Handles)
      EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
    EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Base, Bytes));
  }

  CUmemAllocationProp Prop;
  size_t Granularity = 0;
};

TEST_F(VirtualMemory, DeviceSupportsItWithFileDescriptors) {
  int Value = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Value, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                Dev));
  EXPECT_EQ(1, Value) << "attribute 102: virtual memory management works";
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(
                &Value,
                CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                Dev));
  EXPECT_EQ(1, Value) << "attribute 103: allocations export as descriptors";
}

TEST_F(VirtualMemory, GranularityIsTwoMebibytes) {
  EXPECT_EQ(2 * MiB, Granularity) << "the minimum granularity";
  size_t Recommended = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemGetAllocationGranularity(
                &Recommended, &Prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  EXPECT_EQ(2 * MiB, Recommended) << "the recommended granularity";
}

TEST_F(VirtualMemory, GranularityChecksItsArguments) {
  size_t G = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(nullptr, &Prop,
                                          CU_MEM_ALLOC_GRANULARITY_MINIMUM))
      << "no place for the answer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(&G, nullptr,
                                          CU_MEM_ALLOC_GRANULARITY_MINIMUM))
      << "no properties";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(
                &G, &Prop, static_cast<CUmemAllocationGranularity_flags>(7)))
      << "7 is not a granularity option";
  // NVIDIA's driver does not look into the properties here (observed).
  CUmemAllocationProp Loose = Prop;
  Loose.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  Loose.location.id = 999;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAllocationGranularity(
                              &G, &Loose, CU_MEM_ALLOC_GRANULARITY_MINIMUM))
      << "the granularity does not depend on the properties' fields";
  EXPECT_EQ(2 * MiB, G);
}

TEST_F(VirtualMemory, CreateChecksItsProperties) {
  CUmemGenericAllocationHandle H;
  CUmemAllocationProp Bad = Prop;
  Bad.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&H, Granularity, &Bad, 0))
      << "an invalid allocation type";
  Bad = Prop;
  Bad.location.id = 999;
  EXPECT_NE(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Bad, 0))
      << "a device that does not exist";
  Bad = Prop;
  Bad.location.type = CU_MEM_LOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&H, Granularity, &Bad, 0))
      << "an invalid location type";
}

TEST_F(VirtualMemory, CreateChecksSizeAndFlags) {
  CUmemGenericAllocationHandle H;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&H, 0, &Prop, 0))
      << "a zero-byte allocation";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemCreate(&H, Granularity + 4096, &Prop, 0))
      << "a size that is not a multiple of the granularity";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&H, Granularity, &Prop, 1))
      << "flags must be 0";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemCreate(nullptr, Granularity, &Prop, 0))
      << "no place for the handle";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&H, Granularity, nullptr, 0))
      << "no properties";
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, 2 * Granularity, &Prop, 0))
      << "two granules";
  CUmemAllocationProp Read;
  std::memset(&Read, 0xff, sizeof(Read));
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&Read, H));
  EXPECT_EQ(CU_MEM_ALLOCATION_TYPE_PINNED, Read.type) << "the type given";
  EXPECT_EQ(CU_MEM_LOCATION_TYPE_DEVICE, Read.location.type);
  EXPECT_EQ(Dev, Read.location.id) << "the device given";
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
}

TEST_F(VirtualMemory, ReserveChecksSizeAndAlignment) {
  CUdeviceptr P = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&P, 0, 0, 0, 0))
      << "an empty range";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAddressReserve(&P, Granularity + 4096, 0, 0, 0))
      << "a size that is not a multiple of the granularity";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAddressReserve(&P, Granularity, 3, 0, 0))
      << "an alignment that is not a power of two";
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&P, 4 * Granularity, 0, 0, 0));
  EXPECT_EQ(0u, P % Granularity) << "aligned to the granularity";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(P, 2 * Granularity))
      << "only the whole reservation can be freed";
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(P, 4 * Granularity));

  CUdeviceptr Aligned = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAddressReserve(&Aligned, Granularity, 16 * Granularity, 0, 0));
  EXPECT_EQ(0u, Aligned % (16 * Granularity)) << "the alignment asked for";
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Aligned, Granularity));
}

TEST_F(VirtualMemory, MappedRangeWorksForCopiesAndKernels) {
  CUdeviceptr Base = 0;
  std::vector<CUmemGenericAllocationHandle> Handles;
  mapChunks(3, Base, Handles);
  if (HasFatalFailure())
    return;
  // One range over three allocations: the contiguity that vectorAddMMAP
  // and growing arrays rely on.
  size_t Count = 3 * Granularity / sizeof(int);
  std::vector<int> Host(Count);
  for (size_t I = 0; I < Count; ++I)
    Host[I] = static_cast<int>(I);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(Base, Host.data(), Count * sizeof(int)))
      << "a copy that spans the three mappings";

  CUmodule Mod;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoad(&Mod, CUCPU_API_ASYNC_MODULE));
  CUfunction AddOne;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&AddOne, Mod, "addOne"));
  int N = static_cast<int>(Count);
  void *Args[] = {&Base, &N};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(AddOne, (N + 255) / 256, 1, 1, 256, 1,
                                         1, 0, nullptr, Args, nullptr))
      << "a kernel over the mapped range";
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize()) << "the kernel does not fault";

  std::vector<int> Back(Count);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), Base, Count * sizeof(int)));
  for (size_t I = 0; I < Count; ++I)
    ASSERT_EQ(static_cast<int>(I) + 1, Back[I]) << "element " << I;

  CUdeviceptr RangeBase = 0;
  size_t RangeSize = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&RangeBase, &RangeSize,
                                               Base + Granularity + 8));
  EXPECT_EQ(Base + Granularity, RangeBase)
      << "the mapping holding the address (observed on NVIDIA's driver)";
  EXPECT_EQ(Granularity, RangeSize) << "one mapping of one granule";

  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(Mod));
  unmapChunks(Base, Handles);
}

TEST_F(VirtualMemory, MapChecksRangeOffsetAndOverlap) {
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, 2 * Granularity, &Prop, 0));
  CUdeviceptr Base = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&Base, 4 * Granularity, 0, 0, 0));

  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuMemMap(Base + 4096, Granularity, 0, H, 0))
      << "an address that is not a multiple of the granularity";
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuMemMap(Base, Granularity, Granularity, H, 0))
      << "the offset \"currently must be zero\"";
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(Base, 4 * Granularity, 0, H, 0))
      << "past the end of the allocation";
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(Base, Granularity, 0, H, 0))
      << "a part of the allocation: only whole ones are mapped";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(Base, Granularity, 0, H, 1))
      << "flags must be 0";
  CUdeviceptr Freed = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAddressReserve(&Freed, 2 * Granularity, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressFree(Freed, 2 * Granularity));
  EXPECT_NE(CUDA_SUCCESS, cuMemMap(Freed, 2 * Granularity, 0, H, 0))
      << "an address range no longer reserved";

  ASSERT_CU(CUDA_SUCCESS, cuMemMap(Base, 2 * Granularity, 0, H, 0))
      << "the whole allocation";
  EXPECT_NE(CUDA_SUCCESS,
            cuMemMap(Base + Granularity, 2 * Granularity, 0, H, 0))
      << "over a range already mapped";
  ASSERT_CU(CUDA_SUCCESS,
            cuMemMap(Base + 2 * Granularity, 2 * Granularity, 0, H, 0))
      << "the allocation mapped a second time, elsewhere";

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(Base, Granularity))
      << "half of a mapping";
  EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(Base, 4 * Granularity))
      << "two whole mappings side by side";
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Base, 4 * Granularity));
}

TEST_F(VirtualMemory, AccessIsNoneUntilSet) {
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Prop, 0));
  CUdeviceptr Base = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&Base, Granularity, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(Base, Granularity, 0, H, 0));

  CUmemLocation Here;
  Here.type = CU_MEM_LOCATION_TYPE_DEVICE;
  Here.id = Dev;
  unsigned long long Flags = 99;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAccess(&Flags, &Here, Base));
  EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_NONE, Flags) << "no access after cuMemMap";
  int Word = 7;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(Base, &Word, sizeof(Word)))
      << "a copy into memory the device may not access";

  CUmemAccessDesc Desc = readWriteOn(Dev);
  Desc.flags = static_cast<CUmemAccess_flags>(2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemSetAccess(Base, Granularity, &Desc, 1))
      << "2 is not an access flag";
  Desc = readWriteOn(Dev);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemSetAccess(Base, Granularity, &Desc, 0))
      << "no descriptor";
  EXPECT_CU(CUDA_SUCCESS, cuMemSetAccess(Base, Granularity, &Desc, 1));
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAccess(&Flags, &Here, Base + 100));
  EXPECT_EQ(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, Flags)
      << "after cuMemSetAccess";
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(Base, &Word, sizeof(Word)))
      << "the copy works now";

  EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(Base, Granularity));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetAccess(&Flags, &Here, Base))
      << "nothing is mapped there any more";
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Base, Granularity));
}

TEST_F(VirtualMemory, MemoryOutlivesItsHandleWhileMapped) {
  CUdeviceptr Base = 0;
  std::vector<CUmemGenericAllocationHandle> Handles;
  mapChunks(1, Base, Handles);
  if (HasFatalFailure())
    return;
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Base, 0x1234, Granularity / 4));
  // "The memory allocation will be freed when all outstanding mappings to
  // the memory are unmapped and when all outstanding references to the
  // handle (including its shareable counterparts) are also released."
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(Handles[0]));
  unsigned Word = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&Word, Base + 64, sizeof(Word)));
  EXPECT_EQ(0x1234u, Word) << "the mapping keeps the memory";

  CUmemGenericAllocationHandle Again;
  ASSERT_CU(CUDA_SUCCESS, cuMemRetainAllocationHandle(
                              &Again, reinterpret_cast<void *>(Base + 64)))
      << "any address inside the mapping names its allocation";
  CUmemAllocationProp Read;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&Read, Again));
  EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(Base, Granularity));
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(Again));
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Base, Granularity));

  int Stack = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRetainAllocationHandle(&Again, &Stack))
      << "memory that was never mapped";
}

TEST_F(VirtualMemory, RetainReturnsTheSameHandle) {
  CUdeviceptr Base = 0;
  std::vector<CUmemGenericAllocationHandle> Handles;
  mapChunks(2, Base, Handles);
  if (HasFatalFailure())
    return;
  CUmemGenericAllocationHandle Second;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRetainAllocationHandle(
                &Second, reinterpret_cast<void *>(Base + Granularity)));
  EXPECT_EQ(Handles[1], Second) << "the handle cuMemCreate returned";
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(Second)) << "the retain's reference";
  unmapChunks(Base, Handles);
}

TEST_F(VirtualMemory, FreeingAReservationStillMappedFails) {
  CUdeviceptr Base = 0;
  std::vector<CUmemGenericAllocationHandle> Handles;
  mapChunks(1, Base, Handles);
  if (HasFatalFailure())
    return;
  EXPECT_NE(CUDA_SUCCESS, cuMemAddressFree(Base, Granularity))
      << "memory is still mapped in the range";
  unmapChunks(Base, Handles);
}

TEST_F(VirtualMemory, CuMemFreeRefusesAMapping) {
  CUdeviceptr Base = 0;
  std::vector<CUmemGenericAllocationHandle> Handles;
  mapChunks(1, Base, Handles);
  if (HasFatalFailure())
    return;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(Base))
      << "cuMemFree frees cuMemAlloc's memory, not a mapping";
  unmapChunks(Base, Handles);
}

TEST_F(VirtualMemory, ExportNeedsTheRequestedHandleType) {
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Prop, 0));
  int Fd = -1;
  EXPECT_NE(CUDA_SUCCESS,
            cuMemExportToShareableHandle(
                &Fd, H, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
      << "the allocation did not request descriptors";
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
}

TEST_F(VirtualMemory, ExportedDescriptorSharesTheMemory) {
  CUmemAllocationProp Shareable =
      pinnedOn(Dev, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Shareable, 0));
  int Fd = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemExportToShareableHandle(
                &Fd, H, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  ASSERT_GE(Fd, 0) << "a file descriptor";
  CUmemGenericAllocationHandle Imported;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemImportFromShareableHandle(
                &Imported, reinterpret_cast<void *>(static_cast<intptr_t>(Fd)),
                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(Fd);

  CUdeviceptr A = 0, B = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&A, Granularity, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&B, Granularity, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(A, Granularity, 0, H, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(B, Granularity, 0, Imported, 0));
  CUmemAccessDesc Desc = readWriteOn(Dev);
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(A, Granularity, &Desc, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(B, Granularity, &Desc, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(A, 0xfeedbeef, Granularity / 4));
  unsigned Word = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemcpyDtoH(&Word, B + Granularity - 4, sizeof(Word)));
  EXPECT_EQ(0xfeedbeefu, Word) << "both mappings show the same memory";

  for (CUdeviceptr P : {A, B}) {
    EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(P, Granularity));
    EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(P, Granularity));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(Imported));
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
}

TEST_F(VirtualMemory, AnotherProcessSeesTheMemory) {
  CUmemAllocationProp Shareable =
      pinnedOn(Dev, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Shareable, 0));
  CUdeviceptr Base = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&Base, Granularity, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(Base, Granularity, 0, H, 0));
  CUmemAccessDesc Desc = readWriteOn(Dev);
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(Base, Granularity, &Desc, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(Base, 41, Granularity / 4));
  int Fd = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemExportToShareableHandle(
                &Fd, H, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

  // The peer (api_ipc_peer) imports the descriptor, adds 1 to every word
  // with a kernel and answers with the sum it read before.
  int Sockets[2];
  ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, Sockets));
  std::string SocketArg = std::to_string(Sockets[1]);
  std::string SizeArg = std::to_string(Granularity);
  pid_t Peer = startPeer(CUCPU_API_IPC_PEER,
                         {"fd", SocketArg, SizeArg, CUCPU_API_ASYNC_MODULE});
  ASSERT_NE(0, Peer) << "start " << CUCPU_API_IPC_PEER;
  close(Sockets[1]);
  EXPECT_TRUE(sendFd(Sockets[0], Fd)) << "hand the descriptor to the peer";
  close(Fd);
  unsigned long long PeerSum = 0;
  EXPECT_EQ(ssize_t(sizeof(PeerSum)),
            read(Sockets[0], &PeerSum, sizeof(PeerSum)))
      << "the peer answers";
  close(Sockets[0]);
  EXPECT_TRUE(peerSucceeded(Peer)) << "the peer succeeded";
  EXPECT_EQ(41ull * (Granularity / 4), PeerSum)
      << "the peer read what this process wrote";

  std::vector<unsigned> Back(Granularity / 4);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Back.data(), Base, Granularity));
  for (size_t I = 0; I < Back.size(); ++I)
    ASSERT_EQ(42u, Back[I]) << "the peer's kernel wrote word " << I;

  EXPECT_CU(CUDA_SUCCESS, cuMemUnmap(Base, Granularity));
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
  EXPECT_CU(CUDA_SUCCESS, cuMemAddressFree(Base, Granularity));
}

} // namespace

namespace {

using VirtualMemoryNoContext = NoContextTest;

// cuda-samples' memMapIPCDrv creates and exports its memory after
// destroying every context: physical memory belongs to a device.
TEST_F(VirtualMemoryNoContext, CreateExportImportAndReleaseNeedNoContext) {
  CUmemAllocationProp Shareable =
      pinnedOn(Dev, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  size_t Granularity = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemGetAllocationGranularity(&Granularity, &Shareable,
                                          CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle H;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&H, Granularity, &Shareable, 0));
  int Fd = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemExportToShareableHandle(
                &Fd, H, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemGenericAllocationHandle Imported;
  EXPECT_CU(CUDA_SUCCESS,
            cuMemImportFromShareableHandle(
                &Imported, reinterpret_cast<void *>(static_cast<intptr_t>(Fd)),
                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(Fd);
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(Imported));
  EXPECT_CU(CUDA_SUCCESS, cuMemRelease(H));
}

} // namespace

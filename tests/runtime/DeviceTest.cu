//===- DeviceTest.cu - cudaGetDevice*, cudaSetDevice*, cudaDevice*
//---------===//

#include "RuntimeTest.h"

#include <cstring>
#include <string>

using namespace curt;

using Device = RuntimeTest;

static int deviceCount() {
  int N = 0;
  if (cudaGetDeviceCount(&N) != cudaSuccess)
    return 0;
  return N;
}

TEST_F(Device, CountIsAtLeastOne) {
  int N = -1;
  EXPECT_CUDA(cudaSuccess, cudaGetDeviceCount(&N)) << "count the devices";
  EXPECT_GE(N, 1) << "the suite runs on a machine with a device";
  report("cudaGetDeviceCount", N);
}

TEST_F(Device, CountNullRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetDeviceCount(nullptr))
      << "the output pointer is required";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetLastError())
      << "the failure is recorded as the last error";
}

TEST_F(Device, SetAndGetDevice) {
  int D = -1;
  EXPECT_CUDA(cudaSuccess, cudaGetDevice(&D)) << "the current device";
  EXPECT_EQ(0, D) << "the fixture made device 0 current";
  EXPECT_CUDA(cudaSuccess, cudaSetDevice(deviceCount() - 1))
      << "the last ordinal is valid";
  EXPECT_CUDA(cudaSuccess, cudaGetDevice(&D)) << "the current device";
  EXPECT_EQ(deviceCount() - 1, D) << "cudaSetDevice changed it";
}

TEST_F(Device, SetInvalidOrdinalRejected) {
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaSetDevice(deviceCount()))
      << "ordinals run from 0 to count - 1";
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaSetDevice(-1))
      << "a negative ordinal is invalid";
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaGetLastError())
      << "the failure is the last error";
  int D = -1;
  EXPECT_CUDA(cudaSuccess, cudaGetDevice(&D)) << "the current device";
  EXPECT_EQ(0, D) << "a failed cudaSetDevice keeps the current device";
}

TEST_F(Device, GetDeviceNullRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetDevice(nullptr))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

/// One attribute and the cudaDeviceProp field that must agree with it.
struct AttrField {
  cudaDeviceAttr Attr;
  const char *Name;
  long long Field;
};

TEST_F(Device, PropertiesAgreeWithAttributes) {
  cudaDeviceProp P;
  std::memset(&P, 0, sizeof(P));
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0))
      << "properties of device 0";
  const AttrField Fields[] = {
      {cudaDevAttrMaxThreadsPerBlock, "maxThreadsPerBlock",
       P.maxThreadsPerBlock},
      {cudaDevAttrMaxBlockDimX, "maxThreadsDim[0]", P.maxThreadsDim[0]},
      {cudaDevAttrMaxBlockDimY, "maxThreadsDim[1]", P.maxThreadsDim[1]},
      {cudaDevAttrMaxBlockDimZ, "maxThreadsDim[2]", P.maxThreadsDim[2]},
      {cudaDevAttrMaxGridDimX, "maxGridSize[0]", P.maxGridSize[0]},
      {cudaDevAttrMaxGridDimY, "maxGridSize[1]", P.maxGridSize[1]},
      {cudaDevAttrMaxGridDimZ, "maxGridSize[2]", P.maxGridSize[2]},
      {cudaDevAttrMaxSharedMemoryPerBlock, "sharedMemPerBlock",
       static_cast<long long>(P.sharedMemPerBlock)},
      {cudaDevAttrTotalConstantMemory, "totalConstMem",
       static_cast<long long>(P.totalConstMem)},
      {cudaDevAttrWarpSize, "warpSize", P.warpSize},
      {cudaDevAttrMaxRegistersPerBlock, "regsPerBlock", P.regsPerBlock},
      {cudaDevAttrMultiProcessorCount, "multiProcessorCount",
       P.multiProcessorCount},
      {cudaDevAttrComputeCapabilityMajor, "major", P.major},
      {cudaDevAttrComputeCapabilityMinor, "minor", P.minor},
      {cudaDevAttrL2CacheSize, "l2CacheSize", P.l2CacheSize},
      {cudaDevAttrMaxThreadsPerMultiProcessor, "maxThreadsPerMultiProcessor",
       P.maxThreadsPerMultiProcessor},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
       "sharedMemPerMultiprocessor",
       static_cast<long long>(P.sharedMemPerMultiprocessor)},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, "sharedMemPerBlockOptin",
       static_cast<long long>(P.sharedMemPerBlockOptin)},
      {cudaDevAttrPciBusId, "pciBusID", P.pciBusID},
      {cudaDevAttrPciDeviceId, "pciDeviceID", P.pciDeviceID},
      {cudaDevAttrPciDomainId, "pciDomainID", P.pciDomainID},
      {cudaDevAttrUnifiedAddressing, "unifiedAddressing", P.unifiedAddressing},
      {cudaDevAttrManagedMemory, "managedMemory", P.managedMemory},
      {cudaDevAttrCanMapHostMemory, "canMapHostMemory", P.canMapHostMemory},
      {cudaDevAttrConcurrentKernels, "concurrentKernels", P.concurrentKernels},
      {cudaDevAttrAsyncEngineCount, "asyncEngineCount", P.asyncEngineCount},
      {cudaDevAttrTextureAlignment, "textureAlignment",
       static_cast<long long>(P.textureAlignment)},
      {cudaDevAttrMaxBlocksPerMultiprocessor, "maxBlocksPerMultiProcessor",
       P.maxBlocksPerMultiProcessor},
  };
  for (const AttrField &F : Fields) {
    int V = -1;
    EXPECT_CUDA(cudaSuccess, cudaDeviceGetAttribute(&V, F.Attr, 0)) << F.Name;
    EXPECT_EQ(F.Field, V) << "cudaDeviceProp::" << F.Name
                          << " is the attribute's value";
    report(std::string("cudaDeviceProp.") + F.Name, F.Field);
  }
  EXPECT_GT(P.totalGlobalMem, 0u) << "the device has memory";
  EXPECT_NE('\0', P.name[0]) << "the device has a name";
  report("cudaDeviceProp.name", P.name);
}

TEST_F(Device, PropertiesOfTheWholeDeviceAreSane) {
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0))
      << "properties of device 0";
  EXPECT_EQ(32, P.warpSize) << "every CUDA device has 32-thread warps";
  EXPECT_EQ(1024, P.maxThreadsPerBlock) << "since compute capability 2.0";
  EXPECT_EQ(64, P.maxThreadsDim[2]) << "the z block limit since 2.0";
  EXPECT_EQ(65535, P.maxGridSize[1]) << "the y grid limit";
  EXPECT_EQ(2147483647, P.maxGridSize[0]) << "the x grid limit since 3.0";
  EXPECT_EQ(48 * 1024u, P.sharedMemPerBlock)
      << "static shared memory per block without opting in";
  EXPECT_EQ(65536u, P.totalConstMem) << "64 KiB of constant memory";
  EXPECT_EQ(1, P.unifiedAddressing) << "64-bit Linux has UVA";
}

TEST_F(Device, PropertiesArgumentsChecked) {
  cudaDeviceProp P;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetDeviceProperties(nullptr, 0))
      << "the output pointer is required";
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaGetDeviceProperties(&P, deviceCount()))
      << "no such device";
  (void)cudaGetLastError();
}

TEST_F(Device, AttributeArgumentsChecked) {
  int V = 0;
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaDeviceGetAttribute(&V, cudaDevAttrWarpSize, deviceCount()))
      << "no such device";
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaDeviceGetAttribute(&V, cudaDevAttrWarpSize, -1))
      << "a negative ordinal";
  EXPECT_CUDA(
      cudaErrorInvalidValue,
      cudaDeviceGetAttribute(&V, static_cast<cudaDeviceAttr>(100000), 0))
      << "no such attribute";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Device, SynchronizeWithNothingPending) {
  EXPECT_CUDA(cudaSuccess, cudaDeviceSynchronize())
      << "an idle device synchronizes at once";
}

TEST_F(Device, ResetInvalidatesAllocations) {
  void *P = nullptr;
  ASSERT_CUDA(cudaSuccess, cudaMalloc(&P, 1024)) << "an allocation";
  EXPECT_CUDA(cudaSuccess, cudaDeviceReset()) << "reset the device";
  cudaPointerAttributes A;
  EXPECT_CUDA(cudaSuccess, cudaPointerGetAttributes(&A, P))
      << "asking about a pointer never fails since CUDA 11";
  EXPECT_EQ(cudaMemoryTypeUnregistered, A.type)
      << "the reset destroyed the allocation with its context";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaFree(P))
      << "the pointer is no longer an allocation";
  (void)cudaGetLastError();
}

TEST_F(Device, WorkContinuesAfterReset) {
  EXPECT_CUDA(cudaSuccess, cudaDeviceReset()) << "reset the device";
  void *P = nullptr;
  EXPECT_CUDA(cudaSuccess, cudaMalloc(&P, 256))
      << "the next call starts a fresh primary context";
  EXPECT_CUDA(cudaSuccess, cudaMemset(P, 1, 256)) << "and it works";
  EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(Device, ResetKeepsTheLastError) {
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaSetDevice(-1))
      << "leave an error behind";
  EXPECT_CUDA(cudaSuccess, cudaDeviceReset()) << "reset the device";
  EXPECT_CUDA(cudaErrorInvalidDevice, cudaGetLastError())
      << "observed on NVIDIA: the thread's last error survives the reset";
  EXPECT_CUDA(cudaSuccess, cudaGetLastError()) << "and clears as usual";
}

TEST_F(Device, Versions) {
  int Driver = 0, Runtime = 0;
  EXPECT_CUDA(cudaSuccess, cudaDriverGetVersion(&Driver)) << "driver version";
  EXPECT_CUDA(cudaSuccess, cudaRuntimeGetVersion(&Runtime))
      << "runtime version";
  EXPECT_EQ(CUDART_VERSION, Runtime)
      << "the runtime is the version of the header it was built with";
  EXPECT_GE(Driver / 1000, Runtime / 1000)
      << "the driver's major version is at least the runtime's";
  report("cudaDriverGetVersion", Driver);
  report("cudaRuntimeGetVersion", Runtime);
}

TEST_F(Device, VersionsNullRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaDriverGetVersion(nullptr))
      << "the output pointer is required";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaRuntimeGetVersion(nullptr))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Device, SetFlagsAreReportedBack) {
  unsigned Before = 0;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceFlags(&Before)) << "current flags";
  report("cudaGetDeviceFlags(default)", Before);
  EXPECT_CUDA(cudaSuccess, cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync))
      << "flags may be set on an active device since CUDA 11";
  unsigned Flags = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetDeviceFlags(&Flags)) << "read them back";
  EXPECT_EQ(unsigned(cudaDeviceScheduleBlockingSync),
            Flags & cudaDeviceScheduleMask)
      << "the scheduling policy that was set";
  EXPECT_NE(0u, Flags & cudaDeviceMapHost)
      << "mapped pinned memory is implicit in the runtime's flags";
  EXPECT_CUDA(cudaSuccess, cudaSetDeviceFlags(cudaDeviceScheduleAuto))
      << "restore the default";
}

TEST_F(Device, SetFlagsUnknownRejected) {
  EXPECT_CUDA(cudaErrorInvalidValue, cudaSetDeviceFlags(0x10000))
      << "no such flag";
  EXPECT_CUDA(
      cudaErrorInvalidValue,
      cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield))
      << "two scheduling policies at once";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaGetDeviceFlags(nullptr))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Device, StackLimitCanBeRaised) {
  size_t Before = 0;
  ASSERT_CUDA(cudaSuccess, cudaDeviceGetLimit(&Before, cudaLimitStackSize))
      << "the per-thread stack size";
  EXPECT_GT(Before, 0u) << "threads have a stack";
  report("cudaLimitStackSize", Before);
  EXPECT_CUDA(cudaSuccess, cudaDeviceSetLimit(cudaLimitStackSize, 8192))
      << "raise the stack size";
  size_t After = 0;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetLimit(&After, cudaLimitStackSize))
      << "read it back";
  EXPECT_GE(After, 8192u) << "at least what was asked (it may be rounded up)";
  EXPECT_CUDA(cudaSuccess, cudaDeviceSetLimit(cudaLimitStackSize, Before))
      << "restore it";
}

TEST_F(Device, HeapAndPrintfLimitsHaveDefaults) {
  size_t Heap = 0, Fifo = 0;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetLimit(&Heap, cudaLimitMallocHeapSize))
      << "device malloc heap size";
  EXPECT_EQ(8u * 1024 * 1024, Heap) << "the documented default is 8 MB";
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetLimit(&Fifo, cudaLimitPrintfFifoSize))
      << "device printf buffer size";
  EXPECT_GT(Fifo, 0u) << "there is a printf buffer";
  report("cudaLimitPrintfFifoSize", Fifo);
}

TEST_F(Device, LimitArgumentsChecked) {
  size_t V = 0;
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaDeviceGetLimit(&V, static_cast<cudaLimit>(0x1234)))
      << "no such limit (observed on NVIDIA: cudaErrorUnsupportedLimit is "
         "for a known limit the device lacks)";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaDeviceSetLimit(static_cast<cudaLimit>(0x1234), 1))
      << "no such limit (observed on NVIDIA)";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaDeviceGetLimit(nullptr, cudaLimitStackSize))
      << "the output pointer is required";
  (void)cudaGetLastError();
}

TEST_F(Device, ChooseDeviceFindsAMatch) {
  cudaDeviceProp Want;
  std::memset(&Want, 0, sizeof(Want));
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&Want, 0)) << "device 0";
  int D = -1;
  EXPECT_CUDA(cudaSuccess, cudaChooseDevice(&D, &Want))
      << "device 0's own properties match it";
  EXPECT_GE(D, 0) << "a valid ordinal";
  EXPECT_LT(D, deviceCount()) << "a valid ordinal";
}

TEST_F(Device, ChooseDeviceNullRejected) {
  cudaDeviceProp Want;
  std::memset(&Want, 0, sizeof(Want));
  int D = 0;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaChooseDevice(nullptr, &Want))
      << "the output pointer is required";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaChooseDevice(&D, nullptr))
      << "the properties are required";
  (void)cudaGetLastError();
}

TEST_F(Device, PciBusIdRoundTrip) {
  char Id[64] = {};
  ASSERT_CUDA(cudaSuccess, cudaDeviceGetPCIBusId(Id, sizeof(Id), 0))
      << "the bus id of device 0";
  report("cudaDeviceGetPCIBusId", Id);
  EXPECT_EQ(12u, std::strlen(Id)) << "domain:bus:device.function, "
                                     "0000:00:00.0";
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0)) << "device 0";
  char Expected[64];
  std::snprintf(Expected, sizeof(Expected), "%04x:%02x:%02x.0", P.pciDomainID,
                P.pciBusID, P.pciDeviceID);
  EXPECT_STRCASEEQ(Expected, Id) << "the id is made of the PCI properties";
  int D = -1;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetByPCIBusId(&D, Id))
      << "the id names a device";
  EXPECT_EQ(0, D) << "the same device";
}

TEST_F(Device, PciBusIdArgumentsChecked) {
  int D = -1;
  EXPECT_CUDA(cudaErrorInvalidValue, cudaDeviceGetByPCIBusId(&D, "not-an-id"))
      << "not domain:bus:device.function";
  char Id[64];
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaDeviceGetPCIBusId(Id, sizeof(Id), deviceCount()))
      << "no such device";
  EXPECT_CUDA(cudaErrorInvalidValue, cudaDeviceGetPCIBusId(nullptr, 64, 0))
      << "the buffer is required";
  (void)cudaGetLastError();
}

TEST_F(Device, MemGetInfo) {
  size_t Free = 0, Total = 0;
  ASSERT_CUDA(cudaSuccess, cudaMemGetInfo(&Free, &Total)) << "memory info";
  EXPECT_GT(Free, 0u) << "some memory is free";
  EXPECT_LE(Free, Total) << "free is part of the total";
  cudaDeviceProp P;
  ASSERT_CUDA(cudaSuccess, cudaGetDeviceProperties(&P, 0)) << "device 0";
  EXPECT_EQ(P.totalGlobalMem, Total) << "the total is totalGlobalMem";
}

TEST_F(Device, MemGetInfoSeesAnAllocation) {
  // Other processes (parallel tests, the machine) allocate and free too, so
  // one reading may be off by more than the allocation: up to three
  // allocations, each kept, of which one must show.
  const size_t Size = 512u << 20;
  void *Held[3] = {};
  bool Seen = false;
  for (int Try = 0; Try < 3 && !Seen; ++Try) {
    size_t Free0 = 0, Free1 = 0, Total = 0;
    ASSERT_CUDA(cudaSuccess, cudaMemGetInfo(&Free0, &Total)) << "before";
    ASSERT_CUDA(cudaSuccess, cudaMalloc(&Held[Try], Size)) << "512 MiB";
    ASSERT_CUDA(cudaSuccess, cudaMemGetInfo(&Free1, &Total)) << "after";
    Seen = Free1 + Size / 2 <= Free0;
  }
  EXPECT_TRUE(Seen) << "an allocation took memory in one of three tries";
  for (void *P : Held)
    EXPECT_CUDA(cudaSuccess, cudaFree(P)) << "cleanup";
}

TEST_F(Device, StreamPriorityRange) {
  int Least = 99, Greatest = 99;
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetStreamPriorityRange(&Least, &Greatest))
      << "the priority range";
  EXPECT_EQ(0, Least) << "the default priority is the least";
  EXPECT_LT(Greatest, Least) << "lower numbers are greater priorities";
  report("cudaDeviceGetStreamPriorityRange.greatest", Greatest);
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetStreamPriorityRange(nullptr, &Greatest))
      << "either output may be null";
}

TEST_F(Device, PeerAttributes) {
  int Value = -1, Count = 0;
  EXPECT_CUDA(cudaSuccess, cudaGetDeviceCount(&Count));
  EXPECT_CUDA(
      cudaErrorInvalidDevice,
      cudaDeviceGetP2PAttribute(&Value, cudaDevP2PAttrAccessSupported, 0, 0))
      << "a device is not its own peer";
  EXPECT_CUDA(cudaErrorInvalidDevice,
              cudaDeviceGetP2PAttribute(&Value, cudaDevP2PAttrAccessSupported,
                                        0, Count))
      << "a device that does not exist";
  EXPECT_CUDA(cudaErrorInvalidValue,
              cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported,
                                        0, Count > 1 ? 1 : 0))
      << "no place for the value";
  (void)cudaGetLastError();
  if (Count < 2)
    return;
  for (cudaDeviceP2PAttr Attr :
       {cudaDevP2PAttrPerformanceRank, cudaDevP2PAttrAccessSupported,
        cudaDevP2PAttrNativeAtomicSupported,
        cudaDevP2PAttrCudaArrayAccessSupported,
        cudaDevP2PAttrOnlyPartialNativeAtomicSupported}) {
    Value = -1;
    EXPECT_CUDA(cudaSuccess, cudaDeviceGetP2PAttribute(&Value, Attr, 0, 1))
        << "attribute " << Attr;
    EXPECT_GE(Value, 0) << "attribute " << Attr;
    report("cudaDeviceGetP2PAttribute." + std::to_string(Attr), Value);
  }
  int CanAccess = -1;
  EXPECT_CUDA(cudaSuccess, cudaDeviceCanAccessPeer(&CanAccess, 0, 1));
  EXPECT_CUDA(cudaSuccess, cudaDeviceGetP2PAttribute(
                               &Value, cudaDevP2PAttrAccessSupported, 0, 1));
  EXPECT_EQ(CanAccess, Value) << "access support is what CanAccessPeer says";
}

//===- DeviceTest.cpp - cuDevice* enumeration and properties --------------===//

#include "DriverTest.h"

#include <cstring>

using namespace cuapi;

namespace {

/// Device queries need cuInit but no context.
class Device : public NoContextTest {
protected:
  int attr(CUdevice_attribute A) {
    int V = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&V, A, Dev))
        << "attribute " << static_cast<int>(A);
    return V;
  }
};

constexpr CUdevice BadOrdinal = 99;

TEST_F(Device, CountIsAtLeastOne) {
  int Count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&Count)) << "count devices";
  report("cuDeviceGetCount", Count);
  EXPECT_GE(Count, 1) << "the suite needs a device; cucpu always has one";
}

TEST_F(Device, CountNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr))
      << "the output pointer is required";
}

TEST_F(Device, GetEveryOrdinal) {
  int Count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&Count)) << "count devices";
  for (int I = 0; I < Count; ++I) {
    CUdevice D = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGet(&D, I))
        << "E.2.2: ordinals 0..count-1 are valid";
    EXPECT_EQ(I, D) << "a device handle is its ordinal";
  }
}

TEST_F(Device, GetOrdinalPastCountRejected) {
  int Count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&Count)) << "count devices";
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&D, Count))
      << "ordinal == count is out of range";
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&D, BadOrdinal))
      << "observed on NVIDIA: INVALID_DEVICE";
}

TEST_F(Device, GetNegativeOrdinalRejected) {
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&D, -1))
      << "negative ordinals are out of range";
}

TEST_F(Device, GetNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(nullptr, 0))
      << "the output pointer is required";
}

TEST_F(Device, NameIsNonEmptyAndTerminated) {
  char Name[256];
  std::memset(Name, 'x', sizeof(Name));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(Name, sizeof(Name), Dev))
      << "query the name";
  report("cuDeviceGetName", static_cast<const char *>(Name));
  EXPECT_NE(nullptr, std::memchr(Name, '\0', sizeof(Name)))
      << "E.2.3: the name is NUL-terminated";
  EXPECT_GT(std::strlen(Name), 0u) << "the name is not empty";
}

TEST_F(Device, NameTruncatedToLength) {
  char Full[256];
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(Full, sizeof(Full), Dev))
      << "query the name";
  char Short[8];
  std::memset(Short, 'x', sizeof(Short));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(Short, 4, Dev))
      << "E.2.3: len is the maximum length returned; a short buffer is fine";
  EXPECT_LT(std::strlen(Short), 4u) << "at most len-1 characters and a NUL";
  EXPECT_EQ(0, std::strncmp(Full, Short, std::strlen(Short)))
      << "the short name is a prefix of the full name";
  EXPECT_EQ('x', Short[4]) << "nothing is written past len";
}

TEST_F(Device, NameNullBufferRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(nullptr, 256, Dev))
      << "the output buffer is required";
}

TEST_F(Device, NameInvalidDeviceRejected) {
  char Name[256];
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetName(Name, sizeof(Name), BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, TotalMemIsPositive) {
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceTotalMem(&Bytes, Dev))
      << "query the memory size";
  report("cuDeviceTotalMem", Bytes);
  EXPECT_GT(Bytes, size_t(1) << 30) << "a device has at least a GiB";
}

TEST_F(Device, TotalMemNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(nullptr, Dev))
      << "the output pointer is required";
}

TEST_F(Device, TotalMemInvalidDeviceRejected) {
  size_t Bytes;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&Bytes, BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, UuidIsStableAndNonZero) {
  CUuuid A, B;
  std::memset(&A, 0, sizeof(A));
  std::memset(&B, 0xff, sizeof(B));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&A, Dev)) << "query the UUID";
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&B, Dev)) << "query the UUID";
  EXPECT_EQ(0, std::memcmp(&A, &B, sizeof(A))) << "the UUID does not change";
  CUuuid Zero;
  std::memset(&Zero, 0, sizeof(Zero));
  EXPECT_NE(0, std::memcmp(&A, &Zero, sizeof(A))) << "a UUID is not all zero";
}

TEST_F(Device, UuidNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(nullptr, Dev))
      << "the output pointer is required";
}

TEST_F(Device, UuidInvalidDeviceRejected) {
  CUuuid U;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&U, BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, ComputeCapabilityMatchesAttributes) {
  int Major = -1, Minor = -1;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceComputeCapability(&Major, &Minor, Dev))
      << "query the compute capability";
  report("computeCapability.major", Major);
  report("computeCapability.minor", Minor);
  EXPECT_GE(Major, 1) << "compute capability is at least 1.0";
  EXPECT_EQ(Major, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR))
      << "the attribute agrees with cuDeviceComputeCapability";
  EXPECT_EQ(Minor, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))
      << "the attribute agrees with cuDeviceComputeCapability";
}

TEST_F(Device, ComputeCapabilityNullOutputRejected) {
  int Minor;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceComputeCapability(nullptr, &Minor, Dev))
      << "both outputs are required";
}

TEST_F(Device, ComputeCapabilityInvalidDeviceRejected) {
  int Major, Minor;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceComputeCapability(&Major, &Minor, BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, AttributeWarpSizeIs32) {
  EXPECT_EQ(32, attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE))
      << "every CUDA device has 32-thread warps";
}

TEST_F(Device, AttributeThreadsPerBlock) {
  EXPECT_EQ(1024, attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK))
      << "1024 threads per block since compute capability 2.0";
}

TEST_F(Device, AttributeBlockDims) {
  EXPECT_EQ(1024, attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)) << "block x";
  EXPECT_EQ(1024, attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)) << "block y";
  EXPECT_EQ(64, attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)) << "block z";
}

TEST_F(Device, AttributeGridDims) {
  EXPECT_EQ(2147483647, attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X))
      << "grid x is 2^31-1 since compute capability 3.0";
  EXPECT_EQ(65535, attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)) << "grid y";
  EXPECT_EQ(65535, attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)) << "grid z";
}

TEST_F(Device, AttributeSharedAndConstantMemory) {
  EXPECT_EQ(49152, attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK))
      << "48 KiB of static shared memory per block";
  EXPECT_EQ(65536, attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY))
      << "64 KiB of constant memory (App. A.1)";
  EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), 49152)
      << "the opt-in maximum is at least the default";
}

TEST_F(Device, AttributeUnifiedAddressingAndHostMapping) {
  EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING))
      << "64-bit Linux devices share one address space with the host";
  EXPECT_EQ(1, attr(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY))
      << "page-locked memory can be mapped";
}

TEST_F(Device, AttributeMiscLimits) {
  EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH), 65536) << "max pitch";
  EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK), 8192)
      << "registers per block";
  EXPECT_GT(attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE), 0) << "clock rate in kHz";
  EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT), 256)
      << "texture alignment";
  EXPECT_GE(attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 1)
      << "at least one multiprocessor";
  int Overlap = attr(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP);
  EXPECT_TRUE(Overlap == 0 || Overlap == 1) << "GPU_OVERLAP is a boolean";
}

TEST_F(Device, AttributeUnknownRejected) {
  int V = 0;
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuDeviceGetAttribute(&V, static_cast<CUdevice_attribute>(100000), Dev))
      << "observed on NVIDIA: unknown attribute is INVALID_VALUE";
}

TEST_F(Device, AttributeZeroRejected) {
  int V = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetAttribute(&V, static_cast<CUdevice_attribute>(0), Dev))
      << "attributes are numbered from 1";
}

TEST_F(Device, AttributeMaxSentinelRejected) {
  int V = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetAttribute(&V, CU_DEVICE_ATTRIBUTE_MAX, Dev))
      << "CU_DEVICE_ATTRIBUTE_MAX is a sentinel, not an attribute";
}

TEST_F(Device, AttributeInvalidDeviceRejected) {
  int V = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetAttribute(&V, CU_DEVICE_ATTRIBUTE_WARP_SIZE, BadOrdinal))
      << "device 99 does not exist";
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetAttribute(&V, CU_DEVICE_ATTRIBUTE_WARP_SIZE, -1))
      << "device -1 does not exist";
}

TEST_F(Device, AttributeNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, Dev))
      << "the output pointer is required";
}

TEST_F(Device, PropertiesAgreeWithAttributes) {
  CUdevprop P;
  std::memset(&P, 0, sizeof(P));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetProperties(&P, Dev))
      << "query the properties";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
            P.maxThreadsPerBlock)
      << "maxThreadsPerBlock";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), P.maxThreadsDim[0])
      << "maxThreadsDim[0]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y), P.maxThreadsDim[1])
      << "maxThreadsDim[1]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z), P.maxThreadsDim[2])
      << "maxThreadsDim[2]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), P.maxGridSize[0])
      << "maxGridSize[0]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y), P.maxGridSize[1])
      << "maxGridSize[1]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z), P.maxGridSize[2])
      << "maxGridSize[2]";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
            P.sharedMemPerBlock)
      << "sharedMemPerBlock";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
            P.totalConstantMemory)
      << "totalConstantMemory";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE), P.SIMDWidth) << "SIMDWidth";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH), P.memPitch) << "memPitch";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK), P.regsPerBlock)
      << "regsPerBlock";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE), P.clockRate) << "clockRate";
  EXPECT_EQ(attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT), P.textureAlign)
      << "textureAlign";
}

TEST_F(Device, PropertiesNullOutputRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(nullptr, Dev))
      << "the output pointer is required";
}

TEST_F(Device, PropertiesInvalidDeviceRejected) {
  CUdevprop P;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&P, BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, PciBusIdRoundTrips) {
  char Id[64];
  std::memset(Id, 0, sizeof(Id));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetPCIBusId(Id, sizeof(Id), Dev))
      << "query the bus id";
  report("cuDeviceGetPCIBusId", static_cast<const char *>(Id));
  unsigned Domain = 0, Bus = 0, Slot = 0, Function = 0;
  EXPECT_EQ(4, std::sscanf(Id, "%x:%x:%x.%x", &Domain, &Bus, &Slot, &Function))
      << "format is domain:bus:device.function, got '" << Id << "'";
  EXPECT_EQ(12u, std::strlen(Id))
      << "observed on NVIDIA: %04x:%02x:%02x.%x, e.g. 0000:00:06.0";
  EXPECT_EQ(static_cast<unsigned>(attr(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)), Bus)
      << "the bus agrees with CU_DEVICE_ATTRIBUTE_PCI_BUS_ID";
  EXPECT_EQ(static_cast<unsigned>(attr(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)),
            Slot)
      << "the device agrees with CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID";
  EXPECT_EQ(static_cast<unsigned>(attr(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)),
            Domain)
      << "the domain agrees with CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID";
  CUdevice Back = -1;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetByPCIBusId(&Back, Id))
      << "the string identifies the device";
  EXPECT_EQ(Dev, Back) << "round trip gives the same device";
}

TEST_F(Device, PciBusIdNullBufferRejected) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(nullptr, 64, Dev))
      << "the output buffer is required";
}

TEST_F(Device, PciBusIdInvalidDeviceRejected) {
  char Id[64];
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetPCIBusId(Id, sizeof(Id), BadOrdinal))
      << "device 99 does not exist";
}

TEST_F(Device, ByPciBusIdMalformedRejected) {
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&D, "not-a-bus-id"))
      << "the string is not domain:bus:device.function";
}

TEST_F(Device, ByPciBusIdUnknownBusRejected) {
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetByPCIBusId(&D, "0000:fe:1f.7"))
      << "a well-formed id of no CUDA device";
}

TEST_F(Device, ByPciBusIdNullArgumentsRejected) {
  char Id[64];
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetPCIBusId(Id, sizeof(Id), Dev))
      << "query the bus id";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(nullptr, Id))
      << "the output pointer is required";
  CUdevice D;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&D, nullptr))
      << "the id string is required";
}

TEST_F(Device, PeerAttributes) {
  int Count = 0, Value = -1;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&Count));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetP2PAttribute(
                &Value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0))
      << "a device is not its own peer";
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetP2PAttribute(
                &Value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, Count))
      << "a device that does not exist";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetP2PAttribute(nullptr,
                                    CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0,
                                    Count > 1 ? 1 : 0))
      << "no place for the value";
  if (Count < 2)
    return;
  for (CUdevice_P2PAttribute A :
       {CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
        CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED,
        CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
        CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED,
        CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED}) {
    Value = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&Value, A, 0, 1))
        << "attribute " << A;
    EXPECT_GE(Value, 0) << "attribute " << A;
  }
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetP2PAttribute(&Value, CUdevice_P2PAttribute(99), 0, 1))
      << "not an attribute";
  int CanAccess = -1;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceCanAccessPeer(&CanAccess, 0, 1));
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetP2PAttribute(
                &Value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
  EXPECT_EQ(CanAccess, Value) << "access support is what CanAccessPeer says";
}

} // namespace

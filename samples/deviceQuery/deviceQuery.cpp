//===- deviceQuery.cpp - Print every property of every CUDA device --------===//
//
// A driver-API program that uses nothing but <cuda.h>: it initializes the
// driver, then prints for each device its name, UUID, total memory, compute
// capability and every CUdevice_attribute by name. An attribute the driver
// answers with an error is reported as such; it does not fail the sample.
// Prints PASSED and exits 0 when every other call succeeds.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstddef>
#include <cstdio>

namespace {

/// One CUdevice_attribute: its value and its enumerator's name.
struct AttributeInfo {
  CUdevice_attribute Attribute;
  const char *Name;
};

#define ATTRIBUTE(Suffix)                                                      \
  {CU_DEVICE_ATTRIBUTE_##Suffix, "CU_DEVICE_ATTRIBUTE_" #Suffix}

/// Every attribute, in order of value, each value once. Where cuda.h has two
/// names for one value, the table uses the current one; the older name is in
/// the comment.
constexpr AttributeInfo Attributes[] = {
    ATTRIBUTE(MAX_THREADS_PER_BLOCK),
    ATTRIBUTE(MAX_BLOCK_DIM_X),
    ATTRIBUTE(MAX_BLOCK_DIM_Y),
    ATTRIBUTE(MAX_BLOCK_DIM_Z),
    ATTRIBUTE(MAX_GRID_DIM_X),
    ATTRIBUTE(MAX_GRID_DIM_Y),
    ATTRIBUTE(MAX_GRID_DIM_Z),
    ATTRIBUTE(MAX_SHARED_MEMORY_PER_BLOCK), // SHARED_MEMORY_PER_BLOCK
    ATTRIBUTE(TOTAL_CONSTANT_MEMORY),
    ATTRIBUTE(WARP_SIZE),
    ATTRIBUTE(MAX_PITCH),
    ATTRIBUTE(MAX_REGISTERS_PER_BLOCK), // REGISTERS_PER_BLOCK
    ATTRIBUTE(CLOCK_RATE),
    ATTRIBUTE(TEXTURE_ALIGNMENT),
    ATTRIBUTE(GPU_OVERLAP),
    ATTRIBUTE(MULTIPROCESSOR_COUNT),
    ATTRIBUTE(KERNEL_EXEC_TIMEOUT),
    ATTRIBUTE(INTEGRATED),
    ATTRIBUTE(CAN_MAP_HOST_MEMORY),
    ATTRIBUTE(COMPUTE_MODE),
    ATTRIBUTE(MAXIMUM_TEXTURE1D_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_HEIGHT),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_HEIGHT),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_DEPTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LAYERED_WIDTH),  // ..._ARRAY_WIDTH
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LAYERED_HEIGHT), // ..._ARRAY_HEIGHT
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LAYERED_LAYERS), // ..._ARRAY_NUMSLICES
    ATTRIBUTE(SURFACE_ALIGNMENT),
    ATTRIBUTE(CONCURRENT_KERNELS),
    ATTRIBUTE(ECC_ENABLED),
    ATTRIBUTE(PCI_BUS_ID),
    ATTRIBUTE(PCI_DEVICE_ID),
    ATTRIBUTE(TCC_DRIVER),
    ATTRIBUTE(MEMORY_CLOCK_RATE),
    ATTRIBUTE(GLOBAL_MEMORY_BUS_WIDTH),
    ATTRIBUTE(L2_CACHE_SIZE),
    ATTRIBUTE(MAX_THREADS_PER_MULTIPROCESSOR),
    ATTRIBUTE(ASYNC_ENGINE_COUNT),
    ATTRIBUTE(UNIFIED_ADDRESSING),
    ATTRIBUTE(MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
    ATTRIBUTE(CAN_TEX2D_GATHER),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_GATHER_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
    ATTRIBUTE(MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
    ATTRIBUTE(PCI_DOMAIN_ID),
    ATTRIBUTE(TEXTURE_PITCH_ALIGNMENT),
    ATTRIBUTE(MAXIMUM_TEXTURECUBEMAP_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
    ATTRIBUTE(MAXIMUM_SURFACE1D_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACE2D_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACE2D_HEIGHT),
    ATTRIBUTE(MAXIMUM_SURFACE3D_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACE3D_HEIGHT),
    ATTRIBUTE(MAXIMUM_SURFACE3D_DEPTH),
    ATTRIBUTE(MAXIMUM_SURFACE1D_LAYERED_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACE1D_LAYERED_LAYERS),
    ATTRIBUTE(MAXIMUM_SURFACE2D_LAYERED_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
    ATTRIBUTE(MAXIMUM_SURFACE2D_LAYERED_LAYERS),
    ATTRIBUTE(MAXIMUM_SURFACECUBEMAP_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
    ATTRIBUTE(MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
    ATTRIBUTE(MAXIMUM_TEXTURE1D_LINEAR_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_LINEAR_PITCH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
    ATTRIBUTE(MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
    ATTRIBUTE(COMPUTE_CAPABILITY_MAJOR),
    ATTRIBUTE(COMPUTE_CAPABILITY_MINOR),
    ATTRIBUTE(MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
    ATTRIBUTE(STREAM_PRIORITIES_SUPPORTED),
    ATTRIBUTE(GLOBAL_L1_CACHE_SUPPORTED),
    ATTRIBUTE(LOCAL_L1_CACHE_SUPPORTED),
    ATTRIBUTE(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
    ATTRIBUTE(MAX_REGISTERS_PER_MULTIPROCESSOR),
    ATTRIBUTE(MANAGED_MEMORY),
    ATTRIBUTE(MULTI_GPU_BOARD),
    ATTRIBUTE(MULTI_GPU_BOARD_GROUP_ID),
    ATTRIBUTE(HOST_NATIVE_ATOMIC_SUPPORTED),
    ATTRIBUTE(SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO),
    ATTRIBUTE(PAGEABLE_MEMORY_ACCESS),
    ATTRIBUTE(CONCURRENT_MANAGED_ACCESS),
    ATTRIBUTE(COMPUTE_PREEMPTION_SUPPORTED),
    ATTRIBUTE(CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
    ATTRIBUTE(CAN_USE_STREAM_MEM_OPS_V1),
    ATTRIBUTE(CAN_USE_64_BIT_STREAM_MEM_OPS_V1),
    ATTRIBUTE(CAN_USE_STREAM_WAIT_VALUE_NOR_V1),
    ATTRIBUTE(COOPERATIVE_LAUNCH),
    ATTRIBUTE(COOPERATIVE_MULTI_DEVICE_LAUNCH),
    ATTRIBUTE(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    ATTRIBUTE(CAN_FLUSH_REMOTE_WRITES),
    ATTRIBUTE(HOST_REGISTER_SUPPORTED),
    ATTRIBUTE(PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
    ATTRIBUTE(DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
    ATTRIBUTE(VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), // VIRTUAL_ADDRESS_...
    ATTRIBUTE(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED),
    ATTRIBUTE(HANDLE_TYPE_WIN32_HANDLE_SUPPORTED),
    ATTRIBUTE(HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED),
    ATTRIBUTE(MAX_BLOCKS_PER_MULTIPROCESSOR),
    ATTRIBUTE(GENERIC_COMPRESSION_SUPPORTED),
    ATTRIBUTE(MAX_PERSISTING_L2_CACHE_SIZE),
    ATTRIBUTE(MAX_ACCESS_POLICY_WINDOW_SIZE),
    ATTRIBUTE(GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED),
    ATTRIBUTE(RESERVED_SHARED_MEMORY_PER_BLOCK),
    ATTRIBUTE(SPARSE_CUDA_ARRAY_SUPPORTED),
    ATTRIBUTE(READ_ONLY_HOST_REGISTER_SUPPORTED),
    ATTRIBUTE(TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
    ATTRIBUTE(MEMORY_POOLS_SUPPORTED),
    ATTRIBUTE(GPU_DIRECT_RDMA_SUPPORTED),
    ATTRIBUTE(GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
    ATTRIBUTE(GPU_DIRECT_RDMA_WRITES_ORDERING),
    ATTRIBUTE(MEMPOOL_SUPPORTED_HANDLE_TYPES),
    ATTRIBUTE(CLUSTER_LAUNCH),
    ATTRIBUTE(DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
    ATTRIBUTE(CAN_USE_64_BIT_STREAM_MEM_OPS),
    ATTRIBUTE(CAN_USE_STREAM_WAIT_VALUE_NOR),
    ATTRIBUTE(DMA_BUF_SUPPORTED),
    ATTRIBUTE(IPC_EVENT_SUPPORTED),
    ATTRIBUTE(MEM_SYNC_DOMAIN_COUNT),
    ATTRIBUTE(TENSOR_MAP_ACCESS_SUPPORTED),
    ATTRIBUTE(HANDLE_TYPE_FABRIC_SUPPORTED),
    ATTRIBUTE(UNIFIED_FUNCTION_POINTERS),
    ATTRIBUTE(NUMA_CONFIG),
    ATTRIBUTE(NUMA_ID),
    ATTRIBUTE(MULTICAST_SUPPORTED),
    ATTRIBUTE(MPS_ENABLED),
    ATTRIBUTE(HOST_NUMA_ID),
    ATTRIBUTE(D3D12_CIG_SUPPORTED),
    ATTRIBUTE(MEM_DECOMPRESS_ALGORITHM_MASK),
    ATTRIBUTE(MEM_DECOMPRESS_MAXIMUM_LENGTH),
    ATTRIBUTE(VULKAN_CIG_SUPPORTED),
    ATTRIBUTE(GPU_PCI_DEVICE_ID),
    ATTRIBUTE(GPU_PCI_SUBSYSTEM_ID),
    ATTRIBUTE(HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
    ATTRIBUTE(HOST_NUMA_MEMORY_POOLS_SUPPORTED),
    ATTRIBUTE(HOST_NUMA_MULTINODE_IPC_SUPPORTED),
    ATTRIBUTE(HOST_MEMORY_POOLS_SUPPORTED),
    ATTRIBUTE(HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED),
    ATTRIBUTE(HOST_ALLOC_DMA_BUF_SUPPORTED),
    ATTRIBUTE(ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED),
};

#undef ATTRIBUTE

/// True if the table holds each value from 1 to CU_DEVICE_ATTRIBUTE_MAX - 1
/// exactly once, in order: then it names every attribute cuda.h declares.
constexpr bool coversEveryAttribute() {
  int Expected = 1;
  for (const AttributeInfo &Info : Attributes)
    if (static_cast<int>(Info.Attribute) != Expected++)
      return false;
  return Expected == static_cast<int>(CU_DEVICE_ATTRIBUTE_MAX);
}
static_assert(coversEveryAttribute(),
              "the attribute table must list every CUdevice_attribute of "
              "cuda.h once, in order of value");

/// The enumerator name of Result, or "CUresult <number>" when the driver
/// cannot name it.
void printResult(CUresult Result) {
  const char *Name = nullptr;
  if (cuGetErrorName(Result, &Name) == CUDA_SUCCESS && Name)
    std::printf("%s", Name);
  else
    std::printf("CUresult %d", static_cast<int>(Result));
}

/// Reports a failed call; returns true when Result is CUDA_SUCCESS.
bool succeeded(CUresult Result, const char *Call) {
  if (Result == CUDA_SUCCESS)
    return true;
  std::printf("%s failed: ", Call);
  printResult(Result);
  std::printf("\n");
  return false;
}

/// Prints the name, UUID, memory, compute capability and every attribute of
/// device Ordinal; returns false if a call other than an attribute query
/// failed.
bool printDevice(int Ordinal) {
  CUdevice Device;
  if (!succeeded(cuDeviceGet(&Device, Ordinal), "cuDeviceGet"))
    return false;
  bool Ok = true;

  char Name[256] = {};
  Ok &=
      succeeded(cuDeviceGetName(Name, sizeof(Name), Device), "cuDeviceGetName");
  std::printf("\nDevice %d: \"%s\"\n", Ordinal, Name);

  CUuuid Uuid = {};
  if (succeeded(cuDeviceGetUuid(&Uuid, Device), "cuDeviceGetUuid")) {
    // The form CUDA_VISIBLE_DEVICES accepts.
    std::printf("  UUID:                  GPU-");
    for (int I = 0; I < 16; ++I)
      std::printf("%s%02x", (I == 4 || I == 6 || I == 8 || I == 10) ? "-" : "",
                  static_cast<unsigned char>(Uuid.bytes[I]));
    std::printf("\n");
  } else {
    Ok = false;
  }

  size_t Bytes = 0;
  if (succeeded(cuDeviceTotalMem(&Bytes, Device), "cuDeviceTotalMem"))
    std::printf("  Total memory:          %zu bytes (%zu MiB)\n", Bytes,
                Bytes >> 20);
  else
    Ok = false;

  int Major = 0, Minor = 0;
  if (succeeded(
          cuDeviceGetAttribute(
              &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device),
          "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)") &&
      succeeded(
          cuDeviceGetAttribute(
              &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device),
          "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)"))
    std::printf("  Compute capability:    %d.%d\n", Major, Minor);
  else
    Ok = false;

  // An attribute the driver does not support is information, not a failure.
  int Answered = 0;
  std::printf("  Attributes:\n");
  for (const AttributeInfo &Info : Attributes) {
    int Value = 0;
    CUresult Result = cuDeviceGetAttribute(&Value, Info.Attribute, Device);
    std::printf("    %-66s %4d  ", Info.Name, static_cast<int>(Info.Attribute));
    if (Result == CUDA_SUCCESS) {
      std::printf("%d\n", Value);
      ++Answered;
    } else {
      std::printf("error: ");
      printResult(Result);
      std::printf("\n");
    }
  }
  std::printf("  %d of %zu attributes answered\n", Answered,
              sizeof(Attributes) / sizeof(Attributes[0]));
  return Ok;
}

} // namespace

int main() {
  std::printf("deviceQuery: CUDA driver API (cuda.h CUDA_VERSION %d)\n",
              CUDA_VERSION);
  if (!succeeded(cuInit(0), "cuInit(0)"))
    return 1;

  int Version = 0;
  if (!succeeded(cuDriverGetVersion(&Version), "cuDriverGetVersion"))
    return 1;
  std::printf("Driver version:          %d (CUDA %d.%d)\n", Version,
              Version / 1000, Version % 1000 / 10);

  int Count = 0;
  if (!succeeded(cuDeviceGetCount(&Count), "cuDeviceGetCount"))
    return 1;
  std::printf("Devices:                 %d\n", Count);
  if (Count == 0) {
    std::printf("No device found.\nFAILED\n");
    return 1;
  }

  bool Ok = true;
  for (int Ordinal = 0; Ordinal < Count; ++Ordinal)
    Ok &= printDevice(Ordinal);

  std::printf("\n%s\n", Ok ? "PASSED" : "FAILED");
  return Ok ? 0 : 1;
}

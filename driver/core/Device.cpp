//===- Device.cpp - A CPU device ------------------------------------------===//
#include "core/Device.h"

#include "core/Context.h"
#include "core/Error.h"
#include "core/HostMemory.h"

#include <algorithm>
#include <cstdio>

using namespace cucpu;

Device::Device(DeviceDescription Description) : Desc(std::move(Description)) {}

Device::~Device() = default;

std::string Device::pciBusId() const {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "%04x:%02x:%02x.0", 0, Desc.PciBus, 0);
  return Buffer;
}

llvm::Error Device::reserveMemory(size_t Bytes) {
  size_t Current = Used.load(std::memory_order_relaxed);
  do {
    if (Bytes > Desc.MemoryBudget || Current > Desc.MemoryBudget - Bytes)
      return makeError(CUDA_ERROR_OUT_OF_MEMORY,
                       llvm::formatv("Allocating {0} bytes exceeds the free "
                                     "memory of device {1} ({2} of {3} bytes "
                                     "free).",
                                     Bytes, Desc.Ordinal,
                                     Desc.MemoryBudget - Current,
                                     Desc.MemoryBudget));
  } while (!Used.compare_exchange_weak(Current, Current + Bytes,
                                       std::memory_order_relaxed));
  return llvm::Error::success();
}

size_t Device::freeMemory() const {
  size_t Left = Desc.MemoryBudget - std::min(Desc.MemoryBudget, usedMemory());
  return std::min(Left, host::backableMemory());
}

void Device::releaseMemory(size_t Bytes) {
  Used.fetch_sub(Bytes, std::memory_order_relaxed);
}

llvm::Expected<int> Device::attribute(int Attribute) const {
  // Limits follow NVIDIA's devices of compute capability 7.5 where a CPU has
  // no reason to differ; facts of the host (cores, clock, cache) are real.
  // Features cucpu does not provide answer 0.
  switch (Attribute) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    return 64;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    return 2147483647;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    return 65535;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    return 65535;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    return SharedMemoryPerBlock;
  case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
    return ConstantMemory;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    return 32;
  case CU_DEVICE_ATTRIBUTE_MAX_PITCH:
    return static_cast<int>(MaxPitch);
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
    return 65536;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    return Desc.ClockRateKHz;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
    return 512;
  case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
    return 1;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    return static_cast<int>(Desc.Workers);
  case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT:
    return 0;
  // Device memory is host memory: the device is integrated.
  case CU_DEVICE_ATTRIBUTE_INTEGRATED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    return 1;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE:
    return CU_COMPUTEMODE_DEFAULT;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
    return 131072;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
    return 131072;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT:
    return 65536;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
    return 2048;
  case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT:
    return 512;
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
    return 1;
  case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
    return Desc.PciBus;
  case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
    return 0;
  case CU_DEVICE_ATTRIBUTE_TCC_DRIVER:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    return Desc.ClockRateKHz;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
    return 64;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    return Desc.CacheBytes;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    return 1024;
  case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
    return 1;
  case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    return 1;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS:
    return 2048;
  // tex2Dgather is not provided.
  case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE:
    return 8192;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE:
    return 8192;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
    return 0;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
    return 32;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS:
    return 2046;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH:
    return 131072;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT:
    return 65536;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH:
    return 16384;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS:
    return 2048;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS:
    return 2048;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS:
    return 2046;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH:
    return 1 << 28;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH:
    return 131072;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT:
    return 65000;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH:
    return 2097120;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    return ComputeCapabilityMajor;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    return ComputeCapabilityMinor;
  case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH:
    return 32768;
  case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    return 65536;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
    return 65536;
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
    return 1;
  case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
    return 0;
  // Host and device share one memory and one set of atomic instructions.
  case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
    return 2;
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
    return 1;
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    return 1;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
    return 1;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1:
    return 0;
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
    return 1;
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    return SharedMemoryPerBlockOptIn;
  case CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES:
    return 1;
  case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
    return 1;
  case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
    return 16;
  case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
    return 0;
  case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
    return 0;
  case CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS:
    return 0;
  case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
    return 0;
  case CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
    return 0;
  case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
    return 0;
  case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED:
    return 1;
  case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT:
    return 1;
  case CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS:
    return 0;
  case CU_DEVICE_ATTRIBUTE_NUMA_CONFIG:
    return 0;
  case CU_DEVICE_ATTRIBUTE_NUMA_ID:
    return -1;
  case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MPS_ENABLED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID:
    return -1;
  case CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK:
    return 0;
  case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH:
    return 0;
  case CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID:
    return 0;
  case CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
    return 0;
  case CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED:
    return 0;
  default:
    return makeError(CUDA_ERROR_INVALID_VALUE,
                     llvm::formatv("Device attribute {0} is not a valid "
                                   "CUdevice_attribute (valid: 1 to {1}).",
                                   Attribute, CU_DEVICE_ATTRIBUTE_MAX - 1));
  }
}

//===- Device.cpp - Devices, their properties and the runtime's version ---===//
#include "Context.h"
#include "Errors.h"
#include "Registry.h"

#include <cudaProfiler.h>

#include <cstring>

using namespace cucpu;
using namespace cucpu::rt;

namespace {

/// cudaDeviceProp's int members, each the driver attribute it reports.
struct IntProperty {
  int cudaDeviceProp::*Field;
  CUdevice_attribute Attribute;
};

#define CUDART_PROP(Field, Attr)                                               \
  {&cudaDeviceProp::Field, CU_DEVICE_ATTRIBUTE_##Attr}
constexpr IntProperty IntProperties[] = {
    CUDART_PROP(regsPerBlock, MAX_REGISTERS_PER_BLOCK),
    CUDART_PROP(warpSize, WARP_SIZE),
    CUDART_PROP(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
    CUDART_PROP(major, COMPUTE_CAPABILITY_MAJOR),
    CUDART_PROP(minor, COMPUTE_CAPABILITY_MINOR),
    CUDART_PROP(multiProcessorCount, MULTIPROCESSOR_COUNT),
    CUDART_PROP(integrated, INTEGRATED),
    CUDART_PROP(canMapHostMemory, CAN_MAP_HOST_MEMORY),
    CUDART_PROP(maxTexture1D, MAXIMUM_TEXTURE1D_WIDTH),
    CUDART_PROP(maxTexture1DMipmap, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
    CUDART_PROP(maxTextureCubemap, MAXIMUM_TEXTURECUBEMAP_WIDTH),
    CUDART_PROP(maxSurface1D, MAXIMUM_SURFACE1D_WIDTH),
    CUDART_PROP(maxSurfaceCubemap, MAXIMUM_SURFACECUBEMAP_WIDTH),
    CUDART_PROP(concurrentKernels, CONCURRENT_KERNELS),
    CUDART_PROP(ECCEnabled, ECC_ENABLED),
    CUDART_PROP(pciBusID, PCI_BUS_ID),
    CUDART_PROP(pciDeviceID, PCI_DEVICE_ID),
    CUDART_PROP(pciDomainID, PCI_DOMAIN_ID),
    CUDART_PROP(tccDriver, TCC_DRIVER),
    CUDART_PROP(asyncEngineCount, ASYNC_ENGINE_COUNT),
    CUDART_PROP(unifiedAddressing, UNIFIED_ADDRESSING),
    CUDART_PROP(memoryBusWidth, GLOBAL_MEMORY_BUS_WIDTH),
    CUDART_PROP(l2CacheSize, L2_CACHE_SIZE),
    CUDART_PROP(persistingL2CacheMaxSize, MAX_PERSISTING_L2_CACHE_SIZE),
    CUDART_PROP(maxThreadsPerMultiProcessor, MAX_THREADS_PER_MULTIPROCESSOR),
    CUDART_PROP(streamPrioritiesSupported, STREAM_PRIORITIES_SUPPORTED),
    CUDART_PROP(globalL1CacheSupported, GLOBAL_L1_CACHE_SUPPORTED),
    CUDART_PROP(localL1CacheSupported, LOCAL_L1_CACHE_SUPPORTED),
    CUDART_PROP(regsPerMultiprocessor, MAX_REGISTERS_PER_MULTIPROCESSOR),
    CUDART_PROP(managedMemory, MANAGED_MEMORY),
    CUDART_PROP(isMultiGpuBoard, MULTI_GPU_BOARD),
    CUDART_PROP(multiGpuBoardGroupID, MULTI_GPU_BOARD_GROUP_ID),
    CUDART_PROP(hostNativeAtomicSupported, HOST_NATIVE_ATOMIC_SUPPORTED),
    CUDART_PROP(pageableMemoryAccess, PAGEABLE_MEMORY_ACCESS),
    CUDART_PROP(concurrentManagedAccess, CONCURRENT_MANAGED_ACCESS),
    CUDART_PROP(computePreemptionSupported, COMPUTE_PREEMPTION_SUPPORTED),
    CUDART_PROP(canUseHostPointerForRegisteredMem,
                CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
    CUDART_PROP(cooperativeLaunch, COOPERATIVE_LAUNCH),
    CUDART_PROP(pageableMemoryAccessUsesHostPageTables,
                PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
    CUDART_PROP(directManagedMemAccessFromHost,
                DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
    CUDART_PROP(maxBlocksPerMultiProcessor, MAX_BLOCKS_PER_MULTIPROCESSOR),
    CUDART_PROP(accessPolicyMaxWindowSize, MAX_ACCESS_POLICY_WINDOW_SIZE),
    CUDART_PROP(hostRegisterSupported, HOST_REGISTER_SUPPORTED),
    CUDART_PROP(sparseCudaArraySupported, SPARSE_CUDA_ARRAY_SUPPORTED),
    CUDART_PROP(hostRegisterReadOnlySupported,
                READ_ONLY_HOST_REGISTER_SUPPORTED),
    CUDART_PROP(timelineSemaphoreInteropSupported,
                TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
    CUDART_PROP(memoryPoolsSupported, MEMORY_POOLS_SUPPORTED),
    CUDART_PROP(gpuDirectRDMASupported, GPU_DIRECT_RDMA_SUPPORTED),
    CUDART_PROP(gpuDirectRDMAWritesOrdering, GPU_DIRECT_RDMA_WRITES_ORDERING),
    CUDART_PROP(deferredMappingCudaArraySupported,
                DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
    CUDART_PROP(ipcEventSupported, IPC_EVENT_SUPPORTED),
    CUDART_PROP(clusterLaunch, CLUSTER_LAUNCH),
    CUDART_PROP(unifiedFunctionPointers, UNIFIED_FUNCTION_POINTERS),
    CUDART_PROP(deviceNumaConfig, NUMA_CONFIG),
    CUDART_PROP(deviceNumaId, NUMA_ID),
    CUDART_PROP(mpsEnabled, MPS_ENABLED),
    CUDART_PROP(hostNumaId, HOST_NUMA_ID),
    CUDART_PROP(hostNumaMultinodeIpcSupported,
                HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};
#undef CUDART_PROP

CUresult attribute(CUdevice D, CUdevice_attribute A, int &Out) {
  Out = 0;
  return cuDeviceGetAttribute(&Out, A, D);
}

/// cudaDeviceProp's array members, element by element.
CUresult fillArrays(cudaDeviceProp &P, CUdevice D) {
  struct Entry {
    int *Target;
    CUdevice_attribute Attribute;
  };
  const Entry Entries[] = {
      {&P.maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
      {&P.maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
      {&P.maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
      {&P.maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
      {&P.maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
      {&P.maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
      {&P.maxTexture2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH},
      {&P.maxTexture2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT},
      {&P.maxTexture2DMipmap[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH},
      {&P.maxTexture2DMipmap[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT},
      {&P.maxTexture2DLinear[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH},
      {&P.maxTexture2DLinear[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT},
      {&P.maxTexture2DLinear[2],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH},
      {&P.maxTexture2DGather[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH},
      {&P.maxTexture2DGather[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT},
      {&P.maxTexture3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH},
      {&P.maxTexture3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT},
      {&P.maxTexture3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH},
      {&P.maxTexture3DAlt[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE},
      {&P.maxTexture3DAlt[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE},
      {&P.maxTexture3DAlt[2],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE},
      {&P.maxTexture1DLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH},
      {&P.maxTexture1DLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS},
      {&P.maxTexture2DLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH},
      {&P.maxTexture2DLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT},
      {&P.maxTexture2DLayered[2],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS},
      {&P.maxTextureCubemapLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH},
      {&P.maxTextureCubemapLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS},
      {&P.maxSurface2D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH},
      {&P.maxSurface2D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT},
      {&P.maxSurface3D[0], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH},
      {&P.maxSurface3D[1], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT},
      {&P.maxSurface3D[2], CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH},
      {&P.maxSurface1DLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH},
      {&P.maxSurface1DLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS},
      {&P.maxSurface2DLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH},
      {&P.maxSurface2DLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT},
      {&P.maxSurface2DLayered[2],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS},
      {&P.maxSurfaceCubemapLayered[0],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH},
      {&P.maxSurfaceCubemapLayered[1],
       CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS},
  };
  for (const Entry &E : Entries)
    if (CUresult R = attribute(D, E.Attribute, *E.Target))
      return R;
  return CUDA_SUCCESS;
}

/// cudaDeviceProp's size_t members.
CUresult fillSizes(cudaDeviceProp &P, CUdevice D) {
  struct Entry {
    size_t *Target;
    CUdevice_attribute Attribute;
  };
  const Entry Entries[] = {
      {&P.sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&P.memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
      {&P.totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
      {&P.textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT},
      {&P.texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT},
      {&P.surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT},
      {&P.sharedMemPerMultiprocessor,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
      {&P.sharedMemPerBlockOptin,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&P.reservedSharedMemPerBlock,
       CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK},
  };
  for (const Entry &E : Entries) {
    int Value = 0;
    if (CUresult R = attribute(D, E.Attribute, Value))
      return R;
    *E.Target = static_cast<size_t>(static_cast<unsigned>(Value));
  }
  return CUDA_SUCCESS;
}

CUresult fillProperties(cudaDeviceProp &P, CUdevice D) {
  std::memset(&P, 0, sizeof(P));
  if (CUresult R = cuDeviceGetName(P.name, sizeof(P.name), D))
    return R;
  CUuuid Uuid;
  if (CUresult R = cuDeviceGetUuid_v2(&Uuid, D))
    return R;
  static_assert(sizeof(P.uuid) == sizeof(Uuid));
  std::memcpy(&P.uuid, &Uuid, sizeof(Uuid));
  if (CUresult R = cuDeviceTotalMem(&P.totalGlobalMem, D))
    return R;
  for (const IntProperty &Prop : IntProperties)
    if (CUresult R = attribute(D, Prop.Attribute, P.*Prop.Field))
      return R;
  if (CUresult R = fillArrays(P, D))
    return R;
  if (CUresult R = fillSizes(P, D))
    return R;
  int Value = 0;
  if (CUresult R = attribute(
          D, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, Value))
    return R;
  P.gpuDirectRDMAFlushWritesOptions = static_cast<unsigned>(Value);
  if (CUresult R = attribute(
          D, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, Value))
    return R;
  P.memoryPoolSupportedHandleTypes = static_cast<unsigned>(Value);
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGetDeviceCount(int *Count) {
  CUDART_FAIL_IF(!Count, cudaErrorInvalidValue, "The count pointer is null.");
  *Count = 0;
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuDeviceGetCount(Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDevice(int *Device) {
  CUDART_FAIL_IF(!Device, cudaErrorInvalidValue, "The device pointer is null.");
  CUDART_TRY(initialize(__func__));
  *Device = threadDevice();
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDevice(int Device) {
  return selectDevice(__func__, Device);
}

cudaError_t CUDARTAPI cudaInitDevice(int Device, unsigned int DeviceFlags,
                                     unsigned int Flags) {
  CUDART_FAIL_IF(Flags != 0, cudaErrorInvalidValue,
                 "cudaInitDevice flags must be 0, not %#x.", Flags);
  CUDART_TRY(checkDevice(__func__, Device));
  if (DeviceFlags)
    CUDART_DRIVER(cuDevicePrimaryCtxSetFlags(Device, DeviceFlags));
  CUcontext Primary;
  CUDART_DRIVER(cuDevicePrimaryCtxRetain(&Primary, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceProperties(struct cudaDeviceProp *Prop,
                                              int Device) {
  CUDART_FAIL_IF(!Prop, cudaErrorInvalidValue,
                 "The properties pointer is null.");
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(fillProperties(*Prop, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetAttribute(int *Value,
                                             enum cudaDeviceAttr Attr,
                                             int Device) {
  CUDART_FAIL_IF(!Value, cudaErrorInvalidValue, "The value pointer is null.");
  CUDART_TRY(checkDevice(__func__, Device));
  // cudaDeviceAttr's values are CUdevice_attribute's.
  CUDART_DRIVER(cuDeviceGetAttribute(
      Value, static_cast<CUdevice_attribute>(Attr), Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaChooseDevice(int *Device,
                                       const struct cudaDeviceProp *Prop) {
  CUDART_FAIL_IF(!Device || !Prop, cudaErrorInvalidValue,
                 "The device and properties pointers must not be null.");
  int Count = 0;
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuDeviceGetCount(&Count));
  // The device whose compute capability is closest to the requested one
  // wins; the devices of one process are alike, so the first is chosen
  // unless another matches exactly.
  *Device = 0;
  for (int D = 0; D < Count; ++D) {
    int Major = 0, Minor = 0;
    CUDART_DRIVER(
        attribute(D, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Major));
    CUDART_DRIVER(
        attribute(D, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Minor));
    if (Major == Prop->major && Minor == Prop->minor) {
      *Device = D;
      break;
    }
  }
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  // One driver call when a context is current, as after any earlier call
  // that needed one: the wait for the device is what programs time.
  CUresult R = cuCtxSynchronize();
  if (R == CUDA_ERROR_INVALID_CONTEXT || R == CUDA_ERROR_NOT_INITIALIZED) {
    CUDART_CONTEXT(Ctx);
    R = cuCtxSynchronize();
  }
  CUDART_DRIVER(R);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceReset(void) {
  CUDART_TRY(initialize(__func__));
  CUdevice Device = threadDevice();
  unsigned long long Id = 0;
  if (cuCtxGetId(nullptr, &Id) == CUDA_SUCCESS)
    unbindManagedVariables(Id);
  // "Destroy all allocations and reset all state on the current device in
  // the current process": the primary context goes; the next call that
  // needs one creates it again. Modules loaded into it are keyed by its id,
  // which the new context does not share.
  CUDART_DRIVER(cuDevicePrimaryCtxReset(Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetDeviceFlags(unsigned int Flags) {
  CUDART_TRY(checkDevice(__func__, threadDevice()));
  // cudaDeviceMapHost (8) is always on for cuCtx* contexts; the driver's
  // primary context flags take the scheduling and local-memory bits.
  CUDART_DRIVER(
      cuDevicePrimaryCtxSetFlags(threadDevice(), Flags & ~cudaDeviceMapHost));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGetDeviceFlags(unsigned int *Flags) {
  CUDART_FAIL_IF(!Flags, cudaErrorInvalidValue, "The flags pointer is null.");
  CUDART_TRY(checkDevice(__func__, threadDevice()));
  unsigned int DriverFlags = 0;
  int Active = 0;
  CUDART_DRIVER(
      cuDevicePrimaryCtxGetState(threadDevice(), &DriverFlags, &Active));
  // The runtime reports host mapping as on: every context can map host
  // memory.
  *Flags = DriverFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetLimit(size_t *Value, enum cudaLimit Limit) {
  CUDART_FAIL_IF(!Value, cudaErrorInvalidValue, "The value pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuCtxGetLimit(Value, static_cast<CUlimit>(Limit)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetLimit(enum cudaLimit Limit, size_t Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuCtxSetLimit(static_cast<CUlimit>(Limit), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetCacheConfig(enum cudaFuncCache *Config) {
  CUDART_FAIL_IF(!Config, cudaErrorInvalidValue,
                 "The configuration pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUfunc_cache C;
  CUDART_DRIVER(cuCtxGetCacheConfig(&C));
  *Config = static_cast<cudaFuncCache>(C);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetCacheConfig(enum cudaFuncCache Config) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuCtxSetCacheConfig(static_cast<CUfunc_cache>(Config)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetStreamPriorityRange(int *Least,
                                                       int *Greatest) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuCtxGetStreamPriorityRange(Least, Greatest));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetPCIBusId(char *PciBusId, int Len,
                                            int Device) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceGetPCIBusId(PciBusId, Len, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetByPCIBusId(int *Device,
                                              const char *PciBusId) {
  CUDART_TRY(initialize(__func__));
  CUdevice D;
  CUDART_DRIVER(cuDeviceGetByPCIBusId(&D, PciBusId));
  *Device = D;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceCanAccessPeer(int *CanAccess, int Device,
                                              int PeerDevice) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_TRY(checkDevice(__func__, PeerDevice));
  CUDART_DRIVER(cuDeviceCanAccessPeer(CanAccess, Device, PeerDevice));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceEnablePeerAccess(int PeerDevice,
                                                 unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_TRY(checkDevice(__func__, PeerDevice));
  CUcontext Peer;
  CUDART_DRIVER(cuDevicePrimaryCtxRetain(&Peer, PeerDevice));
  CUDART_DRIVER(cuCtxEnablePeerAccess(Peer, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceDisablePeerAccess(int PeerDevice) {
  CUDART_CONTEXT(Ctx);
  CUDART_TRY(checkDevice(__func__, PeerDevice));
  CUcontext Peer;
  CUDART_DRIVER(cuDevicePrimaryCtxRetain(&Peer, PeerDevice));
  CUDART_DRIVER(cuCtxDisablePeerAccess(Peer));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *Config) {
  CUDART_FAIL_IF(!Config, cudaErrorInvalidValue,
                 "The configuration pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUsharedconfig C;
  CUDART_DRIVER(cuCtxGetSharedMemConfig(&C));
  *Config = static_cast<cudaSharedMemConfig>(C);
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig Config) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuCtxSetSharedMemConfig(static_cast<CUsharedconfig>(Config)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaSetValidDevices(int *Devices, int Length) {
  CUDART_FAIL_IF(Length < 0 || (Length > 0 && !Devices), cudaErrorInvalidValue,
                 "The device list is null or its length (%d) negative.",
                 Length);
  // The list only orders the devices the runtime may pick for a thread
  // that never chose one; every device of a cucpu process is alike, so
  // checking the list is all there is to do.
  for (int I = 0; I < Length; ++I)
    CUDART_TRY(checkDevice(__func__, Devices[I]));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDriverGetVersion(int *DriverVersion) {
  CUDART_FAIL_IF(!DriverVersion, cudaErrorInvalidValue,
                 "The version pointer is null.");
  CUDART_DRIVER(cuDriverGetVersion(DriverVersion));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaRuntimeGetVersion(int *RuntimeVersion) {
  CUDART_FAIL_IF(!RuntimeVersion, cudaErrorInvalidValue,
                 "The version pointer is null.");
  *RuntimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetInfo(size_t *Free, size_t *Total) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemGetInfo(Free, Total));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaProfilerStart(void) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuProfilerStart());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaProfilerStop(void) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuProfilerStop());
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetP2PAttribute(int *Value,
                                                enum cudaDeviceP2PAttr Attr,
                                                int Device, int PeerDevice) {
  CUDART_FAIL_IF(!Value, cudaErrorInvalidValue, "The value pointer is null.");
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_TRY(checkDevice(__func__, PeerDevice));
  // cudaDeviceP2PAttr's values are CUdevice_P2PAttribute's.
  CUDART_DRIVER(cuDeviceGetP2PAttribute(
      Value, static_cast<CUdevice_P2PAttribute>(Attr), Device, PeerDevice));
  return cudaSuccess;
}

} // extern "C"

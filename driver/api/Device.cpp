//===- Device.cpp - Device management entry points (E.2) ------------------===//
#include "api/Handles.h"
#include "core/EntryPoint.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::api;

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetCount(int *Count) {
  return CU_ENTRY(Count).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE,
                  "The count pointer is NULL.");
    *Count = Platform::get().deviceCount();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGet(CUdevice *Out, int Ordinal) {
  return CU_ENTRY(Out, Ordinal).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The device pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Ordinal));
    *Out = D.ordinal();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetName(char *Name, int Length,
                                              CUdevice Dev) {
  return CU_ENTRY(Name, Length, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Name, CUDA_ERROR_INVALID_VALUE, "The name buffer is NULL.");
    CU_INVALID_IF(Length <= 0, CUDA_ERROR_INVALID_VALUE,
                  "The name buffer length must be positive (got {0}).", Length);
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    size_t Copied = std::min(D.name().size(), static_cast<size_t>(Length - 1));
    std::memcpy(Name, D.name().data(), Copied);
    Name[Copied] = '\0';
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *Bytes, CUdevice Dev) {
  return CU_ENTRY(Bytes, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Bytes, CUDA_ERROR_INVALID_VALUE,
                  "The size pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    *Bytes = D.totalMemory();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetUuid_v2(CUuuid *Uuid, CUdevice Dev) {
  return CU_ENTRY(Uuid, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Uuid, CUDA_ERROR_INVALID_VALUE, "The UUID pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    *Uuid = D.uuid();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetLuid(char *Luid,
                                              unsigned int *DeviceNodeMask,
                                              CUdevice Dev) {
  return CU_ENTRY(Luid, DeviceNodeMask, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Luid || !DeviceNodeMask, CUDA_ERROR_INVALID_VALUE,
                  "The LUID and node-mask pointers must not be NULL.");
    CU_TRY(lookupDevice(Dev).takeError());
    return makeError(CUDA_ERROR_NOT_SUPPORTED,
                     "Device LUIDs exist only on Windows.");
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceComputeCapability(int *Major, int *Minor,
                                                        CUdevice Dev) {
  return CU_ENTRY(Major, Minor, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Major || !Minor, CUDA_ERROR_INVALID_VALUE,
                  "The major and minor pointers must not be NULL.");
    CU_TRY(lookupDevice(Dev).takeError());
    *Major = ComputeCapabilityMajor;
    *Minor = ComputeCapabilityMinor;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetAttribute(int *Value,
                                                   CUdevice_attribute Attribute,
                                                   CUdevice Dev) {
  return CU_ENTRY(Value, Attribute, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    CU_TRY_ASSIGN(*Value, D.attribute(Attribute));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetProperties(CUdevprop *Prop,
                                                    CUdevice Dev) {
  return CU_ENTRY(Prop, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Prop, CUDA_ERROR_INVALID_VALUE,
                  "The properties pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    auto Attr = [&](CUdevice_attribute A) {
      llvm::Expected<int> V = D.attribute(A);
      if (V)
        return *V;
      llvm::consumeError(V.takeError());
      return 0;
    };
    Prop->maxThreadsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    Prop->maxThreadsDim[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    Prop->maxThreadsDim[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    Prop->maxThreadsDim[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    Prop->maxGridSize[0] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    Prop->maxGridSize[1] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    Prop->maxGridSize[2] = Attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    Prop->sharedMemPerBlock =
        Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    Prop->totalConstantMemory = Attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    Prop->SIMDWidth = Attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    Prop->memPitch = Attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
    Prop->regsPerBlock = Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    Prop->clockRate = Attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    Prop->textureAlign = Attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetPCIBusId(char *BusId, int Length,
                                                  CUdevice Dev) {
  return CU_ENTRY(BusId, Length, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!BusId, CUDA_ERROR_INVALID_VALUE,
                  "The bus id buffer is NULL.");
    CU_INVALID_IF(Length <= 0, CUDA_ERROR_INVALID_VALUE,
                  "The bus id buffer length must be positive (got {0}).",
                  Length);
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    std::string Text = D.pciBusId();
    size_t Copied = std::min(Text.size(), static_cast<size_t>(Length - 1));
    std::memcpy(BusId, Text.data(), Copied);
    BusId[Copied] = '\0';
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice *Out,
                                                    const char *BusId) {
  return CU_ENTRY(Out, BusId).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out || !BusId, CUDA_ERROR_INVALID_VALUE,
                  "The device and bus id pointers must not be NULL.");
    CU_TRY_ASSIGN(Device & D, Platform::get().deviceByPciBusId(BusId));
    *Out = D.ordinal();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceCanAccessPeer(int *CanAccess,
                                                    CUdevice Dev,
                                                    CUdevice Peer) {
  return CU_ENTRY(CanAccess, Dev, Peer).run([&]() -> llvm::Error {
    CU_INVALID_IF(!CanAccess, CUDA_ERROR_INVALID_VALUE,
                  "The result pointer is NULL.");
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    CU_TRY_ASSIGN(Device & P, lookupDevice(Peer));
    // All devices share the host's memory; a device is not its own peer.
    *CanAccess = &D != &P;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuDeviceGetP2PAttribute(
    int *Value, CUdevice_P2PAttribute Attribute, CUdevice Src, CUdevice Dst) {
  return CU_ENTRY(Value, Attribute, Src, Dst).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Value, CUDA_ERROR_INVALID_VALUE,
                  "The value pointer is NULL.");
    CU_TRY_ASSIGN(Device & S, lookupDevice(Src));
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dst));
    CU_INVALID_IF(&S == &D, CUDA_ERROR_INVALID_DEVICE,
                  "Peer attributes need two different devices (got {0} "
                  "twice).",
                  Src);
    switch (Attribute) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
    // Every atomic works between devices that share the host's memory.
    case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
      *Value = 0;
      break;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
      *Value = 1;
      break;
    default:
      return makeError(CUDA_ERROR_INVALID_VALUE,
                       llvm::formatv("{0} is not a valid peer attribute.",
                                     static_cast<int>(Attribute)));
    }
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI
cuDeviceGetTexture1DLinearMaxWidth(size_t *MaxWidth, CUarray_format Format,
                                   unsigned NumChannels, CUdevice Dev) {
  return CU_ENTRY(MaxWidth, Format, NumChannels, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!MaxWidth, CUDA_ERROR_INVALID_VALUE,
                  "The width pointer is NULL.");
    CU_INVALID_IF(NumChannels != 1 && NumChannels != 2 && NumChannels != 4,
                  CUDA_ERROR_INVALID_VALUE,
                  "A texel has 1, 2 or 4 channels (got {0}).", NumChannels);
    CU_TRY_ASSIGN(Device & D, lookupDevice(Dev));
    CU_TRY_ASSIGN(
        int Width,
        D.attribute(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH));
    *MaxWidth = static_cast<size_t>(Width);
    return llvm::Error::success();
  });
}

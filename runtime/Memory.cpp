//===- Memory.cpp - Allocations, host memory and pointer attributes -------===//
#include "Context.h"
#include "Errors.h"

#include <cstring>

using namespace cucpu;
using namespace cucpu::rt;

namespace {
CUdeviceptr devicePointer(const void *P) {
  return reinterpret_cast<CUdeviceptr>(P);
}
} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaMalloc(void **DevPtr, size_t Size) {
  CUDART_FAIL_IF(!DevPtr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  // "If size is 0, cudaMalloc returns cudaSuccess" with a null pointer,
  // where cuMemAlloc refuses the size.
  if (Size == 0) {
    *DevPtr = nullptr;
    return cudaSuccess;
  }
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemAlloc(&P, Size));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFree(void *DevPtr) {
  // cudaFree(0) is the idiom that initialises the runtime's context.
  CUDART_CONTEXT(Ctx);
  if (!DevPtr)
    return cudaSuccess;
  CUDART_DRIVER(cuMemFree(devicePointer(DevPtr)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocPitch(void **DevPtr, size_t *Pitch,
                                      size_t Width, size_t Height) {
  CUDART_FAIL_IF(!DevPtr || !Pitch, cudaErrorInvalidValue,
                 "The pointer and pitch results must not be null.");
  CUDART_CONTEXT(Ctx);
  if (Width == 0 || Height == 0) {
    *DevPtr = nullptr;
    *Pitch = Width;
    return cudaSuccess;
  }
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemAllocPitch(&P, Pitch, Width, Height, 4));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMalloc3D(struct cudaPitchedPtr *PitchedDevPtr,
                                   struct cudaExtent Extent) {
  CUDART_FAIL_IF(!PitchedDevPtr, cudaErrorInvalidValue,
                 "The pitched pointer result is null.");
  void *P = nullptr;
  size_t Pitch = 0;
  CUDART_TRY(
      cudaMallocPitch(&P, &Pitch, Extent.width, Extent.height * Extent.depth));
  *PitchedDevPtr = {P, Pitch, Extent.width, Extent.height};
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocHost(void **Ptr, size_t Size) {
  CUDART_FAIL_IF(!Ptr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  if (Size == 0) {
    *Ptr = nullptr;
    return cudaSuccess;
  }
  CUDART_DRIVER(cuMemAllocHost(Ptr, Size));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostAlloc(void **Ptr, size_t Size,
                                    unsigned int Flags) {
  CUDART_FAIL_IF(!Ptr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_FAIL_IF(Flags & ~0x7u, cudaErrorInvalidValue,
                 "cudaHostAlloc flags %#x contain unknown bits.", Flags);
  CUDART_CONTEXT(Ctx);
  if (Size == 0) {
    *Ptr = nullptr;
    return cudaSuccess;
  }
  // The cudaHostAlloc* flags are the CU_MEMHOSTALLOC_* bits.
  CUDART_DRIVER(cuMemHostAlloc(Ptr, Size, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFreeHost(void *Ptr) {
  CUDART_CONTEXT(Ctx);
  if (!Ptr)
    return cudaSuccess;
  CUDART_DRIVER(cuMemFreeHost(Ptr));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostRegister(void *Ptr, size_t Size,
                                       unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemHostRegister(Ptr, Size, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostUnregister(void *Ptr) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemHostUnregister(Ptr));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostGetDevicePointer(void **DevPtr, void *Host,
                                               unsigned int Flags) {
  CUDART_FAIL_IF(!DevPtr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemHostGetDevicePointer(&P, Host, Flags));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaHostGetFlags(unsigned int *Flags, void *Host) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemHostGetFlags(Flags, Host));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocManaged(void **DevPtr, size_t Size,
                                        unsigned int Flags) {
  CUDART_FAIL_IF(!DevPtr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUDART_FAIL_IF(Size == 0, cudaErrorInvalidValue,
                 "A managed allocation of 0 bytes is invalid.");
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemAllocManaged(&P, Size, Flags));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocAsync(void **DevPtr, size_t Size,
                                      cudaStream_t Stream) {
  CUDART_FAIL_IF(!DevPtr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemAllocAsync(&P, Size, Stream));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaFreeAsync(void *DevPtr, cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemFreeAsync(devicePointer(DevPtr), Stream));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaPointerGetAttributes(
    struct cudaPointerAttributes *Attributes, const void *Ptr) {
  CUDART_FAIL_IF(!Attributes, cudaErrorInvalidValue,
                 "The attributes pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUmemorytype Type = static_cast<CUmemorytype>(0);
  int Device = -2;
  CUdeviceptr DevicePointer = 0;
  void *HostPointer = nullptr;
  int Managed = 0;
  CUpointer_attribute Names[] = {
      CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_HOST_POINTER,
      CU_POINTER_ATTRIBUTE_IS_MANAGED};
  void *Values[] = {&Type, &Device, &DevicePointer, &HostPointer, &Managed};
  CUDART_DRIVER(cuPointerGetAttributes(5, Names, Values, devicePointer(Ptr)));
  *Attributes = {};
  // Memory the driver does not know is cudaMemoryTypeUnregistered, with
  // device -2 and null pointers ("no error" since CUDA 11).
  if (Type == 0) {
    Attributes->type = cudaMemoryTypeUnregistered;
    Attributes->device = -2;
    return cudaSuccess;
  }
  Attributes->type = Managed                      ? cudaMemoryTypeManaged
                     : Type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost
                                                  : cudaMemoryTypeDevice;
  Attributes->device = Device;
  Attributes->devicePointer = reinterpret_cast<void *>(DevicePointer);
  Attributes->hostPointer = HostPointer;
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaIpcGetMemHandle(cudaIpcMemHandle_t *Handle,
                                          void *DevPtr) {
  CUDART_CONTEXT(Ctx);
  static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle));
  CUDART_DRIVER(cuIpcGetMemHandle(reinterpret_cast<CUipcMemHandle *>(Handle),
                                  devicePointer(DevPtr)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaIpcOpenMemHandle(void **DevPtr,
                                           cudaIpcMemHandle_t Handle,
                                           unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUipcMemHandle H;
  std::memcpy(&H, &Handle, sizeof(H));
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuIpcOpenMemHandle(&P, H, Flags));
  *DevPtr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaIpcCloseMemHandle(void *DevPtr) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuIpcCloseMemHandle(devicePointer(DevPtr)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaIpcGetEventHandle(cudaIpcEventHandle_t *Handle,
                                            cudaEvent_t Event) {
  CUDART_CONTEXT(Ctx);
  static_assert(sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle));
  CUDART_DRIVER(
      cuIpcGetEventHandle(reinterpret_cast<CUipcEventHandle *>(Handle), Event));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaIpcOpenEventHandle(cudaEvent_t *Event,
                                             cudaIpcEventHandle_t Handle) {
  CUDART_CONTEXT(Ctx);
  CUipcEventHandle H;
  std::memcpy(&H, &Handle, sizeof(H));
  CUDART_DRIVER(cuIpcOpenEventHandle(Event, H));
  return cudaSuccess;
}

} // extern "C"

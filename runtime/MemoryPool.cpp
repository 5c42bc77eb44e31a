//===- MemoryPool.cpp - Stream-ordered allocation pools -------------------===//
//
// cudaMemPool_t is the driver's CUmemoryPool, and the runtime's pool
// properties, attributes and access descriptors have the driver's layouts
// and values, so these calls pass them through.
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"

using namespace cucpu;
using namespace cucpu::rt;

static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));
static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc));
static_assert(sizeof(cudaMemLocation) == sizeof(CUmemLocation));

extern "C" {

cudaError_t CUDARTAPI cudaDeviceGetDefaultMemPool(cudaMemPool_t *Pool,
                                                  int Device) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceGetDefaultMemPool(Pool, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceGetMemPool(cudaMemPool_t *Pool, int Device) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceGetMemPool(Pool, Device));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaDeviceSetMemPool(int Device, cudaMemPool_t Pool) {
  CUDART_TRY(checkDevice(__func__, Device));
  CUDART_DRIVER(cuDeviceSetMemPool(Device, Pool));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolCreate(cudaMemPool_t *Pool,
                                        const struct cudaMemPoolProps *Props) {
  CUDART_FAIL_IF(!Props, cudaErrorInvalidValue,
                 "The pool properties are null.");
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuMemPoolCreate(Pool, reinterpret_cast<const CUmemPoolProps *>(Props)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolDestroy(cudaMemPool_t Pool) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemPoolDestroy(Pool));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolSetAttribute(cudaMemPool_t Pool,
                                              enum cudaMemPoolAttr Attr,
                                              void *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemPoolSetAttribute(
      Pool, static_cast<CUmemPool_attribute>(Attr), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolGetAttribute(cudaMemPool_t Pool,
                                              enum cudaMemPoolAttr Attr,
                                              void *Value) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemPoolGetAttribute(
      Pool, static_cast<CUmemPool_attribute>(Attr), Value));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolTrimTo(cudaMemPool_t Pool,
                                        size_t MinBytesToKeep) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemPoolTrimTo(Pool, MinBytesToKeep));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolSetAccess(
    cudaMemPool_t Pool, const struct cudaMemAccessDesc *Descs, size_t Count) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuMemPoolSetAccess(
      Pool, reinterpret_cast<const CUmemAccessDesc *>(Descs), Count));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemPoolGetAccess(enum cudaMemAccessFlags *Flags,
                                           cudaMemPool_t Pool,
                                           struct cudaMemLocation *Location) {
  CUDART_FAIL_IF(!Flags, cudaErrorInvalidValue, "The flags pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUmemAccess_flags F;
  CUDART_DRIVER(cuMemPoolGetAccess(
      &F, Pool, reinterpret_cast<CUmemLocation *>(Location)));
  *Flags = static_cast<cudaMemAccessFlags>(F);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync(void **Ptr, size_t Size,
                                              cudaMemPool_t Pool,
                                              cudaStream_t Stream) {
  CUDART_FAIL_IF(!Ptr, cudaErrorInvalidValue, "The result pointer is null.");
  CUDART_CONTEXT(Ctx);
  CUdeviceptr P = 0;
  CUDART_DRIVER(cuMemAllocFromPoolAsync(&P, Size, Pool, Stream));
  *Ptr = reinterpret_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void **Ptr, size_t Size,
                                                   cudaMemPool_t Pool,
                                                   cudaStream_t Stream) {
  return cudaMallocFromPoolAsync(Ptr, Size, Pool,
                                 Stream ? Stream : cudaStreamPerThread);
}

cudaError_t CUDARTAPI
cudaMemGetDefaultMemPool(cudaMemPool_t *Pool, struct cudaMemLocation *Location,
                         enum cudaMemAllocationType Type) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(
      cuMemGetDefaultMemPool(Pool, reinterpret_cast<CUmemLocation *>(Location),
                             static_cast<CUmemAllocationType>(Type)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemGetMemPool(cudaMemPool_t *Pool,
                                        struct cudaMemLocation *Location,
                                        enum cudaMemAllocationType Type) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuMemGetMemPool(Pool,
                                reinterpret_cast<CUmemLocation *>(Location),
                                static_cast<CUmemAllocationType>(Type)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaMemSetMemPool(struct cudaMemLocation *Location,
                                        enum cudaMemAllocationType Type,
                                        cudaMemPool_t Pool) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuMemSetMemPool(reinterpret_cast<CUmemLocation *>(Location),
                                static_cast<CUmemAllocationType>(Type), Pool));
  return cudaSuccess;
}

} // extern "C"

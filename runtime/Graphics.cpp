//===- Graphics.cpp - Graphics and OpenGL interoperability ----------------===//
//
// cudaGraphicsResource_t is the driver's CUgraphicsResource and cudaArray_t
// its CUarray, and the register and map flags are the driver's, so these
// calls pass through to cuGraphics* and cuGL* (cuda_gl_interop.h).
//
//===----------------------------------------------------------------------===//
#include "Context.h"
#include "Errors.h"

#include "cuda_gl_interop.h"

using namespace cucpu;
using namespace cucpu::rt;

namespace {
CUgraphicsResource *driverList(cudaGraphicsResource_t *Resources) {
  return reinterpret_cast<CUgraphicsResource *>(Resources);
}
} // namespace

extern "C" {

cudaError_t CUDARTAPI cudaGraphicsGLRegisterBuffer(
    struct cudaGraphicsResource **Resource, GLuint Buffer, unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsGLRegisterBuffer(
      reinterpret_cast<CUgraphicsResource *>(Resource), Buffer, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **Resource,
                            GLuint Image, GLenum Target, unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsGLRegisterImage(
      reinterpret_cast<CUgraphicsResource *>(Resource), Image, Target, Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLGetDevices(unsigned int *Count, int *Devices,
                                       unsigned int Capacity,
                                       enum cudaGLDeviceList List) {
  CUDART_TRY(initialize(__func__));
  CUDART_DRIVER(cuGLGetDevices_v2(Count, Devices, Capacity,
                                  static_cast<CUGLDeviceList>(List)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI
cudaGraphicsUnregisterResource(cudaGraphicsResource_t Resource) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsUnregisterResource(
      reinterpret_cast<CUgraphicsResource>(Resource)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsResourceSetMapFlags(
    cudaGraphicsResource_t Resource, unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsResourceSetMapFlags_v2(
      reinterpret_cast<CUgraphicsResource>(Resource), Flags));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsMapResources(
    int Count, cudaGraphicsResource_t *Resources, cudaStream_t Stream) {
  CUDART_FAIL_IF(Count < 0, cudaErrorInvalidValue,
                 "The resource count (%d) is negative.", Count);
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsMapResources(static_cast<unsigned>(Count),
                                       driverList(Resources),
                                       reinterpret_cast<CUstream>(Stream)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsUnmapResources(
    int Count, cudaGraphicsResource_t *Resources, cudaStream_t Stream) {
  CUDART_FAIL_IF(Count < 0, cudaErrorInvalidValue,
                 "The resource count (%d) is negative.", Count);
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsUnmapResources(static_cast<unsigned>(Count),
                                         driverList(Resources),
                                         reinterpret_cast<CUstream>(Stream)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedPointer(
    void **Pointer, size_t *Size, cudaGraphicsResource_t Resource) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsResourceGetMappedPointer_v2(
      reinterpret_cast<CUdeviceptr *>(Pointer), Size,
      reinterpret_cast<CUgraphicsResource>(Resource)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsSubResourceGetMappedArray(
    cudaArray_t *Array, cudaGraphicsResource_t Resource,
    unsigned int ArrayIndex, unsigned int MipLevel) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsSubResourceGetMappedArray(
      reinterpret_cast<CUarray *>(Array),
      reinterpret_cast<CUgraphicsResource>(Resource), ArrayIndex, MipLevel));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGraphicsResourceGetMappedMipmappedArray(
    cudaMipmappedArray_t *MipmappedArray, cudaGraphicsResource_t Resource) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGraphicsResourceGetMappedMipmappedArray(
      reinterpret_cast<CUmipmappedArray *>(MipmappedArray),
      reinterpret_cast<CUgraphicsResource>(Resource)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLSetGLDevice(int Device) {
  return cudaSetDevice(Device);
}

cudaError_t CUDARTAPI cudaGLRegisterBufferObject(GLuint Buffer) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGLRegisterBufferObject(Buffer));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLMapBufferObject(void **Pointer, GLuint Buffer) {
  CUDART_CONTEXT(Ctx);
  size_t Size = 0;
  CUDART_DRIVER(cuGLMapBufferObject_v2(reinterpret_cast<CUdeviceptr *>(Pointer),
                                       &Size, Buffer));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLMapBufferObjectAsync(void **Pointer, GLuint Buffer,
                                                 cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  size_t Size = 0;
  CUDART_DRIVER(cuGLMapBufferObjectAsync_v2(
      reinterpret_cast<CUdeviceptr *>(Pointer), &Size, Buffer,
      reinterpret_cast<CUstream>(Stream)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLUnmapBufferObject(GLuint Buffer) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGLUnmapBufferObject(Buffer));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLUnmapBufferObjectAsync(GLuint Buffer,
                                                   cudaStream_t Stream) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(
      cuGLUnmapBufferObjectAsync(Buffer, reinterpret_cast<CUstream>(Stream)));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLUnregisterBufferObject(GLuint Buffer) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGLUnregisterBufferObject(Buffer));
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaGLSetBufferObjectMapFlags(GLuint Buffer,
                                                    unsigned int Flags) {
  CUDART_CONTEXT(Ctx);
  CUDART_DRIVER(cuGLSetBufferObjectMapFlags(Buffer, Flags));
  return cudaSuccess;
}

} // extern "C"

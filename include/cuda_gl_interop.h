/*
 * cucpu -- OpenGL interoperability part of the CUDA runtime API.
 *
 * Independently written declarations matching the CUDA 13.0 ABI. No GL
 * header is required: GLuint/GLenum are declared here unless a GL header
 * was included first (as in cudaGL.h).
 */
/* NVIDIA's include guard, which programs may test. */
#if !defined(__CUDA_GL_INTEROP_H__)
#define __CUDA_GL_INTEROP_H__

#include "cudaGL.h"
#include "cuda_runtime_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/// Which devices cudaGLGetDevices reports.
enum cudaGLDeviceList {
  cudaGLDeviceListAll = 1,          ///< all devices used by the GL context
  cudaGLDeviceListCurrentFrame = 2, ///< devices rendering the current frame
  cudaGLDeviceListNextFrame = 3     ///< devices rendering the next frame
};

/// Access hints of the deprecated buffer-object mappings.
enum cudaGLMapFlags {
  cudaGLMapFlagsNone = 0,
  cudaGLMapFlagsReadOnly = 1,
  cudaGLMapFlagsWriteDiscard = 2
};

/// The CUDA devices of the current GL context.
extern __host__ cudaError_t CUDARTAPI cudaGLGetDevices(
    unsigned int *pCudaDeviceCount, int *pCudaDevices,
    unsigned int cudaDeviceCount, enum cudaGLDeviceList deviceList);
/// Registers a GL texture or renderbuffer as a graphics resource.
extern __host__ cudaError_t CUDARTAPI
cudaGraphicsGLRegisterImage(struct cudaGraphicsResource **resource,
                            GLuint image, GLenum target, unsigned int flags);
/// Registers a GL buffer object as a graphics resource.
extern __host__ cudaError_t CUDARTAPI cudaGraphicsGLRegisterBuffer(
    struct cudaGraphicsResource **resource, GLuint buffer, unsigned int flags);

/// Deprecated: makes \p device the GL device (cudaSetDevice).
extern __host__ cudaError_t CUDARTAPI cudaGLSetGLDevice(int device);
/// Deprecated: registers a buffer object for cudaGLMapBufferObject.
extern __host__ cudaError_t CUDARTAPI cudaGLRegisterBufferObject(GLuint bufObj);
/// Deprecated: maps a registered buffer object.
extern __host__ cudaError_t CUDARTAPI cudaGLMapBufferObject(void **devPtr,
                                                            GLuint bufObj);
/// Deprecated: unmaps a buffer object.
extern __host__ cudaError_t CUDARTAPI cudaGLUnmapBufferObject(GLuint bufObj);
/// Deprecated: unregisters a buffer object.
extern __host__ cudaError_t CUDARTAPI
cudaGLUnregisterBufferObject(GLuint bufObj);
/// Deprecated: cudaGLMapFlags for the next mappings of a buffer object.
extern __host__ cudaError_t CUDARTAPI
cudaGLSetBufferObjectMapFlags(GLuint bufObj, unsigned int flags);
/// Deprecated: stream-ordered cudaGLMapBufferObject.
extern __host__ cudaError_t CUDARTAPI
cudaGLMapBufferObjectAsync(void **devPtr, GLuint bufObj, cudaStream_t stream);
/// Deprecated: stream-ordered cudaGLUnmapBufferObject.
extern __host__ cudaError_t CUDARTAPI
cudaGLUnmapBufferObjectAsync(GLuint bufObj, cudaStream_t stream);

#if defined(__cplusplus)
}
#endif

#endif /* __CUDA_GL_INTEROP_H__ */

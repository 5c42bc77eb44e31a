/*
 * cucpu -- OpenGL interoperability part of the CUDA driver API.
 *
 * Independently written declarations matching the CUDA 13.0 ABI.  No GL
 * header is required: GLuint/GLenum are declared here unless a GL header
 * was included first (include your GL header before this one if you use
 * both, so the GL typedefs are not declared twice).
 */
/* NVIDIA's include guard, which programs may test. */
#ifndef CUDAGL_H
#define CUDAGL_H

#include "cuda.h"

/* GL scalar types, unless a GL / GL loader header already provided them. */
#if !defined(CUCPU_GL_TYPES_DEFINED)
#define CUCPU_GL_TYPES_DEFINED
#if !defined(__gl_h_) && !defined(__GL_H__) && !defined(GL_VERSION_1_1) &&     \
    !defined(__gl_glcorearb_h_) && !defined(__glcorearb_h_) &&                 \
    !defined(__gl3_h_) && !defined(__glew_h__) && !defined(__GLEW_H__) &&      \
    !defined(__gl2_h_) && !defined(GL_ES_VERSION_2_0)
typedef unsigned int GLuint; ///< GL object name
typedef unsigned int GLenum; ///< GL enumerant
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Which devices cuGLGetDevices reports.
typedef enum CUGLDeviceList_enum {
  CU_GL_DEVICE_LIST_ALL = 0x01, ///< all devices used by the GL context
  CU_GL_DEVICE_LIST_CURRENT_FRAME =
      0x02,                           ///< devices rendering the current frame
  CU_GL_DEVICE_LIST_NEXT_FRAME = 0x03 ///< devices rendering the next frame
} CUGLDeviceList;

/// Access hints for legacy buffer object mappings.
typedef enum CUGLmap_flags_enum {
  CU_GL_MAP_RESOURCE_FLAGS_NONE = 0x00,
  CU_GL_MAP_RESOURCE_FLAGS_READ_ONLY = 0x01,
  CU_GL_MAP_RESOURCE_FLAGS_WRITE_DISCARD = 0x02
} CUGLmap_flags;

/* --- Graphics-resource based interop (current API) --------------------- */

/// Registers a GL buffer object as a graphics resource.
CUresult CUDAAPI cuGraphicsGLRegisterBuffer(CUgraphicsResource *pCudaResource,
                                            GLuint buffer, unsigned int Flags);
/// Registers a GL texture or renderbuffer as a graphics resource.
CUresult CUDAAPI cuGraphicsGLRegisterImage(CUgraphicsResource *pCudaResource,
                                           GLuint image, GLenum target,
                                           unsigned int Flags);
/// Devices associated with the current GL context.
CUresult CUDAAPI cuGLGetDevices_v2(unsigned int *pCudaDeviceCount,
                                   CUdevice *pCudaDevices,
                                   unsigned int cudaDeviceCount,
                                   CUGLDeviceList deviceList);
/// Same signature as cuGLGetDevices_v2 (older export).
CUresult CUDAAPI cuGLGetDevices(unsigned int *pCudaDeviceCount,
                                CUdevice *pCudaDevices,
                                unsigned int cudaDeviceCount,
                                CUGLDeviceList deviceList);

#if defined(_WIN32)
#if !defined(WGL_NV_gpu_affinity)
typedef void *HGPUNV;
#endif
/// Device of a WGL GPU affinity handle (Windows only).
CUresult CUDAAPI cuWGLGetDevice(CUdevice *pDevice, HGPUNV hGpu);
#endif

/* --- Buffer-object interop (legacy API, CUDA 1.x/2.x) ------------------ */

/// Legacy GL interop initialization (no effect).
CUresult CUDAAPI cuGLInit(void) CUCPU_DEPRECATED;
/// Creates a context for legacy GL interop.
CUresult CUDAAPI cuGLCtxCreate_v2(CUcontext *pCtx, unsigned int Flags,
                                  CUdevice device) CUCPU_DEPRECATED;
/// Registers a buffer object for legacy mapping.
CUresult CUDAAPI cuGLRegisterBufferObject(GLuint buffer) CUCPU_DEPRECATED;
/// Maps a registered buffer object; returns its address and size.
CUresult CUDAAPI cuGLMapBufferObject_v2(CUdeviceptr *dptr, size_t *size,
                                        GLuint buffer) CUCPU_DEPRECATED;
/// cuGLMapBufferObject_v2 on the per-thread default stream.
CUresult CUDAAPI cuGLMapBufferObject_v2_ptds(CUdeviceptr *dptr, size_t *size,
                                             GLuint buffer) CUCPU_DEPRECATED;
/// Stream-ordered cuGLMapBufferObject_v2.
CUresult CUDAAPI cuGLMapBufferObjectAsync_v2(CUdeviceptr *dptr, size_t *size,
                                             GLuint buffer,
                                             CUstream hStream) CUCPU_DEPRECATED;
CUresult CUDAAPI
cuGLMapBufferObjectAsync_v2_ptsz(CUdeviceptr *dptr, size_t *size, GLuint buffer,
                                 CUstream hStream) CUCPU_DEPRECATED;
/// Unmaps a buffer object.
CUresult CUDAAPI cuGLUnmapBufferObject(GLuint buffer) CUCPU_DEPRECATED;
/// Stream-ordered cuGLUnmapBufferObject.
CUresult CUDAAPI cuGLUnmapBufferObjectAsync(GLuint buffer,
                                            CUstream hStream) CUCPU_DEPRECATED;
/// Unregisters a buffer object.
CUresult CUDAAPI cuGLUnregisterBufferObject(GLuint buffer) CUCPU_DEPRECATED;
/// CU_GL_MAP_RESOURCE_FLAGS_* for future mappings of a buffer object.
CUresult CUDAAPI cuGLSetBufferObjectMapFlags(GLuint buffer, unsigned int Flags)
    CUCPU_DEPRECATED;

#if defined(__CUDA_API_VERSION_INTERNAL)
/* Pre-3.2 forms (32-bit sizes and device pointers, CUDA 2.x contexts), for
 * the driver's implementation and cudaGLTypedefs.h only. */
/// Creates a context for legacy GL interop (first export).
CUresult CUDAAPI cuGLCtxCreate(CUcontext *pCtx, unsigned int Flags,
                               CUdevice device);
/// Maps a registered buffer object, 32-bit address and size.
CUresult CUDAAPI cuGLMapBufferObject(CUdeviceptr_v1 *dptr, unsigned int *size,
                                     GLuint buffer);
/// Stream-ordered cuGLMapBufferObject, 32-bit address and size.
CUresult CUDAAPI cuGLMapBufferObjectAsync(CUdeviceptr_v1 *dptr,
                                          unsigned int *size, GLuint buffer,
                                          CUstream hStream);
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Plain name -> exported symbol mapping (see cuda.h). */
#if !defined(__CUDA_API_VERSION_INTERNAL)
#define cuGLCtxCreate cuGLCtxCreate_v2
#define cuGLGetDevices cuGLGetDevices_v2
#define cuGLMapBufferObject __CUDA_API_PTDS(cuGLMapBufferObject_v2)
#define cuGLMapBufferObjectAsync __CUDA_API_PTSZ(cuGLMapBufferObjectAsync_v2)
#endif

#endif /* CUDAGL_H */

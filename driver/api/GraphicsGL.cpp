//===- GraphicsGL.cpp - OpenGL interoperability entry points --------------===//
//
// cuGraphicsGLRegisterBuffer and cuGraphicsGLRegisterImage (CUDA 11 guide
// §3.2.12.1), cuGLGetDevices, and the buffer-object API of the CUDA 1.1
// guide (§E.10: cuGLInit, cuGLCtxCreate, cuGLRegisterBufferObject,
// cuGLMapBufferObject, cuGLUnmapBufferObject, cuGLUnregisterBufferObject),
// which is served by the same graphics resources, one per buffer object and
// context.
//
//===----------------------------------------------------------------------===//
#include "api/Graphics.h"

#include "api/Handles.h"
#include "core/EntryPoint.h"
#include "core/GlFunctions.h"

#include <cudaGL.h>

#include <map>
#include <mutex>

using namespace cucpu;
using namespace cucpu::api;

namespace {

/// The buffer objects registered with cuGLRegisterBufferObject, by context
/// (its id, which is never reused) and GL name.
class LegacyBuffers {
public:
  static LegacyBuffers &get() {
    static LegacyBuffers Instance;
    return Instance;
  }

  std::shared_ptr<GraphicsResource> find(const Context &C, GLuint Buffer) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Registered.find({C.id(), Buffer});
    return It == Registered.end() ? nullptr : It->second;
  }
  void add(const Context &C, GLuint Buffer,
           std::shared_ptr<GraphicsResource> R) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Registered[{C.id(), Buffer}] = std::move(R);
  }
  std::shared_ptr<GraphicsResource> remove(const Context &C, GLuint Buffer) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Registered.find({C.id(), Buffer});
    if (It == Registered.end())
      return nullptr;
    std::shared_ptr<GraphicsResource> R = std::move(It->second);
    Registered.erase(It);
    return R;
  }

private:
  std::mutex Mutex;
  std::map<std::pair<uint64_t, GLuint>, std::shared_ptr<GraphicsResource>>
      Registered;
};

/// The resource cuGLRegisterBufferObject made for \p Buffer in the current
/// context; CUDA_ERROR_INVALID_VALUE when there is none (NVIDIA's answer for
/// every legacy call, cuGLSetBufferObjectMapFlags's included).
llvm::Expected<std::shared_ptr<GraphicsResource>> legacyBuffer(GLuint Buffer) {
  CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
  std::shared_ptr<GraphicsResource> R = LegacyBuffers::get().find(*C, Buffer);
  CU_INVALID_IF(!R, CUDA_ERROR_INVALID_VALUE,
                "OpenGL buffer object {0} is not registered with CUDA in the "
                "current context (cuGLRegisterBufferObject).",
                Buffer);
  return R;
}

llvm::Error mapLegacy(CUdeviceptr *Pointer, size_t *Size, GLuint Buffer,
                      CUstream S) {
  CU_INVALID_IF(!Pointer, CUDA_ERROR_INVALID_VALUE,
                "The device pointer pointer is NULL.");
  CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, legacyBuffer(Buffer));
  CU_TRY(mapResources({R}, S));
  return R->mappedPointer(Pointer, Size);
}

llvm::Error unmapLegacy(GLuint Buffer, CUstream S) {
  CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, legacyBuffer(Buffer));
  CU_INVALID_IF(!R->mapped(), CUDA_ERROR_INVALID_VALUE,
                "OpenGL buffer object {0} is not mapped.", Buffer);
  return unmapResources({R}, S);
}

} // namespace

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsGLRegisterBuffer(
    CUgraphicsResource *Out, GLuint Buffer, unsigned int Flags) {
  return CU_ENTRY(Out, Buffer, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The resource pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R,
                  GraphicsResource::registerGlBuffer(Buffer, Flags));
    *Out = toHandle(*R);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGraphicsGLRegisterImage(CUgraphicsResource *Out,
                                                        GLuint Image,
                                                        GLenum Target,
                                                        unsigned int Flags) {
  return CU_ENTRY(Out, Image, Target, Flags).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The resource pointer is NULL.");
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R,
                  GraphicsResource::registerGlImage(Image, Target, Flags));
    *Out = toHandle(*R);
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLGetDevices_v2(unsigned int *Count,
                                                CUdevice *Devices,
                                                unsigned int Capacity,
                                                CUGLDeviceList List) {
  return CU_ENTRY(Count, Devices, Capacity, List).run([&]() -> llvm::Error {
    // NVIDIA asks GL first: without a GL context even a NULL count is
    // CUDA_ERROR_OPERATING_SYSTEM.
    CU_TRY(gl::current().takeError());
    CU_INVALID_IF(!Count, CUDA_ERROR_INVALID_VALUE,
                  "The device count pointer is NULL.");
    CU_INVALID_IF(Capacity && !Devices, CUDA_ERROR_INVALID_VALUE,
                  "The device array is NULL for {0} devices.", Capacity);
    CU_INVALID_IF(List < CU_GL_DEVICE_LIST_ALL ||
                      List > CU_GL_DEVICE_LIST_NEXT_FRAME,
                  CUDA_ERROR_INVALID_VALUE,
                  "Device list {0} is not CU_GL_DEVICE_LIST_ALL (1), "
                  "CURRENT_FRAME (2) or NEXT_FRAME (3).",
                  static_cast<int>(List));
    // The GL context renders on this machine's processors, which are what
    // cucpu's device 0 runs kernels on.
    *Count = 1;
    if (Capacity)
      Devices[0] = 0;
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLInit() {
  // NVIDIA's driver answers CUDA_ERROR_OPERATING_SYSTEM without a current GL
  // context, as for the other GL calls.
  return CU_ENTRY().run([] { return gl::current().takeError(); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLCtxCreate_v2(CUcontext *Out,
                                               unsigned int Flags,
                                               CUdevice Dev) {
  // "Creates a new CUDA context, initializes OpenGL interoperability, and
  // associates the CUDA context with the calling thread" (cudaGL.h): after
  // NVIDIA's checks (the pointer, the device, then a current GL context),
  // this is cuCtxCreate, as the interoperability needs nothing set up.
  CUresult R = CU_ENTRY(Out, Flags, Dev).run([&]() -> llvm::Error {
    CU_INVALID_IF(!Out, CUDA_ERROR_INVALID_VALUE,
                  "The context pointer is NULL.");
    CU_TRY(lookupDevice(Dev).takeError());
    return gl::current().takeError();
  });
  return R == CUDA_SUCCESS ? cuCtxCreate_v2(Out, Flags, Dev) : R;
}

CUCPU_EXPORT CUresult CUDAAPI cuGLRegisterBufferObject(GLuint Buffer) {
  return CU_ENTRY(Buffer).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    CU_TRY(gl::current().takeError());
    if (std::shared_ptr<GraphicsResource> Old =
            LegacyBuffers::get().find(*C, Buffer)) {
      CU_INVALID_IF(Old->mapped(), CUDA_ERROR_ALREADY_MAPPED,
                    "OpenGL buffer object {0} is mapped.", Buffer);
      return llvm::Error::success();
    }
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R,
                  GraphicsResource::registerGlBuffer(Buffer, 0));
    LegacyBuffers::get().add(*C, Buffer, std::move(R));
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLMapBufferObject_v2(CUdeviceptr *Pointer,
                                                     size_t *Size,
                                                     GLuint Buffer) {
  return CU_ENTRY(Pointer, Size, Buffer).run([&] {
    return mapLegacy(Pointer, Size, Buffer, nullptr);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLMapBufferObjectAsync_v2(CUdeviceptr *Pointer,
                                                          size_t *Size,
                                                          GLuint Buffer,
                                                          CUstream S) {
  return CU_ENTRY(Pointer, Size, Buffer, S).run([&] {
    return mapLegacy(Pointer, Size, Buffer, S);
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLUnmapBufferObject(GLuint Buffer) {
  return CU_ENTRY(Buffer).run([&] { return unmapLegacy(Buffer, nullptr); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLUnmapBufferObjectAsync(GLuint Buffer,
                                                         CUstream S) {
  return CU_ENTRY(Buffer, S).run([&] { return unmapLegacy(Buffer, S); });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLUnregisterBufferObject(GLuint Buffer) {
  return CU_ENTRY(Buffer).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, legacyBuffer(Buffer));
    CU_INVALID_IF(R->mapped(), CUDA_ERROR_ALREADY_MAPPED,
                  "OpenGL buffer object {0} is mapped; unmap it first.",
                  Buffer);
    CU_TRY_ASSIGN(std::shared_ptr<Context> C, current::context());
    LegacyBuffers::get().remove(*C, Buffer);
    HandleRegistry::get().remove(R.get());
    R->release();
    return llvm::Error::success();
  });
}

CUCPU_EXPORT CUresult CUDAAPI cuGLSetBufferObjectMapFlags(GLuint Buffer,
                                                          unsigned int Flags) {
  return CU_ENTRY(Buffer, Flags).run([&]() -> llvm::Error {
    CU_TRY_ASSIGN(std::shared_ptr<GraphicsResource> R, legacyBuffer(Buffer));
    return R->setMapFlags(Flags);
  });
}

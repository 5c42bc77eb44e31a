//===- GlContext.h - A headless OpenGL context for the GL cases -*- C++ -*-===//
//
// The OpenGL interoperability cases need a GL context current on the test's
// thread, and no window: EGL gives one headless, with Mesa's surfaceless
// platform (llvmpipe, on any machine) or NVIDIA's device platform. libEGL is
// opened at run time, so the suite builds and runs where it is missing; the
// GL cases then skip, unless CUCPU_REQUIRE_GL=1 (set where CI must run them)
// makes a missing context a failure. GL functions come from
// eglGetProcAddress; no GL header is needed.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_TESTS_API_GLCONTEXT_H
#define CUCPU_TESTS_API_GLCONTEXT_H

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <cuda.h>

// cucpu's cudaGL.h declares GLuint/GLenum itself; NVIDIA's includes
// <GL/gl.h>, which GPU machines without GL headers lack: there the suite
// declares the prototypes it calls, as NVIDIA's header does.
#if !defined(CUCPU_CONFORMANCE_NVIDIA) || __has_include(<GL/gl.h>)
#include <cudaGL.h>
#else
typedef unsigned int GLuint;
typedef unsigned int GLenum;
extern "C" {
typedef enum CUGLDeviceList_enum {
  CU_GL_DEVICE_LIST_ALL = 0x01,
  CU_GL_DEVICE_LIST_CURRENT_FRAME = 0x02,
  CU_GL_DEVICE_LIST_NEXT_FRAME = 0x03,
} CUGLDeviceList;
CUresult CUDAAPI cuGraphicsGLRegisterBuffer(CUgraphicsResource *, GLuint,
                                            unsigned int);
CUresult CUDAAPI cuGraphicsGLRegisterImage(CUgraphicsResource *, GLuint, GLenum,
                                           unsigned int);
CUresult CUDAAPI cuGLGetDevices_v2(unsigned int *, CUdevice *, unsigned int,
                                   CUGLDeviceList);
CUresult CUDAAPI cuGLInit(void);
CUresult CUDAAPI cuGLCtxCreate_v2(CUcontext *, unsigned int, CUdevice);
CUresult CUDAAPI cuGLRegisterBufferObject(GLuint);
CUresult CUDAAPI cuGLMapBufferObject_v2(CUdeviceptr *, size_t *, GLuint);
CUresult CUDAAPI cuGLMapBufferObjectAsync_v2(CUdeviceptr *, size_t *, GLuint,
                                             CUstream);
CUresult CUDAAPI cuGLUnmapBufferObject(GLuint);
CUresult CUDAAPI cuGLUnmapBufferObjectAsync(GLuint, CUstream);
CUresult CUDAAPI cuGLUnregisterBufferObject(GLuint);
CUresult CUDAAPI cuGLSetBufferObjectMapFlags(GLuint, unsigned int);
}
#define cuGLCtxCreate cuGLCtxCreate_v2
#define cuGLGetDevices cuGLGetDevices_v2
#define cuGLMapBufferObject cuGLMapBufferObject_v2
#define cuGLMapBufferObjectAsync cuGLMapBufferObjectAsync_v2
#endif

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace cuapi {

/// The GL enumerants the cases use (GL/glcorearb.h).
namespace glenum {
constexpr GLenum ArrayBuffer = 0x8892, StaticDraw = 0x88E4;
constexpr GLenum Texture2D = 0x0DE1, Texture3D = 0x806F,
                 TextureCubeMap = 0x8513, Texture2DArray = 0x8C1A,
                 Renderbuffer = 0x8D41;
constexpr GLenum Rgba8 = 0x8058, Rgb8 = 0x8051, R32f = 0x822E;
constexpr GLenum Rgba = 0x1908, Rgb = 0x1907, Red = 0x1903;
constexpr GLenum UnsignedByte = 0x1401, Float = 0x1406;
constexpr GLenum Framebuffer = 0x8D40, ColorAttachment0 = 0x8CE0;
constexpr GLenum TextureMinFilter = 0x2801, Nearest = 0x2600;
} // namespace glenum

/// Whether CI demands that the GL cases run (CUCPU_REQUIRE_GL=1).
inline bool glRequired() {
  const char *V = std::getenv("CUCPU_REQUIRE_GL");
  return V && std::string(V) == "1";
}

/// Ignores, while it lives, what this thread allocates and never frees
/// under LeakSanitizer: Mesa's EGL and GL drivers keep memory of their own
/// from initialization to exit, reported now and then with a stack that
/// shows no module of cucpu's (a driver unloaded by then).
class IgnoreGlLeaks {
public:
#if defined(__SANITIZE_ADDRESS__)
  IgnoreGlLeaks() { __lsan_disable(); }
  ~IgnoreGlLeaks() { __lsan_enable(); }
#else
  IgnoreGlLeaks() {}
  ~IgnoreGlLeaks() {}
#endif
};

/// A headless GL context made current on the constructing thread, and the GL
/// functions the cases call.
class HeadlessGl {
public:
  /// Tries to make the context; ok() tells, why() says why not.
  HeadlessGl() {
    IgnoreGlLeaks Ignore;
    Ok = create();
  }
  ~HeadlessGl() {
    IgnoreGlLeaks Ignore;
    if (Display && MakeCurrent)
      MakeCurrent(Display, nullptr, nullptr, nullptr);
    if (Display && Context && DestroyContext)
      DestroyContext(Display, Context);
    if (Display && Terminate)
      Terminate(Display);
  }
  HeadlessGl(const HeadlessGl &) = delete;
  HeadlessGl &operator=(const HeadlessGl &) = delete;

  bool ok() const { return Ok; }
  const std::string &why() const { return Why; }
  /// Makes the context current (true) or releases it (false).
  bool makeCurrent(bool Current) {
    return MakeCurrent(Display, nullptr, nullptr, Current ? Context : nullptr);
  }

  // GL functions (loaded once the context exists).
  void (*GenBuffers)(int, GLuint *) = nullptr;
  void (*DeleteBuffers)(int, const GLuint *) = nullptr;
  void (*BindBuffer)(GLenum, GLuint) = nullptr;
  void (*BufferData)(GLenum, long, const void *, GLenum) = nullptr;
  void (*GetBufferSubData)(GLenum, long, long, void *) = nullptr;
  void (*GenTextures)(int, GLuint *) = nullptr;
  void (*DeleteTextures)(int, const GLuint *) = nullptr;
  void (*BindTexture)(GLenum, GLuint) = nullptr;
  void (*TexImage2D)(GLenum, int, int, int, int, int, GLenum, GLenum,
                     const void *) = nullptr;
  void (*TexParameteri)(GLenum, GLenum, int) = nullptr;
  void (*GenRenderbuffers)(int, GLuint *) = nullptr;
  void (*BindRenderbuffer)(GLenum, GLuint) = nullptr;
  void (*RenderbufferStorage)(GLenum, GLenum, int, int) = nullptr;
  void (*GenFramebuffers)(int, GLuint *) = nullptr;
  void (*BindFramebuffer)(GLenum, GLuint) = nullptr;
  void (*FramebufferTexture2D)(GLenum, GLenum, GLenum, GLuint, int) = nullptr;
  void (*FramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint) = nullptr;
  void (*ReadPixels)(int, int, int, int, GLenum, GLenum, void *) = nullptr;
  void (*ClearColor)(float, float, float, float) = nullptr;
  void (*Clear)(unsigned) = nullptr;
  void (*Finish)() = nullptr;
  GLenum (*GetError)() = nullptr;

  /// A buffer object of \p Bytes holding \p Data (may be null).
  GLuint buffer(long Bytes, const void *Data) {
    GLuint B = 0;
    GenBuffers(1, &B);
    BindBuffer(glenum::ArrayBuffer, B);
    BufferData(glenum::ArrayBuffer, Bytes, Data, glenum::StaticDraw);
    BindBuffer(glenum::ArrayBuffer, 0);
    return B;
  }
  /// A 2D texture of \p Internal format with level 0 from \p Data.
  GLuint texture2D(GLenum Internal, int W, int H, GLenum Format, GLenum Type,
                   const void *Data) {
    GLuint T = 0;
    GenTextures(1, &T);
    BindTexture(glenum::Texture2D, T);
    TexImage2D(glenum::Texture2D, 0, static_cast<int>(Internal), W, H, 0,
               Format, Type, Data);
    TexParameteri(glenum::Texture2D, glenum::TextureMinFilter, glenum::Nearest);
    BindTexture(glenum::Texture2D, 0);
    return T;
  }
  /// Reads \p W x \p H pixels of \p Tex (2D texture) or \p Rb
  /// (renderbuffer) through a framebuffer.
  void readImage(GLuint Tex, GLuint Rb, int W, int H, GLenum Format,
                 GLenum Type, void *Out) {
    GLuint Fb = 0;
    GenFramebuffers(1, &Fb);
    BindFramebuffer(glenum::Framebuffer, Fb);
    if (Rb)
      FramebufferRenderbuffer(glenum::Framebuffer, glenum::ColorAttachment0,
                              glenum::Renderbuffer, Rb);
    else
      FramebufferTexture2D(glenum::Framebuffer, glenum::ColorAttachment0,
                           glenum::Texture2D, Tex, 0);
    ReadPixels(0, 0, W, H, Format, Type, Out);
    BindFramebuffer(glenum::Framebuffer, 0);
  }

private:
  using Proc = void *(*)(const char *);
  template <typename T> bool load(T &Out, const char *Name) {
    Out = reinterpret_cast<T>(GetProcAddress(Name));
    if (!Out)
      Why = std::string("eglGetProcAddress finds no ") + Name + ".";
    return Out != nullptr;
  }
  template <typename T> bool sym(T &Out, const char *Name) {
    Out = reinterpret_cast<T>(dlsym(Egl, Name));
    if (!Out)
      Why = std::string("libEGL.so.1 has no ") + Name + ".";
    return Out != nullptr;
  }

  bool create() {
    Egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!Egl) {
      Why = "libEGL.so.1 cannot be loaded (install libegl1 and a vendor "
            "library such as libegl-mesa0).";
      return false;
    }
    if (!sym(GetProcAddress, "eglGetProcAddress") ||
        !sym(Initialize, "eglInitialize") || !sym(Terminate, "eglTerminate") ||
        !sym(BindAPI, "eglBindAPI") || !sym(ChooseConfig, "eglChooseConfig") ||
        !sym(CreateContext, "eglCreateContext") ||
        !sym(DestroyContext, "eglDestroyContext") ||
        !sym(MakeCurrent, "eglMakeCurrent") ||
        !sym(GetDisplay, "eglGetDisplay"))
      return false;
    auto GetPlatformDisplay =
        reinterpret_cast<void *(*)(unsigned, void *, const int *)>(
            GetProcAddress("eglGetPlatformDisplayEXT"));
    auto QueryDevices = reinterpret_cast<unsigned (*)(int, void **, int *)>(
        GetProcAddress("eglQueryDevicesEXT"));
    int Major = 0, Minor = 0;
    // Mesa's surfaceless platform (llvmpipe), then the device platform
    // (NVIDIA's headless EGL), then the default display.
    if (GetPlatformDisplay) {
      Display = GetPlatformDisplay(0x31DD /*EGL_PLATFORM_SURFACELESS_MESA*/,
                                   nullptr, nullptr);
      if (Display && !Initialize(Display, &Major, &Minor))
        Display = nullptr;
      void *Devices[4];
      int Count = 0;
      if (!Display && QueryDevices && QueryDevices(4, Devices, &Count) &&
          Count > 0) {
        Display = GetPlatformDisplay(0x313F /*EGL_PLATFORM_DEVICE_EXT*/,
                                     Devices[0], nullptr);
        if (Display && !Initialize(Display, &Major, &Minor))
          Display = nullptr;
      }
    }
    if (!Display) {
      Display = GetDisplay(nullptr);
      if (Display && !Initialize(Display, &Major, &Minor))
        Display = nullptr;
    }
    if (!Display) {
      Why = "No EGL display could be initialized (surfaceless, device or "
            "default platform).";
      return false;
    }
    if (!BindAPI(0x30A2 /*EGL_OPENGL_API*/)) {
      Why = "EGL cannot bind the OpenGL API.";
      return false;
    }
    const int ConfigAttributes[] = {
        0x3040 /*EGL_RENDERABLE_TYPE*/, 0x0008 /*EGL_OPENGL_BIT*/,
        0x3033 /*EGL_SURFACE_TYPE*/, 0, 0x3038 /*EGL_NONE*/};
    void *Config = nullptr;
    int Configs = 0;
    ChooseConfig(Display, ConfigAttributes, &Config, 1, &Configs);
    const int ContextAttributes[] = {0x3098 /*EGL_CONTEXT_MAJOR_VERSION*/,
                                     3,
                                     0x30FB /*EGL_CONTEXT_MINOR_VERSION*/,
                                     3,
                                     0x30FD /*EGL_CONTEXT_OPENGL_PROFILE_MASK*/,
                                     1 /*CORE*/,
                                     0x3038};
    Context = CreateContext(Display, Configs ? Config : nullptr, nullptr,
                            ContextAttributes);
    if (!Context || !MakeCurrent(Display, nullptr, nullptr, Context)) {
      Why = "EGL cannot create and make current an OpenGL 3.3 core context "
            "without a surface.";
      return false;
    }
    return load(GenBuffers, "glGenBuffers") &&
           load(DeleteBuffers, "glDeleteBuffers") &&
           load(BindBuffer, "glBindBuffer") &&
           load(BufferData, "glBufferData") &&
           load(GetBufferSubData, "glGetBufferSubData") &&
           load(GenTextures, "glGenTextures") &&
           load(DeleteTextures, "glDeleteTextures") &&
           load(BindTexture, "glBindTexture") &&
           load(TexImage2D, "glTexImage2D") &&
           load(TexParameteri, "glTexParameteri") &&
           load(GenRenderbuffers, "glGenRenderbuffers") &&
           load(BindRenderbuffer, "glBindRenderbuffer") &&
           load(RenderbufferStorage, "glRenderbufferStorage") &&
           load(GenFramebuffers, "glGenFramebuffers") &&
           load(BindFramebuffer, "glBindFramebuffer") &&
           load(FramebufferTexture2D, "glFramebufferTexture2D") &&
           load(FramebufferRenderbuffer, "glFramebufferRenderbuffer") &&
           load(ReadPixels, "glReadPixels") &&
           load(ClearColor, "glClearColor") && load(Clear, "glClear") &&
           load(Finish, "glFinish") && load(GetError, "glGetError");
  }

  bool Ok = false;
  std::string Why;
  void *Egl = nullptr;
  void *Display = nullptr;
  void *Context = nullptr;
  Proc GetProcAddress = nullptr;
  unsigned (*Initialize)(void *, int *, int *) = nullptr;
  unsigned (*Terminate)(void *) = nullptr;
  unsigned (*BindAPI)(unsigned) = nullptr;
  unsigned (*ChooseConfig)(void *, const int *, void **, int, int *) = nullptr;
  void *(*CreateContext)(void *, void *, void *, const int *) = nullptr;
  unsigned (*DestroyContext)(void *, void *) = nullptr;
  unsigned (*MakeCurrent)(void *, void *, void *, void *) = nullptr;
  void *(*GetDisplay)(void *) = nullptr;
};

} // namespace cuapi

#endif // CUCPU_TESTS_API_GLCONTEXT_H

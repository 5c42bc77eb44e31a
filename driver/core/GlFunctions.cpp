//===- GlFunctions.cpp - OpenGL entry points found at run time ------------===//
#include "core/GlFunctions.h"

#include "core/Error.h"

#include <dlfcn.h>

#include <iterator>
#include <mutex>

using namespace cucpu;
using namespace cucpu::gl;

namespace {

using GetProcAddress = void *(*)(const char *);
using GetCurrentContext = void *(*)();

/// A GL window-system binding the program loaded: how to ask for its current
/// context and for GL functions.
struct Binding {
  GetCurrentContext CurrentContext = nullptr;
  GetProcAddress ProcAddress = nullptr;
  void *Library = nullptr; ///< dlsym fallback for core functions.
};

/// The binding of an already loaded library \p Name, whose current-context
/// and proc-address functions are \p Current and \p Proc. RTLD_NOLOAD: a
/// program that made a GL context has loaded its library, and one that did
/// not must not get GL loaded into it.
Binding bindingOf(const char *Name, const char *Current, const char *Proc) {
  Binding B;
  void *Handle = dlopen(Name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (!Handle)
    return B;
  B.CurrentContext =
      reinterpret_cast<GetCurrentContext>(dlsym(Handle, Current));
  B.ProcAddress = reinterpret_cast<GetProcAddress>(dlsym(Handle, Proc));
  B.Library = Handle;
  if (!B.CurrentContext || !B.ProcAddress)
    B = Binding();
  // The handle stays open: dlclose of a RTLD_NOLOAD handle only drops the
  // reference it took, and the program keeps the library loaded anyway.
  return B;
}

/// The binding with a context current on this thread, and that context. A
/// library found once stays bound; one not loaded yet is looked for again
/// at the next call (the program may load it later).
std::pair<Binding, void *> currentBinding() {
  struct Candidate {
    const char *Library, *Current, *Proc;
  };
  static constexpr Candidate Candidates[] = {
      {"libEGL.so.1", "eglGetCurrentContext", "eglGetProcAddress"},
      {"libGL.so.1", "glXGetCurrentContext", "glXGetProcAddressARB"},
      {"libGLX.so.0", "glXGetCurrentContext", "glXGetProcAddressARB"},
  };
  static std::mutex Mutex;
  static Binding Bound[std::size(Candidates)];
  for (size_t I = 0; I < std::size(Candidates); ++I) {
    Binding B;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      if (!Bound[I].CurrentContext)
        Bound[I] = bindingOf(Candidates[I].Library, Candidates[I].Current,
                             Candidates[I].Proc);
      B = Bound[I];
    }
    if (B.CurrentContext)
      if (void *Ctx = B.CurrentContext())
        return {B, Ctx};
  }
  return {Binding(), nullptr};
}

/// The functions resolved for the context a thread last used.
struct ThreadCache {
  void *Context = nullptr;
  Functions F{};
};
thread_local ThreadCache Cache;

template <typename T> bool resolve(const Binding &B, T &Out, const char *Name) {
  void *P = B.ProcAddress(Name);
  if (!P && B.Library)
    P = dlsym(B.Library, Name);
  Out = reinterpret_cast<T>(P);
  return P != nullptr;
}

/// Resolves every function of \p F; the first missing required one's name
/// is returned (null when all are there).
const char *resolveAll(const Binding &B, Functions &F) {
#define REQUIRED(Field, Name)                                                  \
  if (!resolve(B, F.Field, Name))                                              \
    return Name;
  REQUIRED(GetError, "glGetError")
  REQUIRED(GetIntegerv, "glGetIntegerv")
  REQUIRED(PixelStorei, "glPixelStorei")
  REQUIRED(IsBuffer, "glIsBuffer")
  REQUIRED(BindBuffer, "glBindBuffer")
  REQUIRED(GetBufferParameteriv, "glGetBufferParameteriv")
  resolve(B, F.GetBufferParameteri64v, "glGetBufferParameteri64v");
  REQUIRED(MapBufferRange, "glMapBufferRange")
  REQUIRED(UnmapBuffer, "glUnmapBuffer")
  REQUIRED(BufferSubData, "glBufferSubData")
  REQUIRED(IsTexture, "glIsTexture")
  REQUIRED(IsRenderbuffer, "glIsRenderbuffer")
  REQUIRED(BindTexture, "glBindTexture")
  REQUIRED(BindRenderbuffer, "glBindRenderbuffer")
  resolve(B, F.GetTexLevelParameteriv, "glGetTexLevelParameteriv");
  REQUIRED(GetRenderbufferParameteriv, "glGetRenderbufferParameteriv")
  REQUIRED(TexSubImage2D, "glTexSubImage2D")
  REQUIRED(TexSubImage3D, "glTexSubImage3D")
  REQUIRED(GenTextures, "glGenTextures")
  REQUIRED(DeleteTextures, "glDeleteTextures")
  REQUIRED(TexImage2D, "glTexImage2D")
  REQUIRED(GenFramebuffers, "glGenFramebuffers")
  REQUIRED(DeleteFramebuffers, "glDeleteFramebuffers")
  REQUIRED(BindFramebuffer, "glBindFramebuffer")
  REQUIRED(FramebufferTexture2D, "glFramebufferTexture2D")
  REQUIRED(FramebufferTextureLayer, "glFramebufferTextureLayer")
  REQUIRED(FramebufferRenderbuffer, "glFramebufferRenderbuffer")
  REQUIRED(CheckFramebufferStatus, "glCheckFramebufferStatus")
  REQUIRED(ReadPixels, "glReadPixels")
  REQUIRED(BlitFramebuffer, "glBlitFramebuffer")
#undef REQUIRED
  return nullptr;
}

} // namespace

bool gl::hasCurrentContext() { return currentBinding().second != nullptr; }

llvm::Expected<const Functions &> gl::current() {
  auto [B, Ctx] = currentBinding();
  // NVIDIA's driver answers CUDA_ERROR_OPERATING_SYSTEM when no GL context
  // is current (observed on the H200).
  CU_INVALID_IF(!Ctx, CUDA_ERROR_OPERATING_SYSTEM,
                "No OpenGL context is current on this thread (neither "
                "eglGetCurrentContext nor glXGetCurrentContext names one).");
  if (Cache.Context == Ctx)
    return Cache.F;
  Functions F{};
  const char *Missing = resolveAll(B, F);
  CU_INVALID_IF(Missing, CUDA_ERROR_INVALID_GRAPHICS_CONTEXT,
                "The current OpenGL context has no {0}, which graphics "
                "interoperability needs (OpenGL 3.0 or OpenGL ES 3.0 and up).",
                Missing);
  Cache.Context = Ctx;
  Cache.F = F;
  return Cache.F;
}

llvm::Error gl::checkError(const Functions &F, const char *What) {
  Enum First = F.GetError();
  if (First == NoError)
    return llvm::Error::success();
  // GL may have recorded several; clear them all for the next check.
  for (int I = 0; I < 8 && F.GetError() != NoError; ++I)
    ;
  return makeError(
      CUDA_ERROR_UNKNOWN,
      llvm::formatv("OpenGL reported error {0:x4} while {1}.", First, What)
          .str());
}

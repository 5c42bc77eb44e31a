// simpleGL: CUDA draws into an OpenGL buffer, OpenGL shows it (CUDA 11 guide
// §3.2.12.1, "OpenGL Interoperability"), headless through EGL.
//
// A pixel buffer object is registered with cuGraphicsGLRegisterBuffer and
// mapped; a kernel writes a picture into it; once unmapped, OpenGL uploads it
// into a texture, draws the texture into a framebuffer with a shader, and
// reads the framebuffer back with glReadPixels. The pixels must be the bytes
// the host computes, and they are written to simpleGL.ppm. Prints PASSED.
#include <cuda.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>

#include <cudaGL.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
const int Width = 256, Height = 192;

bool check(CUresult R, const char *What) {
  if (R == CUDA_SUCCESS)
    return true;
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  std::fprintf(stderr, "%s failed: %s (%d)\n", What, Name ? Name : "?", R);
  return false;
}

/// The directory of this executable, where the build puts the .cubin.
std::string exeDir() {
  char Path[4096];
  ssize_t N = readlink("/proc/self/exe", Path, sizeof(Path) - 1);
  if (N <= 0)
    return ".";
  std::string S(Path, static_cast<size_t>(N));
  return S.substr(0, S.rfind('/'));
}

/// The pixel drawRings writes at (X, Y), computed on the host.
unsigned expectedPixel(int X, int Y) {
  int Dx = X - Width / 2, Dy = Y - Height / 2;
  unsigned Ring = static_cast<unsigned>((Dx * Dx + Dy * Dy) >> 5) & 255u;
  unsigned Green = static_cast<unsigned>(X * 255 / (Width - 1));
  unsigned Blue = static_cast<unsigned>(Y * 255 / (Height - 1)) ^ (Ring >> 1);
  return Ring | Green << 8 | (Blue & 255u) << 16 | 255u << 24;
}

/// The GL functions the sample calls, from eglGetProcAddress (no libGL link
/// needed: EGL hands out every GL function).
struct Gl {
  PFNGLGENBUFFERSPROC GenBuffers;
  PFNGLBINDBUFFERPROC BindBuffer;
  PFNGLBUFFERDATAPROC BufferData;
  PFNGLGENTEXTURESPROC GenTextures;
  PFNGLBINDTEXTUREPROC BindTexture;
  PFNGLTEXIMAGE2DPROC TexImage2D;
  PFNGLTEXSUBIMAGE2DPROC TexSubImage2D;
  PFNGLTEXPARAMETERIPROC TexParameteri;
  PFNGLGENRENDERBUFFERSPROC GenRenderbuffers;
  PFNGLBINDRENDERBUFFERPROC BindRenderbuffer;
  PFNGLRENDERBUFFERSTORAGEPROC RenderbufferStorage;
  PFNGLGENFRAMEBUFFERSPROC GenFramebuffers;
  PFNGLBINDFRAMEBUFFERPROC BindFramebuffer;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC FramebufferRenderbuffer;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC CheckFramebufferStatus;
  PFNGLCREATESHADERPROC CreateShader;
  PFNGLSHADERSOURCEPROC ShaderSource;
  PFNGLCOMPILESHADERPROC CompileShader;
  PFNGLGETSHADERIVPROC GetShaderiv;
  PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog;
  PFNGLCREATEPROGRAMPROC CreateProgram;
  PFNGLATTACHSHADERPROC AttachShader;
  PFNGLLINKPROGRAMPROC LinkProgram;
  PFNGLGETPROGRAMIVPROC GetProgramiv;
  PFNGLUSEPROGRAMPROC UseProgram;
  PFNGLGENVERTEXARRAYSPROC GenVertexArrays;
  PFNGLBINDVERTEXARRAYPROC BindVertexArray;
  PFNGLVIEWPORTPROC Viewport;
  PFNGLDRAWARRAYSPROC DrawArrays;
  PFNGLREADPIXELSPROC ReadPixels;
  PFNGLPIXELSTOREIPROC PixelStorei;
  PFNGLGETSTRINGPROC GetString;
  PFNGLGETERRORPROC GetError;

  template <typename T> bool load(T &Out, const char *Name) {
    Out = reinterpret_cast<T>(eglGetProcAddress(Name));
    if (!Out)
      std::fprintf(stderr, "eglGetProcAddress(%s) found nothing\n", Name);
    return Out != nullptr;
  }
  bool loadAll() {
    return load(GenBuffers, "glGenBuffers") &&
           load(BindBuffer, "glBindBuffer") &&
           load(BufferData, "glBufferData") &&
           load(GenTextures, "glGenTextures") &&
           load(BindTexture, "glBindTexture") &&
           load(TexImage2D, "glTexImage2D") &&
           load(TexSubImage2D, "glTexSubImage2D") &&
           load(TexParameteri, "glTexParameteri") &&
           load(GenRenderbuffers, "glGenRenderbuffers") &&
           load(BindRenderbuffer, "glBindRenderbuffer") &&
           load(RenderbufferStorage, "glRenderbufferStorage") &&
           load(GenFramebuffers, "glGenFramebuffers") &&
           load(BindFramebuffer, "glBindFramebuffer") &&
           load(FramebufferRenderbuffer, "glFramebufferRenderbuffer") &&
           load(CheckFramebufferStatus, "glCheckFramebufferStatus") &&
           load(CreateShader, "glCreateShader") &&
           load(ShaderSource, "glShaderSource") &&
           load(CompileShader, "glCompileShader") &&
           load(GetShaderiv, "glGetShaderiv") &&
           load(GetShaderInfoLog, "glGetShaderInfoLog") &&
           load(CreateProgram, "glCreateProgram") &&
           load(AttachShader, "glAttachShader") &&
           load(LinkProgram, "glLinkProgram") &&
           load(GetProgramiv, "glGetProgramiv") &&
           load(UseProgram, "glUseProgram") &&
           load(GenVertexArrays, "glGenVertexArrays") &&
           load(BindVertexArray, "glBindVertexArray") &&
           load(Viewport, "glViewport") && load(DrawArrays, "glDrawArrays") &&
           load(ReadPixels, "glReadPixels") &&
           load(PixelStorei, "glPixelStorei") &&
           load(GetString, "glGetString") && load(GetError, "glGetError");
  }
};

/// A headless OpenGL 3.3 core context, current on this thread: Mesa's
/// surfaceless platform (llvmpipe) or the default display.
bool makeGlContext() {
  auto GetPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDisplay Display = EGL_NO_DISPLAY;
  EGLint Major = 0, Minor = 0;
  if (GetPlatformDisplay) {
    Display = GetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA,
                                 EGL_DEFAULT_DISPLAY, nullptr);
    if (Display != EGL_NO_DISPLAY && !eglInitialize(Display, &Major, &Minor))
      Display = EGL_NO_DISPLAY;
  }
  if (Display == EGL_NO_DISPLAY) {
    Display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (Display == EGL_NO_DISPLAY || !eglInitialize(Display, &Major, &Minor)) {
      std::fprintf(stderr, "no EGL display could be initialized\n");
      return false;
    }
  }
  eglBindAPI(EGL_OPENGL_API);
  const EGLint ConfigAttributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_SURFACE_TYPE, 0, EGL_NONE};
  EGLConfig Config = nullptr;
  EGLint Configs = 0;
  eglChooseConfig(Display, ConfigAttributes, &Config, 1, &Configs);
  const EGLint ContextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  EGLContext Context =
      eglCreateContext(Display, Configs ? Config : EGL_NO_CONFIG_KHR,
                       EGL_NO_CONTEXT, ContextAttributes);
  if (Context == EGL_NO_CONTEXT ||
      !eglMakeCurrent(Display, EGL_NO_SURFACE, EGL_NO_SURFACE, Context)) {
    std::fprintf(stderr, "no OpenGL 3.3 context without a surface (0x%x)\n",
                 eglGetError());
    return false;
  }
  return true;
}

GLuint compile(const Gl &G, GLenum Kind, const char *Source) {
  GLuint S = G.CreateShader(Kind);
  G.ShaderSource(S, 1, &Source, nullptr);
  G.CompileShader(S);
  GLint Ok = 0;
  G.GetShaderiv(S, GL_COMPILE_STATUS, &Ok);
  if (!Ok) {
    char Log[1024] = {};
    G.GetShaderInfoLog(S, sizeof(Log), nullptr, Log);
    std::fprintf(stderr, "shader: %s\n", Log);
    return 0;
  }
  return S;
}

/// A program that covers the viewport with one triangle and shows the
/// texture's texel under each fragment.
GLuint textureProgram(const Gl &G) {
  const char *Vertex = "#version 330 core\n"
                       "void main() {\n"
                       "  vec2 P = vec2((gl_VertexID << 1) & 2, gl_VertexID & "
                       "2);\n"
                       "  gl_Position = vec4(P * 2.0 - 1.0, 0.0, 1.0);\n"
                       "}\n";
  const char *Fragment = "#version 330 core\n"
                         "uniform sampler2D Picture;\n"
                         "out vec4 Color;\n"
                         "void main() {\n"
                         "  Color = texelFetch(Picture, "
                         "ivec2(gl_FragCoord.xy), 0);\n"
                         "}\n";
  GLuint V = compile(G, GL_VERTEX_SHADER, Vertex);
  GLuint F = compile(G, GL_FRAGMENT_SHADER, Fragment);
  if (!V || !F)
    return 0;
  GLuint P = G.CreateProgram();
  G.AttachShader(P, V);
  G.AttachShader(P, F);
  G.LinkProgram(P);
  GLint Ok = 0;
  G.GetProgramiv(P, GL_LINK_STATUS, &Ok);
  return Ok ? P : 0;
}

/// Writes the RGBA pixels (bottom row first, as glReadPixels gives them)
/// as a binary PPM, top row first.
bool writePpm(const char *Path, const std::vector<unsigned> &Pixels) {
  FILE *F = std::fopen(Path, "wb");
  if (!F)
    return false;
  std::fprintf(F, "P6\n%d %d\n255\n", Width, Height);
  for (int Y = Height - 1; Y >= 0; --Y)
    for (int X = 0; X < Width; ++X) {
      unsigned P = Pixels[Y * Width + X];
      unsigned char Rgb[3] = {static_cast<unsigned char>(P),
                              static_cast<unsigned char>(P >> 8),
                              static_cast<unsigned char>(P >> 16)};
      std::fwrite(Rgb, 1, 3, F);
    }
  return std::fclose(F) == 0;
}
} // namespace

#define CHECK(Call)                                                            \
  do {                                                                         \
    if (!check((Call), #Call))                                                 \
      return 1;                                                                \
  } while (0)

int main() {
  Gl G{};
  if (!makeGlContext() || !G.loadAll())
    return 1;
  std::printf("OpenGL: %s, %s\n",
              reinterpret_cast<const char *>(G.GetString(GL_RENDERER)),
              reinterpret_cast<const char *>(G.GetString(GL_VERSION)));

  // GL objects: the pixel buffer CUDA draws into, the texture it is
  // uploaded to, and the framebuffer the texture is drawn into.
  const size_t Bytes = size_t(Width) * Height * 4;
  GLuint Pbo = 0, Texture = 0, Color = 0, Fbo = 0, Vao = 0;
  G.GenBuffers(1, &Pbo);
  G.BindBuffer(GL_PIXEL_UNPACK_BUFFER, Pbo);
  G.BufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(Bytes), nullptr,
               GL_STREAM_DRAW);
  G.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  G.GenTextures(1, &Texture);
  G.BindTexture(GL_TEXTURE_2D, Texture);
  G.TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, Width, Height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, nullptr);
  // One level, so the texture is complete without mipmaps.
  G.TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  G.GenRenderbuffers(1, &Color);
  G.BindRenderbuffer(GL_RENDERBUFFER, Color);
  G.RenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, Width, Height);
  G.GenFramebuffers(1, &Fbo);
  G.BindFramebuffer(GL_FRAMEBUFFER, Fbo);
  G.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                            GL_RENDERBUFFER, Color);
  if (G.CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    std::fprintf(stderr, "the framebuffer is incomplete\n");
    return 1;
  }
  GLuint Program = textureProgram(G);
  if (!Program)
    return 1;
  G.GenVertexArrays(1, &Vao);

  // CUDA: register the pixel buffer (CUDA only writes it), map it, draw.
  CUdevice Dev;
  CUcontext Ctx;
  CUmodule Mod;
  CUfunction Draw;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&Dev, 0));
  CHECK(cuCtxCreate(&Ctx, 0, Dev));
  std::string Cubin = exeDir() + "/simpleGL_kernel.cubin";
  CHECK(cuModuleLoad(&Mod, Cubin.c_str()));
  CHECK(cuModuleGetFunction(&Draw, Mod, "drawRings"));
  CUgraphicsResource Resource;
  CHECK(cuGraphicsGLRegisterBuffer(&Resource, Pbo,
                                   CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD));
  CHECK(cuGraphicsMapResources(1, &Resource, nullptr));
  CUdeviceptr Pixels;
  size_t Mapped;
  CHECK(cuGraphicsResourceGetMappedPointer(&Pixels, &Mapped, Resource));
  if (Mapped != Bytes) {
    std::fprintf(stderr, "mapped %zu bytes, expected %zu\n", Mapped, Bytes);
    return 1;
  }
  int W = Width, H = Height;
  void *Args[] = {&Pixels, &W, &H};
  CHECK(cuLaunchKernel(Draw, (Width + 15) / 16, (Height + 15) / 16, 1, 16, 16,
                       1, 0, nullptr, Args, nullptr));
  // Unmapping hands the buffer back to GL once the kernel is done.
  CHECK(cuGraphicsUnmapResources(1, &Resource, nullptr));

  // GL: upload the buffer into the texture, draw it, read the result back.
  G.BindBuffer(GL_PIXEL_UNPACK_BUFFER, Pbo);
  G.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, Width, Height, GL_RGBA,
                  GL_UNSIGNED_BYTE, nullptr);
  G.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  G.Viewport(0, 0, Width, Height);
  G.UseProgram(Program);
  G.BindVertexArray(Vao);
  G.DrawArrays(GL_TRIANGLES, 0, 3);
  std::vector<unsigned> Frame(size_t(Width) * Height);
  G.PixelStorei(GL_PACK_ALIGNMENT, 4);
  G.ReadPixels(0, 0, Width, Height, GL_RGBA, GL_UNSIGNED_BYTE, Frame.data());
  if (GLenum E = G.GetError()) {
    std::fprintf(stderr, "OpenGL error 0x%x\n", E);
    return 1;
  }

  int Wrong = 0;
  for (int Y = 0; Y < Height; ++Y)
    for (int X = 0; X < Width; ++X)
      if (Frame[Y * Width + X] != expectedPixel(X, Y) && Wrong++ < 5)
        std::fprintf(stderr, "pixel (%d, %d) is %08x, expected %08x\n", X, Y,
                     Frame[Y * Width + X], expectedPixel(X, Y));
  if (!writePpm("simpleGL.ppm", Frame)) {
    std::fprintf(stderr, "cannot write simpleGL.ppm\n");
    return 1;
  }
  std::printf("wrote simpleGL.ppm (%dx%d)\n", Width, Height);
  CHECK(cuGraphicsUnregisterResource(Resource));
  CHECK(cuModuleUnload(Mod));
  CHECK(cuCtxDestroy(Ctx));
  if (Wrong) {
    std::printf("%d pixels differ\nFAILED\n", Wrong);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

//===- GraphicsGLTest.cpp - OpenGL interoperability -----------------------===//
//
// cuGraphics* and cuGL* (CUDA 1.1 guide §E.10, CUDA 11 guide §3.2.12.1).
// GraphicsNoGl cases need no GL context; GraphicsGL cases make a headless
// one (GlContext.h) and skip without it, unless CUCPU_REQUIRE_GL=1.
//
//===----------------------------------------------------------------------===//
#include "DriverTest.h"
#include "GlContext.h"

#include <cstring>
#include <vector>

using namespace cuapi;

namespace {

class GraphicsNoGl : public DriverTest {};

/// A DriverTest with a headless GL context current on the test's thread.
class GraphicsGL : public DriverTest {
protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!Gl.ok()) {
      if (glRequired())
        FAIL() << "CUCPU_REQUIRE_GL=1 but no GL context: " << Gl.why();
      GTEST_SKIP() << "no headless GL context: " << Gl.why();
    }
  }

  /// Maps \p R on the default stream.
  CUresult map(CUgraphicsResource &R, CUstream S = nullptr) {
    return cuGraphicsMapResources(1, &R, S);
  }
  CUresult unmap(CUgraphicsResource &R, CUstream S = nullptr) {
    return cuGraphicsUnmapResources(1, &R, S);
  }
  /// The bytes GL holds in buffer \p B.
  std::vector<unsigned char> glBytes(GLuint B, size_t Bytes) {
    std::vector<unsigned char> Out(Bytes);
    Gl.BindBuffer(glenum::ArrayBuffer, B);
    Gl.GetBufferSubData(glenum::ArrayBuffer, 0, static_cast<long>(Bytes),
                        Out.data());
    Gl.BindBuffer(glenum::ArrayBuffer, 0);
    return Out;
  }

  HeadlessGl Gl;
};

std::vector<unsigned char> ramp(size_t Bytes) {
  std::vector<unsigned char> V(Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    V[I] = static_cast<unsigned char>(I * 7 + 1);
  return V;
}

// --- Without a GL context -------------------------------------------------

TEST_F(GraphicsNoGl, NullHandlesAreInvalid) {
  CUgraphicsResource Null = nullptr;
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(1, &Null, 0))
      << "a NULL resource cannot be mapped";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnmapResources(1, &Null, 0))
      << "a NULL resource cannot be unmapped";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(nullptr))
      << "a NULL resource cannot be unregistered";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuGraphicsResourceGetMappedPointer(&P, &Bytes, nullptr))
      << "a NULL resource has no pointer";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuGraphicsSubResourceGetMappedArray(&A, nullptr, 0, 0))
      << "a NULL resource has no array";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuGraphicsResourceSetMapFlags(nullptr, 0))
      << "a NULL resource has no map flags";
}

TEST_F(GraphicsNoGl, EmptyOrNullListIsInvalid) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(0, nullptr, 0))
      << "NVIDIA refuses to map an empty list";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsUnmapResources(0, nullptr, 0))
      << "NVIDIA refuses to unmap an empty list";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(1, nullptr, 0))
      << "one resource in a NULL array";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsUnmapResources(1, nullptr, 0))
      << "one resource in a NULL array";
}

TEST_F(GraphicsNoGl, HandlesAreCheckedBeforeTheContext) {
  CUgraphicsResource Null = nullptr;
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(1, &Null, 0))
      << "a NULL resource is refused before the missing context";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Popped));
}

TEST_F(GraphicsNoGl, RegisteringNeedsAGlContext) {
  CUgraphicsResource R = nullptr;
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGraphicsGLRegisterBuffer(&R, 1, 0))
      << "NVIDIA: with no GL context current the driver cannot reach GL";
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM,
            cuGraphicsGLRegisterImage(&R, 1, glenum::Texture2D, 0))
      << "NVIDIA: with no GL context current the driver cannot reach GL";
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGLRegisterBufferObject(1))
      << "NVIDIA: the legacy registration needs GL too";
}

TEST_F(GraphicsNoGl, RegistrationArgumentsAreCheckedFirst) {
  CUgraphicsResource R = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(nullptr, 1, 0))
      << "the resource pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, 0, 0))
      << "GL name 0 is no buffer, whatever the GL context";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, 1, 0x10))
      << "0x10 is no register flag";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, 1, 3))
      << "READ_ONLY and WRITE_DISCARD contradict each other";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(nullptr, 1, glenum::Texture2D, 0))
      << "the resource pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, 1, 0x1234, 0))
      << "0x1234 is no texture or renderbuffer target";
}

TEST_F(GraphicsNoGl, RegisteringNeedsACudaContext) {
  CUcontext Popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&Popped));
  CUgraphicsResource R = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuGraphicsGLRegisterBuffer(&R, 1, 0))
      << "registration belongs to the current CUDA context (checked before GL)";
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuGLRegisterBufferObject(1))
      << "so does the legacy registration";
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(Popped));
}

TEST_F(GraphicsNoGl, GetDevicesNeedsAGlContext) {
  unsigned Count = 0;
  CUdevice Devices[4];
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM,
            cuGLGetDevices(&Count, Devices, 4, CU_GL_DEVICE_LIST_ALL))
      << "NVIDIA: with no GL context current no device renders for it";
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM,
            cuGLGetDevices(nullptr, Devices, 4, CU_GL_DEVICE_LIST_ALL))
      << "NVIDIA asks GL before it looks at the arguments";
}

TEST_F(GraphicsNoGl, GlInitAndGlCtxCreate) {
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGLInit())
      << "NVIDIA: cuGLInit needs a current GL context too";
  CUcontext C = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLCtxCreate(nullptr, 0, Dev))
      << "the context pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuGLCtxCreate(&C, 0, 99))
      << "there is no device 99";
  EXPECT_CU(CUDA_ERROR_OPERATING_SYSTEM, cuGLCtxCreate(&C, 0, Dev))
      << "NVIDIA: a GL context for the new context needs a current GL context";
}

TEST_F(GraphicsNoGl, LegacyCallsOnAnUnregisteredBuffer) {
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLMapBufferObject(&P, &Bytes, 1))
      << "buffer object 1 was never registered";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLUnmapBufferObject(1))
      << "buffer object 1 was never registered";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLUnregisterBufferObject(1))
      << "buffer object 1 was never registered";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLSetBufferObjectMapFlags(1, 0))
      << "NVIDIA: CUDA_ERROR_INVALID_VALUE, though cudaGL.h names "
         "CUDA_ERROR_INVALID_HANDLE";
}

// --- With a GL context ----------------------------------------------------

TEST_F(GraphicsGL, BufferRoundTrip) {
  std::vector<unsigned char> Init = ramp(256);
  GLuint B = Gl.buffer(256, Init.data());
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&R, B, 0))
      << "a GL buffer with storage registers";
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&P, &Bytes, R));
  EXPECT_EQ(256u, Bytes) << "the mapping covers the whole buffer";
  std::vector<unsigned char> Seen(256);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Seen.data(), P, 256));
  EXPECT_EQ(Init, Seen) << "CUDA sees the buffer's contents";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 0x5a, 128));
  ASSERT_CU(CUDA_SUCCESS, unmap(R));
  std::vector<unsigned char> Back = glBytes(B, 256);
  std::vector<unsigned char> Want = Init;
  std::memset(Want.data(), 0x5a, 128);
  EXPECT_EQ(Want, Back) << "GL sees CUDA's writes once unmapped";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(R))
      << "an unregistered resource is no longer a handle";
}

TEST_F(GraphicsGL, BufferMappingRules) {
  GLuint B = Gl.buffer(64, nullptr);
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&R, B, 0));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED,
            cuGraphicsResourceGetMappedPointer(&P, &Bytes, R))
      << "an unmapped resource has no pointer";
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED, unmap(R))
      << "an unmapped resource cannot be unmapped";
  CUgraphicsResource Twice[2] = {R, R};
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(2, Twice, 0))
      << "cuda.h: duplicate entries are CUDA_ERROR_INVALID_HANDLE";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsResourceSetMapFlags(R, 3))
      << "map flags are NONE, READ_ONLY or WRITE_DISCARD";
  ASSERT_CU(CUDA_SUCCESS, map(R)) << "the failed calls left it unmapped";
  EXPECT_CU(CUDA_ERROR_ALREADY_MAPPED, map(R))
      << "a mapped resource cannot be mapped again";
  EXPECT_CU(CUDA_ERROR_ALREADY_MAPPED, cuGraphicsResourceSetMapFlags(R, 0))
      << "map flags change only while unmapped";
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
            cuGraphicsSubResourceGetMappedArray(&A, R, 0, 0))
      << "a buffer is mapped as a pointer, not as an array";
  CUmipmappedArray M = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED_AS_ARRAY,
            cuGraphicsResourceGetMappedMipmappedArray(&M, R))
      << "a buffer is mapped as a pointer, not as a mipmapped array";
  EXPECT_CU(CUDA_SUCCESS, unmap(R));
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, BufferRegistrationIsValidated) {
  GLuint B = Gl.buffer(16, nullptr);
  CUgraphicsResource R = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(nullptr, B, 0))
      << "the resource pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, B, 0x10))
      << "0x10 is no register flag";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, 0, 0))
      << "GL name 0 is no buffer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsGLRegisterBuffer(&R, 4242, 0))
      << "GL name 4242 was never generated";
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(
                              &R, B, CU_GRAPHICS_REGISTER_FLAGS_READ_ONLY))
      << "READ_ONLY is a buffer's register flag";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(
                              &R, B, CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD))
      << "WRITE_DISCARD is a buffer's register flag";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, GlCtxCreateWithAGlContext) {
  EXPECT_CU(CUDA_SUCCESS, cuGLInit());
  CUcontext C = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGLCtxCreate(&C, 0, Dev))
      << "cuGLCtxCreate makes a context as cuCtxCreate does";
  CUcontext Current = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&Current));
  EXPECT_EQ(C, Current) << "the new context is current";
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(C));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSetCurrent(Ctx));
}

TEST_F(GraphicsGL, ReadOnlyMapDoesNotWriteBack) {
  std::vector<unsigned char> Init = ramp(64);
  GLuint B = Gl.buffer(64, Init.data());
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&R, B, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsResourceSetMapFlags(
                              R, CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY));
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&P, &Bytes, R));
  std::vector<unsigned char> Seen(64);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Seen.data(), P, 64));
  EXPECT_EQ(Init, Seen) << "a read-only mapping still shows the contents";
  ASSERT_CU(CUDA_SUCCESS, unmap(R));
  EXPECT_EQ(Init, glBytes(B, 64)) << "nothing CUDA wrote, nothing changed";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, WriteDiscardMapWritesBack) {
  GLuint B = Gl.buffer(64, ramp(64).data());
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(
                              &R, B, CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD));
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&P, &Bytes, R));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 0x11, 64));
  ASSERT_CU(CUDA_SUCCESS, unmap(R));
  EXPECT_EQ(std::vector<unsigned char>(64, 0x11), glBytes(B, 64))
      << "what CUDA writes over a write-discard mapping reaches GL";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, MapAndUnmapAreStreamOrdered) {
  GLuint B = Gl.buffer(1 << 20, nullptr);
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&R, B, 0));
  CUstream S = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, map(R, S));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsResourceGetMappedPointer(&P, &Bytes, R));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(P, 0x01020304, Bytes / 4, S));
  ASSERT_CU(CUDA_SUCCESS, unmap(R, S))
      << "the unmap follows the memset in the stream";
  std::vector<unsigned char> Back = glBytes(B, Bytes);
  EXPECT_EQ(4, Back[0]);
  EXPECT_EQ(1, Back[Bytes - 1]) << "the whole memset reached GL";
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(S));
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, UnregisterWhileMapped) {
  GLuint B = Gl.buffer(16, nullptr);
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsGLRegisterBuffer(&R, B, 0));
  ASSERT_CU(CUDA_SUCCESS, map(R));
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R))
      << "a mapped resource may be unregistered";
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, map(R))
      << "after which it is no longer a handle";
}

TEST_F(GraphicsGL, ImageRoundTrip) {
  const int W = 8, H = 4;
  std::vector<unsigned char> Init = ramp(W * H * 4);
  GLuint T = Gl.texture2D(glenum::Rgba8, W, H, glenum::Rgba,
                          glenum::UnsignedByte, Init.data());
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphicsGLRegisterImage(&R, T, glenum::Texture2D, 0))
      << "an RGBA8 2D texture registers";
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsSubResourceGetMappedArray(&A, R, 0, 0));
  CUDA_ARRAY3D_DESCRIPTOR D{};
  ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&D, A));
  EXPECT_EQ(size_t(W), D.Width);
  EXPECT_EQ(size_t(H), D.Height);
  EXPECT_EQ(0u, D.Depth) << "a 2D texture is a 2D array";
  EXPECT_EQ(CU_AD_FORMAT_UNSIGNED_INT8, D.Format) << "GL_RGBA8 is 8-bit";
  EXPECT_EQ(4u, D.NumChannels) << "GL_RGBA8 has four channels";

  std::vector<unsigned char> Seen(W * H * 4);
  CUDA_MEMCPY2D Copy{};
  Copy.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  Copy.srcArray = A;
  Copy.dstMemoryType = CU_MEMORYTYPE_HOST;
  Copy.dstHost = Seen.data();
  Copy.dstPitch = W * 4;
  Copy.WidthInBytes = W * 4;
  Copy.Height = H;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&Copy));
  EXPECT_EQ(Init, Seen) << "CUDA's array holds the texture's texels";

  std::vector<unsigned char> New(W * H * 4, 0x33);
  CUDA_MEMCPY2D Put{};
  Put.srcMemoryType = CU_MEMORYTYPE_HOST;
  Put.srcHost = New.data();
  Put.srcPitch = W * 4;
  Put.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Put.dstArray = A;
  Put.WidthInBytes = W * 4;
  Put.Height = H;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&Put));
  ASSERT_CU(CUDA_SUCCESS, unmap(R));
  std::vector<unsigned char> Back(W * H * 4);
  Gl.readImage(T, 0, W, H, glenum::Rgba, glenum::UnsignedByte, Back.data());
  EXPECT_EQ(New, Back) << "GL sees the texels CUDA wrote";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, ImageMappingRules) {
  GLuint T = Gl.texture2D(glenum::Rgba8, 4, 4, glenum::Rgba,
                          glenum::UnsignedByte, nullptr);
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphicsGLRegisterImage(&R, T, glenum::Texture2D, 0));
  CUarray A = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED,
            cuGraphicsSubResourceGetMappedArray(&A, R, 0, 0))
      << "an unmapped image has no array";
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  EXPECT_CU(CUDA_ERROR_NOT_MAPPED_AS_POINTER,
            cuGraphicsResourceGetMappedPointer(&P, &Bytes, R))
      << "an image is mapped as arrays, not as a pointer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsSubResourceGetMappedArray(&A, R, 1, 0))
      << "a 2D texture has one layer";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsSubResourceGetMappedArray(&A, R, 0, 1))
      << "the texture has one mipmap level";
  EXPECT_CU(CUDA_SUCCESS, unmap(R));
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, ImageRegistrationIsValidated) {
  GLuint T = Gl.texture2D(glenum::Rgba8, 4, 4, glenum::Rgba,
                          glenum::UnsignedByte, nullptr);
  GLuint Rgb = Gl.texture2D(glenum::Rgb8, 4, 4, glenum::Rgb,
                            glenum::UnsignedByte, nullptr);
  CUgraphicsResource R = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, T, 0x1234, 0))
      << "0x1234 is no texture or renderbuffer target";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, T, glenum::Texture3D, 0))
      << "the texture is 2D, not 3D";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, Rgb, glenum::Texture2D, 0))
      << "GL_RGB8 is not among cudaGL.h's formats";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, 4242, glenum::Texture2D, 0))
      << "GL name 4242 is no texture";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphicsGLRegisterImage(&R, T, glenum::Texture2D, 0x10))
      << "0x10 is no register flag";
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphicsGLRegisterImage(&R, T, glenum::Texture2D,
                                      CU_GRAPHICS_REGISTER_FLAGS_SURFACE_LDST))
      << "an image may be registered for surface load/store";
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsSubResourceGetMappedArray(&A, R, 0, 0));
  CUDA_ARRAY3D_DESCRIPTOR D{};
  ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&D, A));
  EXPECT_TRUE(D.Flags & CUDA_ARRAY3D_SURFACE_LDST)
      << "the array may be bound to a surface";
  EXPECT_CU(CUDA_SUCCESS, unmap(R));
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, RenderbufferRoundTrip) {
  const int W = 4, H = 2;
  GLuint Rb = 0;
  Gl.GenRenderbuffers(1, &Rb);
  Gl.BindRenderbuffer(glenum::Renderbuffer, Rb);
  Gl.RenderbufferStorage(glenum::Renderbuffer, glenum::R32f, W, H);
  Gl.BindRenderbuffer(glenum::Renderbuffer, 0);
  CUgraphicsResource R = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphicsGLRegisterImage(&R, Rb, glenum::Renderbuffer, 0))
      << "an R32F renderbuffer registers";
  ASSERT_CU(CUDA_SUCCESS, map(R));
  CUarray A = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphicsSubResourceGetMappedArray(&A, R, 0, 0));
  CUDA_ARRAY3D_DESCRIPTOR D{};
  ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&D, A));
  EXPECT_EQ(CU_AD_FORMAT_FLOAT, D.Format) << "GL_R32F is a float channel";
  EXPECT_EQ(1u, D.NumChannels);
  float Values[W * H];
  for (int I = 0; I < W * H; ++I)
    Values[I] = 0.5f * I;
  CUDA_MEMCPY2D Put{};
  Put.srcMemoryType = CU_MEMORYTYPE_HOST;
  Put.srcHost = Values;
  Put.srcPitch = W * sizeof(float);
  Put.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  Put.dstArray = A;
  Put.WidthInBytes = W * sizeof(float);
  Put.Height = H;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&Put));
  ASSERT_CU(CUDA_SUCCESS, unmap(R));
  float Back[W * H] = {};
  Gl.readImage(0, Rb, W, H, glenum::Red, glenum::Float, Back);
  for (int I = 0; I < W * H; ++I)
    EXPECT_EQ(Values[I], Back[I]) << "texel " << I << " reached GL";
  EXPECT_CU(CUDA_SUCCESS, cuGraphicsUnregisterResource(R));
}

TEST_F(GraphicsGL, GetDevicesNamesTheDevice) {
  unsigned Count = 0;
  CUdevice Devices[4] = {-1, -1, -1, -1};
  ASSERT_CU(CUDA_SUCCESS,
            cuGLGetDevices(&Count, Devices, 4, CU_GL_DEVICE_LIST_ALL));
  EXPECT_EQ(1u, Count) << "one device renders for the context";
  EXPECT_EQ(0, Devices[0]) << "device 0";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGLGetDevices(nullptr, Devices, 4, CU_GL_DEVICE_LIST_ALL))
      << "the count pointer is NULL";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGLGetDevices(&Count, Devices, 4, static_cast<CUGLDeviceList>(4)))
      << "4 is no CUGLDeviceList";
}

TEST_F(GraphicsGL, LegacyBufferObject) {
  std::vector<unsigned char> Init = ramp(32);
  GLuint B = Gl.buffer(32, Init.data());
  ASSERT_CU(CUDA_SUCCESS, cuGLRegisterBufferObject(B))
      << "§E.10: a buffer object is registered before it is mapped";
  CUdeviceptr P = 0;
  size_t Bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGLMapBufferObject(&P, &Bytes, B));
  EXPECT_EQ(32u, Bytes);
  std::vector<unsigned char> Seen(32);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(Seen.data(), P, 32));
  EXPECT_EQ(Init, Seen) << "the mapped buffer holds GL's bytes";
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(P, 9, 32));
  ASSERT_CU(CUDA_SUCCESS, cuGLUnmapBufferObject(B));
  EXPECT_EQ(std::vector<unsigned char>(32, 9), glBytes(B, 32))
      << "GL sees CUDA's writes once unmapped";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLUnmapBufferObject(B))
      << "the buffer is no longer mapped";
  EXPECT_CU(CUDA_SUCCESS, cuGLUnregisterBufferObject(B));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGLMapBufferObject(&P, &Bytes, B))
      << "an unregistered buffer cannot be mapped";
}

} // namespace
